/**
 * conformance.md: the verdict as a short Markdown summary for a pull-request comment or a
 * CI job summary. Failures first, each with its expectation and what was received, then the
 * curl commands that replay their requests; the exchanges stay in the HTML and JSON reports.
 */
import { cleanupHeadline, type RuleReport, type RunReport } from './model.ts';
import { cutShortNote } from './verdict.ts';
import { groupLine } from './root-causes.ts';
import { codeBlock, codeSpan, mdText, visibleChars } from './markdown-text.ts';
import { profileMarkdown, settleWindowLine } from './profile-md.ts';

const ICON: Record<string, string> = { pass: '✅', fail: '❌', warn: '⚠️', skip: '⏭️', error: '💥', inconclusive: '❔' };

/** The icon beside the verdict's word; the words themselves are the verdict's (verdict.ts). */
const VERDICT_ICON: Record<RunReport['verdict'], string> = {
  conformant: '✅',
  'not-conformant': '❌',
  partial: '⚠️',
  incomplete: '💥',
  interrupted: '⏹️',
};

/** The suite's own words (a title, a section), escaped. */
const inline = mdText;
/** Text the server or the user chose, inert in a code span; in a table cell when `cell`. */
const server = (text: string, max = 300, cell = false): string => codeSpan(text, max, cell);

function firstFailure(rule: RuleReport): string {
  if (rule.inconclusive) return `inconclusive: ${server(rule.inconclusive.note, 300, true)}`;
  for (const t of rule.tests) {
    const f = t.failures?.[0];
    if (f?.expected !== undefined) return `${inline(t.title, 120)}: expected ${server(f.expected, 200, true)}; received ${server(f.received ?? '', 200, true)}`;
    const e = t.errors?.[0] ?? t.warnings?.[0];
    if (t.outcome !== 'pass' && t.outcome !== 'skip' && e) return `${inline(t.title, 120)}: ${server(e.split('\n')[0] ?? '', 300, true)}`;
  }
  return '';
}

/** Each failing test's replay and rerun commands and its requests, folded: a summary must stay short. */
function replays(report: RunReport): string[] {
  const out: string[] = [];
  for (const r of report.rules.filter((x) => x.outcome === 'fail' || x.outcome === 'warn')) {
    for (const t of r.tests) {
      const commands = (t.failures ?? []).flatMap((f) => f.curl ?? []);
      if (commands.length === 0 && t.rerun === undefined && t.replay === undefined) continue;
      // Inside an HTML block Markdown escapes do not apply: HTML entities do.
      const title = visibleChars(t.title).replace(/\s+/g, ' ').slice(0, 160).replace(/[&<>"@#]/g, (c) => `&#${c.charCodeAt(0)};`);
      out.push('', `<details><summary>${title} (${commands.length} request${commands.length === 1 ? '' : 's'})</summary>`, '');
      if (t.replay !== undefined) out.push('Replay this test (it runs again with its data made afresh, prints one line, exits 1 when it fails again, and deletes what it made):', '', codeBlock(t.replay.command, 'sh'), '');
      if (t.rerun !== undefined) out.push('Rerun it with the whole report:', '', codeBlock(t.rerun, 'sh'), '');
      // The requests as sent: a widget the run made and deleted answers as a deleted one now.
      if (commands.length > 0) out.push('Its requests (a widget of the run they name was deleted at the end, unless --keep-failing kept it):', '', codeBlock(commands.join('\n\n'), 'sh'), '');
      out.push('</details>');
    }
  }
  if (out.length === 0) return [];
  return ['', '### Replay', '', 'Each failing test with the command that replays it, the command that reruns it and its requests; all read the tokens from the environment: `export WIDGET_TOKEN=… WIDGET_SECOND_TOKEN=…` first.', ...out];
}

/** What kept the run from a full verdict, one bullet each (the label says it in one line too). */
function verdictReasons(report: RunReport): string[] {
  const reasons = report.verdictDetail.reasons;
  return reasons.length > 1 ? ['', ...reasons.slice(0, 20).map((r) => `- ${inline(r, 300)}`)] : [];
}

/** Checks that passed on fewer runs than asked: shown where passes are, with how much ran. */
function cutShortRows(report: RunReport): string[] {
  return report.verdictDetail.cutShort.map((c) => {
    const rule = report.rules.find((r) => r.id === c.rule);
    return `| ⏱️ | ${c.rule} (passed, ${inline(cutShortNote(c.runs), 120)}) | ${rule?.level ?? ''} | ${inline(rule?.section ?? '', 40)} | ${inline(c.test, 160)} |`;
  });
}

/** Renders the report as Markdown. */
export function renderMarkdown(report: RunReport): string {
  const count = (level: 'MUST' | 'SHOULD'): string => {
    const c = report.summary[level];
    return `${level}: ${c.pass} passed, ${c.fail} failed, ${c.warn} warned, ${c.inconclusive} inconclusive, ${c.error} errored, ${c.skip} skipped`;
  };
  const lines = [
    // The headline is the suite's fixed words and counts (verdict.ts), never server text: shown as it is, the same word as every format.
    `## Widget Service conformance: ${VERDICT_ICON[report.verdict]} ${report.verdictDetail.headline.replace(/[^\w ():,.-]/g, '')}`,
    '',
    // The label too is the suite's words, rule ids and counts only (verdict.ts): markup characters dropped, the rest as it is.
    `Verdict: ${report.verdictDetail.label.replace(/[^\w ():;,.-]/g, '')}`,
    ...verdictReasons(report),
    '',
    `Target: ${server(report.target)} · implementation ${server(report.implementation)} · ${report.rules.length} rules · ${report.requests} requests · ${(report.durationMs / 1000).toFixed(1)} s · seed ${report.seed}${report.strict ? ' · strict' : ''}`,
    '',
    `${count('MUST')}  `,
    count('SHOULD'),
  ];
  const settle = settleWindowLine(report.profile?.listSettleMs);
  if (settle) lines.push('', settle);
  // Failures by root cause: one line per broken rule that explains inconclusive ones.
  const groups = (report.rootCauses ?? []).filter((g) => g.explains.length > 0);
  if (groups.length > 0) lines.push('', '### Failures by root cause', '', ...groups.map((g) => `- ${server(groupLine(g), 600)}`));
  const notPassing = report.rules.filter((r) => r.outcome === 'fail' || r.outcome === 'error' || r.outcome === 'warn' || r.outcome === 'inconclusive');
  const cutShort = cutShortRows(report);
  if (notPassing.length > 0 || cutShort.length > 0) {
    lines.push('', '| | Rule | Level | Section | What happened |', '|---|---|---|---|---|');
    for (const r of notPassing) {
      const mark = r.baselined && r.outcome === 'fail' ? '🔕' : ICON[r.outcome];
      const second = r.intermittent ? ` (intermittent: ${r.secondAttempt?.outcome === 'pass' ? 'passed' : (r.secondAttempt?.outcome ?? '')} on the second attempt, same seed)` : '';
      const known = r.baselined && r.outcome === 'fail' ? ' (known failure, in the baseline)' : r.baselined ? ' (baseline)' : '';
      lines.push(`| ${mark} | ${r.id}${known}${second} | ${r.level} | ${inline(r.section, 40)} | ${firstFailure(r) || inline(r.statement)} |`);
    }
    lines.push(...cutShort);
  }
  if (report.baseline?.nowPassing.length) lines.push('', `Baseline rules that now pass (remove them from ${server(report.baseline.file)}): ${report.baseline.nowPassing.join(', ')}`);
  const skipped = report.rules.filter((r) => r.outcome === 'skip');
  if (skipped.length > 0) lines.push('', `Skipped: ${skipped.map((r) => r.id).join(', ')} — ${inline(skipped[0]?.tests.find((t) => t.skipReason)?.skipReason ?? '')}`);
  lines.push(...replays(report));
  for (const e of report.suiteErrors) lines.push('', `Suite error: ${server(e)}`);
  lines.push(...profileMarkdown(report));
  lines.push('', `Cleanup: ${server(cleanupHeadline(report.cleanup, report.command), 1000)}`);
  if (report.cleanup.leftovers.length > 0) {
    // Every id, not a sample: the user must be able to find each widget the run left.
    lines.push('', '| Account | Widget id not deleted | Why |', '|---|---|---|');
    for (const l of report.cleanup.leftovers) lines.push(`| ${inline(l.account, 20)} | ${server(l.id, 1000, true)} | ${server(l.reason, 300, true)} |`);
    lines.push('', `Later, ${codeSpan(`${report.command ?? 'widget-conformance'} cleanup --base-url …`, 300)} deletes, with the same proof, what the run's journal (\`widget-journal-*.jsonl\` in the report directory) holds, and nothing else.`);
  }
  lines.push('', 'Details, with every HTTP exchange: `conformance.html` and `conformance.json` in the report directory.', '');
  return lines.join('\n');
}
