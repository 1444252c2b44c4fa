/**
 * What the console prints at the end of a run, from the run report (so it says what every report
 * says): the findings, each rule once (report/console-report.ts), then one summary in the suite's
 * own words (counts by level, root causes, skips, requests, pace, cleanup, where the reports are)
 * and the verdict line, the verdict's own label (report/verdict.ts). No test runner's summary.
 */
import { consoleSafe } from '../../report/console.ts';
import { boundedLine, LINE_MAX, NO_PAINT, renderFindings, verdictLine, type Paint } from '../../report/console-report.ts';
import type { Outcome, RunReport } from '../../report/model.ts';
import { groupLine } from '../../report/root-causes.ts';

/** What the console says beside the report: the run's own facts the report does not hold. */
export interface SummaryExtra {
  /** Requests in flight at most (the adaptive limiter's last width). */
  readonly slots?: number;
  readonly maxRate?: number;
  readonly seconds: number;
  /** The report files written, as the user's paths. */
  readonly reports: readonly string[];
  readonly settingsFile: string;
  /** The cleanup's account, with the journal's path when something is left. */
  readonly cleanup: string;
  readonly listSettleMs?: number;
}

/** A line of the cleanup's account naming an id the run left, or the ids one reason left in one account (final-cleanup.ts leftoverLines). */
const LEFTOVER_LINE = /^ {4}(\S.* account, id |\d+ ids of the \S+ account: )/;

const COUNTED: ReadonlyArray<[Outcome, string]> = [['pass', 'passed'], ['fail', 'failed'], ['warn', 'warned'], ['inconclusive', 'inconclusive'], ['error', 'errored'], ['skip', 'skipped']];

/** Renders the end-of-run output: findings, summary, verdict. */
export function renderSummary(report: RunReport, extra: SummaryExtra, paint: Paint = NO_PAINT): string {
  const out: string[] = ['', '─'.repeat(72), boundedLine(`Widget Service conformance — ${report.target} (implementation ${report.implementation})`)];
  const findings = renderFindings(report, paint);
  if (findings.length > 0) out.push('', ...findings, '');
  out.push(`Rules (${report.rules.length} tested of ${report.catalogue.rules} in the catalogue):`);
  for (const level of ['MUST', 'SHOULD'] as const) {
    const c = report.summary[level];
    out.push(`  ${level.padEnd(6)} ${COUNTED.map(([o, word]) => `${c[o]} ${word}`).join(', ')}`);
  }
  // One fault, the rule it breaks: each broken rule with the inconclusive rules it explains.
  const groups = (report.rootCauses ?? []).filter((g) => g.explains.length > 0);
  // The headline is bounded, the rules it explains never cut off.
  const groupText = (g: (typeof groups)[number]): string => {
    const tail = `: also explains ${g.explains.join(', ')}`;
    return `${boundedLine(`  ${groupLine({ ...g, explains: [] })}`, Math.max(120, LINE_MAX - tail.length))}${tail}`;
  };
  if (groups.length > 0) out.push('Failures by root cause:', ...groups.map(groupText));
  // Skips usually share one reason (no second token): one line per reason.
  const skipped = new Map<string, string[]>();
  for (const r of report.rules.filter((x) => x.outcome === 'skip')) {
    const reason = r.tests.find((t) => t.skipReason)?.skipReason ?? 'skipped';
    skipped.set(reason, [...(skipped.get(reason) ?? []), r.id]);
  }
  if (skipped.size > 0) out.push('Skipped:', ...[...skipped].map(([reason, ids]) => boundedLine(`  ${ids.join(', ')}: ${reason}`)));
  if (report.baseline?.nowPassing.length) out.push(boundedLine(`Baseline rules that now pass (remove them from ${report.baseline.file}): ${report.baseline.nowPassing.join(', ')}`));
  for (const e of report.suiteErrors) out.push(boundedLine(`Suite error: ${e.split('\n')[0] ?? ''}`));
  out.push(`Requests: ${report.requests} (${report.retries} retried, ${report.rateLimitWaitMs} ms waiting on rate limits) in ${extra.seconds.toFixed(1)} s`);
  out.push(`Pace: ${paceLine(report, extra)}`);
  // The cleanup's account: each line bounded, except the lines naming an id left behind, which the
  // user needs whole to find the widget (data safety: every id is named, in every output).
  for (const l of `Cleanup: ${extra.cleanup}`.split('\n').filter((x) => x.trim() !== '')) out.push(LEFTOVER_LINE.test(l) ? consoleSafe(l) : boundedLine(l));
  // Data, not a verdict: where to find what the server chose where the spec is silent (docs/profile.md).
  if (report.profile) out.push(`Profile: ${report.profile.entries.filter((e) => e.observed).length} of ${report.profile.entries.length} open choices observed (the profile in conformance.json, .md and .html; docs/profile.md)`);
  // Which .env supplied settings: a run against the wrong target is explained at a glance.
  out.push(boundedLine(`Settings file: ${extra.settingsFile}`, 1000));
  out.push(boundedLine(`Reports: ${extra.reports.join(', ')}`, 2000));
  // Replay commands read the tokens from the environment, whichever way this run was given them.
  if (report.rules.some((r) => r.tests.some((t) => (t.failures ?? []).some((f) => (f.curl ?? []).length > 0)))) {
    out.push('Replay: each failure shows curl commands for its requests; they read the tokens from the environment: export WIDGET_TOKEN=… WIDGET_SECOND_TOKEN=… first');
  }
  // Every line that quotes the server went through boundedLine (consoleSafe, bounded); colour is added after.
  const text = out.join('\n');
  // A verdict reached with a settle window says so on the verdict line itself.
  return `${text}\n${verdictLine(report, paint, extra.listSettleMs ? `; lists judged with a settle window of ${extra.listSettleMs} ms` : '')}`;
}

/** At what rate the run went, and how many requests the server refused. */
function paceLine(report: RunReport, extra: SummaryExtra): string {
  const slots = extra.slots === undefined ? '' : `; up to ${extra.slots} requests in flight`;
  const refused = `${report.refused} of ${report.requests} requests refused (429/503)${slots}`;
  // Said as recorded: refusals may have come (each retried) without leaving a pace at the end.
  if (report.pacedRate === null) return `not paced at the end (no --max-rate${report.refused > 0 ? '; the refusals, each retried, left no lasting pace' : ', and no request was refused'}); ${refused}`;
  const why = extra.maxRate !== undefined && report.pacedRate >= extra.maxRate ? `--max-rate ${extra.maxRate}` : "learned from the server's rate-limit answers";
  return `${report.pacedRate} requests/s at the end (${why}); ${refused}`;
}
