/** The short summary printed at the end of a run: counts by level, then what failed, warned or errored. */
import { consoleSafe } from '../../report/console.ts';
import type { RunReport } from '../../report/model.ts';
import { gatePassedNote, notRunNote } from '../../report/verdict.ts';
import { groupLine } from '../../report/root-causes.ts';
import type { Outcome, RunOutcomes } from './outcomes.ts';

const VERDICT: Record<number, string> = {
  0: 'CONFORMANT: every MUST rule tested passed',
  1: 'NOT CONFORMANT: at least one rule failed',
  2: 'NO VERDICT: a setup problem (see the line below)',
  3: 'INCOMPLETE: the suite could not complete (suite errors or inconclusive rules, no rule failure)',
  130: 'INTERRUPTED by SIGINT: no verdict',
  143: 'INTERRUPTED by SIGTERM: no verdict',
};

/** The verdict line: a gate that passed over known failures is still not conformance. */
function verdictLine(exitCode: number, knownFailures: number, notRun: readonly string[]): string {
  if (exitCode === 0 && knownFailures > 0) return `NOT CONFORMANT (${gatePassedNote(knownFailures)})`;
  // A run without the second account is never called conformant: it says what it did not run.
  if (exitCode === 0 && notRun.length > 0) return `PARTIAL: every rule run passed, but ${notRunNote(notRun)}`;
  return VERDICT[exitCode] ?? `exit ${exitCode}`;
}

/** Renders the end-of-run summary. */
export function renderSummary(
  outcomes: RunOutcomes,
  extra: { implementation?: string; rootCauses?: RunReport['rootCauses']; inconclusive?: ReadonlyMap<string, string>; target: string; requests: number; retries: number; waitMs: number; refused: number; pacedRate?: number; maxRate?: number; slots?: number; seconds: number; reports: string[]; settingsFile: string; exitCode: number; cleanup: string; baseline?: RunReport['baseline']; listSettleMs?: number; profile?: RunReport['profile']; notRun?: readonly string[] },
): string {
  const byLevel = (level: 'MUST' | 'SHOULD', o: Outcome): number => outcomes.rules.filter((r) => r.rule.level === level && r.outcome === o).length;
  const line = (level: 'MUST' | 'SHOULD'): string =>
    `  ${level.padEnd(6)} ${byLevel(level, 'pass')} passed, ${byLevel(level, 'fail')} failed, ${byLevel(level, 'warn')} warned, ${byLevel(level, 'inconclusive')} inconclusive, ${byLevel(level, 'error')} errored, ${byLevel(level, 'skip')} skipped`;
  const out = ['', '─'.repeat(72), `Widget Service conformance — ${extra.target}${extra.implementation ? ` (implementation ${extra.implementation})` : ''}`, `Rules (${outcomes.rules.length} tested):`, line('MUST'), line('SHOULD')];
  const list = (o: Outcome, label: string, detail: (r: RunOutcomes['rules'][number]) => string): void => {
    const rules = outcomes.rules.filter((r) => r.outcome === o);
    if (rules.length === 0) return;
    out.push(`${label}:`);
    for (const r of rules) out.push(`  ${r.rule.id.padEnd(7)} ${r.rule.level.padEnd(6)} ${detail(r)}`);
  };
  const expected = new Set(extra.baseline?.expectedFailures ?? []);
  const failed = outcomes.rules.filter((r) => r.outcome === 'fail' && !expected.has(r.rule.id));
  if (failed.length > 0) {
    out.push('Failed:');
    for (const r of failed) out.push(`  ${r.rule.id.padEnd(7)} ${r.rule.level.padEnd(6)} ${r.intermittent ? `INTERMITTENT (${r.secondAttempt?.outcome ?? '?'} on the second attempt, same seed) ` : ''}${r.tests.filter((t) => t.outcome === 'fail').map((t) => t.title).join('; ')}`);
  }
  // One fault, the rule it breaks: each broken rule with the inconclusive rules it explains.
  const groups = (extra.rootCauses ?? []).filter((g) => g.explains.length > 0);
  if (groups.length > 0) out.push('Failures by root cause:', ...groups.map((g) => `  ${groupLine(g)}`));
  list('inconclusive', 'Inconclusive (no verdict: something they depend on is broken)', (r) => extra.inconclusive?.get(r.rule.id) ?? r.tests.find((t) => t.outcome === 'inconclusive')?.messages[0]?.split('\n')[0] ?? '');
  list('warn', 'Warnings (SHOULD; --strict makes them fail)', (r) => `${r.intermittent ? `INTERMITTENT (${r.secondAttempt?.outcome ?? '?'} on the second attempt, same seed) ` : ''}${r.tests.flatMap((t) => t.warnings).join('; ')}`);
  list('error', 'Suite errors (no verdict)', (r) => r.tests.filter((t) => t.outcome === 'error').map((t) => t.messages[0]?.split('\n')[0] ?? t.title).join('; '));
  // Skips usually share one reason (no second token): one line per reason.
  const skipped = new Map<string, string[]>();
  for (const r of outcomes.rules.filter((x) => x.outcome === 'skip')) {
    const reason = r.tests.find((t) => t.skipReason)?.skipReason ?? 'skipped';
    skipped.set(reason, [...(skipped.get(reason) ?? []), r.rule.id]);
  }
  if (skipped.size > 0) out.push('Skipped:', ...[...skipped].map(([reason, ids]) => `  ${ids.join(', ')}: ${reason}`));
  if (extra.baseline?.expectedFailures.length) out.push(`Expected failures (in the baseline, not failing the run): ${extra.baseline.expectedFailures.join(', ')}`);
  if (extra.baseline?.nowPassing.length) out.push(`Baseline rules that now pass (remove them from ${extra.baseline.file}): ${extra.baseline.nowPassing.join(', ')}`);
  for (const e of outcomes.suiteErrors) out.push(`Suite error: ${e.split('\n')[0]}`);
  out.push(`Requests: ${extra.requests} (${extra.retries} retried, ${extra.waitMs} ms waiting on rate limits) in ${extra.seconds.toFixed(1)} s`);
  out.push(`Pace: ${paceLine(extra)}`);
  out.push(`Cleanup: ${extra.cleanup}`);
  // Data, not a verdict: where to find what the server chose where the spec is silent (docs/profile.md).
  if (extra.profile) out.push(`Profile: ${extra.profile.entries.filter((e) => e.observed).length} of ${extra.profile.entries.length} open choices observed (the profile in conformance.json, .md and .html; docs/profile.md)`);
  // Which .env supplied settings: a run against the wrong target is explained at a glance.
  out.push(`Settings file: ${extra.settingsFile}`);
  out.push(`Reports: ${extra.reports.join(', ')}`);
  // Replay commands read the tokens from the environment, whichever way this run was given them.
  if (outcomes.tests.some((t) => t.failures.some((f) => (f.curl ?? []).length > 0))) {
    out.push('Replay: each failure shows curl commands for its requests; they read the tokens from the environment: export WIDGET_TOKEN=… WIDGET_SECOND_TOKEN=… first');
  }
  // A verdict reached with a settle window says so on the verdict line itself.
  out.push(`Verdict: ${verdictLine(extra.exitCode, extra.baseline?.expectedFailures.length ?? 0, extra.notRun ?? [])}${extra.listSettleMs ? `; lists judged with a settle window of ${extra.listSettleMs} ms` : ''}`);
  // Titles and first lines of messages may quote the server: escaped for a terminal and a CI log.
  return consoleSafe(out.join('\n'));
}

/** At what rate the run went, and how many requests the server refused. */
function paceLine(extra: { requests: number; refused: number; pacedRate?: number; maxRate?: number; slots?: number }): string {
  const slots = extra.slots === undefined ? '' : `; up to ${extra.slots} requests in flight`;
  const refused = `${extra.refused} of ${extra.requests} requests refused (429/503)${slots}`;
  if (extra.pacedRate === undefined) return `not paced (no --max-rate, no rate limit met); ${refused}`;
  const why = extra.maxRate !== undefined && extra.pacedRate >= extra.maxRate ? `--max-rate ${extra.maxRate}` : "learned from the server's rate-limit answers";
  return `${extra.pacedRate} requests/s at the end (${why}); ${refused}`;
}
