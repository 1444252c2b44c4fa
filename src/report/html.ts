/**
 * conformance.html: one self-contained page (no network, no scripts, no external fonts or
 * styles; a Content-Security-Policy forbids them) that shows the verdict first, then each
 * failing rule with its expectation, what was received and the exchanges, then the rules as a
 * grid by spec section coloured by outcome. A person opening it sees the verdict and the first
 * failure's exchange in the first screen, without scrolling through passes.
 * Everything from the server (names, messages, bodies, headers) is escaped: shown as text, never run.
 */
import { formatExchange, type Exchange } from '../shared/exchange.ts';
import type { Outcome } from './model.ts';
import { cleanupHeadline, type FailureReport, type RuleReport, type RunReport, type TestReport } from './model.ts';
import { bySection } from './sections.ts';
import { cutShortNote, isCutShort } from './verdict.ts';
import { groupLine } from './root-causes.ts';
import { escapeHtml } from './html-text.ts';
import { PROFILE_STYLE, profileHtml, settleNoticeHtml } from './profile-html.ts';

/** The heading's colour by verdict; its words are the verdict's own (verdict.ts). */
const VERDICT_CSS: Record<RunReport['verdict'], string> = {
  conformant: 'o-pass',
  'not-conformant': 'o-fail',
  partial: 'o-warn',
  incomplete: 'o-error',
  interrupted: 'o-error',
};

const OUTCOME_LABEL: Record<Outcome, string> = { pass: 'passed', fail: 'failed', warn: 'warning', skip: 'skipped', error: 'suite error', inconclusive: 'inconclusive' };
/** A mark beside each colour, so that outcomes do not rest on colour alone. */
const OUTCOME_MARK: Record<Outcome, string> = { pass: '✓', fail: '✗', warn: '!', skip: '–', error: '⚠', inconclusive: '?' };
const COUNT_LABEL: Record<Outcome, string> = { pass: 'passed', fail: 'failed', warn: 'warned', error: 'errored', skip: 'skipped', inconclusive: 'inconclusive' };

const STYLE = `
:root { color-scheme: light; --pass:#1a7f37; --fail:#cf222e; --warn:#9a6700; --skip:#6e7781; --error:#8250df; --inconclusive:#0969da;
  --fg:#1f2328; --muted:#59636e; --line:#d1d9e0; --code-bg:#f6f8fa; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; margin: 0; color: var(--fg); background: #fff; }
a { color: inherit; }
header { padding: 14px 24px 12px; color: #fff; }
header h1 { margin: 0; font-size: 26px; line-height: 1.2; }
header h1::before { content: var(--mark); margin-right: .35em; }
header.o-pass h1 { --mark: "✓"; } header.o-fail h1 { --mark: "✗"; } header.o-error h1 { --mark: "⚠"; }
header p { margin: 3px 0 0; }
header .meta { font-size: 13px; opacity: .92; }
header a { color: #fff; font-weight: 600; }
.o-pass { --c: var(--pass); } .o-fail { --c: var(--fail); } .o-warn { --c: var(--warn); } .o-skip { --c: var(--skip); } .o-error { --c: var(--error); } .o-inconclusive { --c: var(--inconclusive); }
header, .cell, .badge { background: var(--c); }
main { padding: 4px 24px 32px; max-width: 1400px; }
h2 { font-size: 18px; margin: 18px 0 8px; }
.counts { margin: 10px 0 0; font-size: 14px; color: var(--muted); }
.counts b { color: var(--fg); }
.counts .n-fail, .counts .n-error { color: var(--fail); font-weight: 600; }
.notice { border: 1px solid var(--line); border-left: 5px solid var(--warn); border-radius: 6px; padding: 8px 12px; margin: 10px 0; }
.notice.second-attempt { padding: 4px 10px; margin: 6px 0; }
.notice.second-attempt > summary { cursor: pointer; }
details.rule { border: 1px solid var(--line); border-left: 5px solid var(--c); border-radius: 6px; margin: 8px 0 12px; padding: 6px 12px 10px; }
details.rule > summary { cursor: pointer; font-weight: 600; padding: 2px 0; }
.badge { display: inline-block; color: #fff; border-radius: 4px; padding: 0 6px; font-size: 12px; font-weight: 600; vertical-align: 1px; }
.rule-id { font-family: ui-monospace, SFMono-Regular, Menlo, "DejaVu Sans Mono", monospace; }
.where { color: var(--muted); font-weight: 400; font-size: 13px; }
.basis { color: var(--muted); font-size: 13px; margin: 2px 0 6px; }
.test { border-top: 1px solid var(--line); padding-top: 6px; margin-top: 6px; }
.test:first-of-type { border-top: 0; margin-top: 0; }
.test-title { font-weight: 600; }
.test-title .where { margin-left: 6px; }
.kv { display: grid; grid-template-columns: 80px 1fr; gap: 2px 10px; margin: 4px 0 6px; }
.kv dt { color: var(--muted); font-size: 13px; padding-top: 1px; }
.kv dd { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.kv dd.received { color: var(--fail); }
.exchanges { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(440px, 100%), 1fr)); gap: 8px; align-items: start; }
pre { margin: 0; background: var(--code-bg); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; overflow: auto;
  font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, "DejaVu Sans Mono", monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
pre + pre, .test > pre { margin-top: 6px; }
.exchanges pre { margin: 0; }
pre.curl { margin-top: 4px; }
pre .res { color: #0a3069; }
pre .start { font-weight: 700; }
details.more { margin: 4px 0; }
details.more > summary { cursor: pointer; color: var(--muted); font-size: 13px; }
details.more[open] > summary { margin-bottom: 4px; }
.grid { display: grid; grid-template-columns: 64px 1fr; gap: 6px 10px; align-items: start; }
.grid .section { font-weight: 600; color: var(--muted); font-size: 14px; padding-top: 5px; }
.cells { display: flex; flex-wrap: wrap; gap: 5px; }
.cell { display: inline-block; min-width: 96px; padding: 3px 8px; border-radius: 5px; color: #fff; text-decoration: none; font-size: 12px; line-height: 1.3; }
.cell b { display: block; font-size: 13px; }
.cell.baselined { outline: 2px dashed #fff; outline-offset: -4px; }
.legend { color: var(--muted); font-size: 13px; margin: 0 0 8px; }
.legend span { margin-right: 12px; white-space: nowrap; }
.legend i { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px; background: var(--c); }
.muted { color: var(--muted); font-size: 13px; }
footer { color: var(--muted); font-size: 13px; margin-top: 24px; }
`;

/** "MUST: 24 passed, 3 failed · SHOULD: 7 passed": zero counts left out, passed and failed always there. */
function counts(report: RunReport): string {
  const order: Outcome[] = ['pass', 'fail', 'inconclusive', 'error', 'warn', 'skip'];
  return (['MUST', 'SHOULD'] as const)
    .map((level) => {
      const c = report.summary[level];
      const parts = order.filter((o) => c[o] > 0 || o === 'pass' || o === 'fail').map((o) => `<span class="${c[o] > 0 ? `n-${o}` : ''}">${c[o]} ${COUNT_LABEL[o]}</span>`);
      return `<b>${level}</b> ${parts.join(', ')}`;
    })
    .join(' · ');
}

/** The line under the verdict: which rules decided it. */
function why(report: RunReport): string {
  const link = (rules: RuleReport[]): string => rules.map((r) => `<a href="#${r.id}">${r.id}</a>`).join(', ');
  const failed = report.rules.filter((r) => r.outcome === 'fail' && !r.baselined);
  const errored = report.rules.filter((r) => r.outcome === 'error');
  const warned = report.rules.filter((r) => r.outcome === 'warn');
  const parts: string[] = [];
  const mustFailed = failed.filter((r) => r.level === 'MUST');
  const shouldFailed = failed.filter((r) => r.level === 'SHOULD');
  if (mustFailed.length) parts.push(`${mustFailed.length} MUST rule${mustFailed.length === 1 ? '' : 's'} failed: ${link(mustFailed)}`);
  if (shouldFailed.length) parts.push(`${shouldFailed.length} SHOULD rule${shouldFailed.length === 1 ? '' : 's'} failed: ${link(shouldFailed)}`);
  if (errored.length) parts.push(`the suite could not check ${link(errored)}`);
  const inconclusive = report.rules.filter((r) => r.outcome === 'inconclusive');
  if (inconclusive.length) parts.push(`inconclusive: ${link(inconclusive)}`);
  if (report.suiteErrors.length) parts.push(`${report.suiteErrors.length} suite error${report.suiteErrors.length === 1 ? '' : 's'}`);
  if (report.baseline?.expectedFailures.length) parts.push(`failing as the baseline expects: ${link(report.rules.filter((r) => report.baseline?.expectedFailures.includes(r.id)))}`);
  if (warned.length) parts.push(`SHOULD warning${warned.length === 1 ? '' : 's'}: ${link(warned)}`);
  if (parts.length === 0) parts.push(`all ${report.rules.length} rules passed`);
  return parts.join(' · ');
}

/** "(cut short: 32 of 50 runs …)" for a rule that passed with a check cut short; empty otherwise. */
function cutShortOf(report: RunReport, rule: string): string {
  const cut = report.verdictDetail.cutShort.filter((c) => c.rule === rule);
  return cut.length === 0 ? '' : ` (${cut.map((c) => cutShortNote(c.runs)).join('; ')})`;
}

function grid(report: RunReport): string {
  const present = (['pass', 'fail', 'warn', 'inconclusive', 'error', 'skip'] as const).filter((o) => report.rules.some((r) => r.outcome === o));
  const legend = `<p class="legend">${present.map((o) => `<span class="o-${o}"><i></i>${OUTCOME_MARK[o]} ${OUTCOME_LABEL[o]}</span>`).join('')}${report.rules.some((r) => r.baselined) ? '<span>dashed: in the baseline</span>' : ''}</p>`;
  const rows = bySection(report.rules)
    .map(([section, rules]) => `<div class="section">${escapeHtml(section)}</div><div class="cells">${rules
      .map((r) => `<a class="cell o-${r.outcome}${r.baselined ? ' baselined' : ''}" href="#${r.id}" title="${escapeHtml(`${r.id} (${r.level}, ${r.section}): ${r.statement}`)}"><b>${r.id}</b>${OUTCOME_MARK[r.outcome]} ${r.level} ${OUTCOME_LABEL[r.outcome]}${escapeHtml(cutShortOf(report, r.id))}${r.intermittent ? ' (intermittent)' : ''}${r.baselined ? (r.outcome === 'fail' ? ' (known failure, in the baseline)' : ' (baseline)') : ''}</a>`)
      .join('')}</div>`)
    .join('');
  return `${legend}<div class="grid">${rows}</div>`;
}

/** An HTTP transcript, request lines and response lines told apart; every line escaped. */
function exchange(x: Exchange): string {
  const lines = formatExchange(x, '').split('\n');
  let seenResponse = false;
  const html = lines.map((line) => {
    const response = line.startsWith('<');
    const start = (!response && line === lines[0]) || (response && !seenResponse);
    if (response) seenResponse = true;
    return `<span class="${response ? 'res' : 'req'}${start ? ' start' : ''}">${escapeHtml(line)}</span>`;
  });
  return `<pre class="exchange">${html.join('\n')}</pre>`;
}

/** The replay command under its exchange: the request alone, tokens as variables, escaped. */
function replay(command: string | undefined): string {
  return command === undefined ? '' : `<pre class="curl" title="replay: export WIDGET_TOKEN (and WIDGET_SECOND_TOKEN) first">${escapeHtml(command)}</pre>`;
}

function failureDetail(f: FailureReport, showExchanges: boolean): string {
  const parts: string[] = [];
  if (f.expected !== undefined || f.received !== undefined || f.note) {
    parts.push('<dl class="kv">');
    if (f.expected !== undefined) parts.push(`<dt>expected</dt><dd class="expected">${escapeHtml(f.expected)}</dd>`);
    if (f.received !== undefined) parts.push(`<dt>received</dt><dd class="received">${escapeHtml(f.received)}</dd>`);
    if (f.note) parts.push(`<dt>note</dt><dd class="note">${escapeHtml(f.note)}</dd>`);
    parts.push('</dl>');
  }
  if (f.expected === undefined) parts.push(`<pre class="message">${escapeHtml(f.message)}</pre>`);
  const xs = f.exchanges ?? [];
  if (xs.length) {
    const body = `<div class="exchanges">${xs.map((x, i) => `<div>${exchange(x)}${replay(f.curl?.[i])}</div>`).join('')}</div>`;
    parts.push(showExchanges ? body : `<details class="more"><summary>The ${xs.length === 1 ? 'exchange' : `${xs.length} exchanges`}</summary>${body}</details>`);
  }
  return parts.join('');
}

/** One test of a rule; only the first failure of a rule shows its exchanges open, the rest fold them. */
function testDetail(t: TestReport, first: boolean): string {
  const parts = [`<div class="test"><div class="test-title">${escapeHtml(t.title)}<span class="where">${OUTCOME_LABEL[t.outcome]} · ${t.durationMs} ms${t.runs ? ` · runs ${escapeHtml(t.runs)}${(t.outcome === 'pass' || t.outcome === 'warn') && isCutShort(t.runs) ? ` · ${escapeHtml(cutShortNote(t.runs))}` : ''}` : ''}</span></div>`];
  for (const [i, f] of (t.failures ?? []).entries()) parts.push(failureDetail(f, first && i === 0));
  for (const e of t.errors ?? []) parts.push(`<pre class="message">${escapeHtml(e)}</pre>`);
  for (const w of t.warnings ?? []) parts.push(`<pre class="message">${escapeHtml(w)}</pre>`);
  if (t.skipReason) parts.push(`<p class="muted">${escapeHtml(t.skipReason)}</p>`);
  // After the failures: the first screen shows what differed first, then how to replay and rerun it.
  if (t.replay !== undefined) parts.push(`<pre class="curl replay" title="replay this test: prints one line, exit 1 when it fails again; export WIDGET_TOKEN (and WIDGET_SECOND_TOKEN) first">${escapeHtml(t.replay.command)}</pre>`);
  if (t.rerun !== undefined) parts.push(`<pre class="curl rerun" title="rerun this test: export WIDGET_TOKEN (and WIDGET_SECOND_TOKEN) first">${escapeHtml(t.rerun)}</pre>`);
  parts.push('</div>');
  return parts.join('');
}

/** Why a rule is inconclusive, and the second attempt of a rechecked rule. */
function ruleNotes(r: RuleReport): string {
  const parts: string[] = [];
  if (r.inconclusive) parts.push(`<p class="notice inconclusive">Inconclusive: ${escapeHtml(r.inconclusive.note)}</p>`);
  const a = r.secondAttempt;
  if (a) {
    const said = r.intermittent ? `Intermittent: ${r.outcome === 'fail' ? 'failed' : 'warned'} on the first attempt, ${OUTCOME_LABEL[a.outcome]} on the second (same seed); still a failure` : `Reproduced on a second attempt (same seed): ${OUTCOME_LABEL[a.outcome]}`;
    // The second attempt's tests folded: a rule with evidence from many tests would push its first failure out of the first screen.
    const list = `<ul class="muted">${a.tests.map((t) => `<li>${escapeHtml(t.title)}: ${OUTCOME_LABEL[t.outcome]}${t.message ? ` (${escapeHtml(t.message.split('\n')[0] ?? '')})` : ''}</li>`).join('')}</ul>`;
    parts.push(`<details class="notice second-attempt"><summary>${escapeHtml(said)}</summary>${list}</details>`);
  }
  return parts.join('');
}

function ruleDetail(r: RuleReport, open: boolean): string {
  const tests = r.tests.filter((t) => t.outcome !== 'pass');
  const passed = r.tests.length - tests.length;
  return `<details class="rule o-${r.outcome}" id="${r.id}" data-rule="${r.id}"${open ? ' open' : ''}><summary><span class="badge">${OUTCOME_MARK[r.outcome]} ${OUTCOME_LABEL[r.outcome]}${r.intermittent ? ' (intermittent)' : ''}</span> <span class="rule-id">${r.id}</span> <span class="where">${r.level} · ${escapeHtml(r.section)}${r.baselined ? ' · in the baseline' : ''}</span> ${escapeHtml(r.statement)}</summary>
<p class="basis">${escapeHtml(r.basis)}${passed ? ` · ${passed} of ${r.tests.length} tests passed` : ''}</p>${ruleNotes(r)}${tests.map((t, i) => testDetail(t, i === 0)).join('')}</details>`;
}

/** Failures by root cause: each broken rule and the inconclusive rules it explains. */
function rootCauseList(report: RunReport): string {
  const groups = report.rootCauses ?? [];
  if (!groups.some((g) => g.explains.length > 0)) return '';
  return `<h2>Failures by root cause</h2><ul class="root-causes">${groups.map((g) => `<li data-root-cause="${g.rule}">${escapeHtml(groupLine(g))}</li>`).join('')}</ul>`;
}

/** "Failures", "Suite errors in rules" or both, as the rules in the section are. */
function problemsHeading(problems: readonly RuleReport[]): string {
  const failed = problems.some((r) => r.outcome === 'fail');
  const errored = problems.some((r) => r.outcome === 'error' || r.outcome === 'inconclusive');
  return failed && errored ? 'Failures and rules the suite could not check' : failed ? 'Failures' : 'Rules the suite could not check';
}

/** Renders the report as one self-contained HTML page. */
export function renderHtml(report: RunReport): string {
  // The verdict's own headline (not conformant, though the gate passed, says both), and why.
  const verdict = { label: report.verdictDetail.headline, css: VERDICT_CSS[report.verdict] };
  // Why a passing run is only partial; a failing run's header names its failures instead (its first failure must stay in the first screen).
  const reasons = report.verdictDetail.kind === 'partial' ? report.verdictDetail.reasons : [];
  const problems = report.rules.filter((r) => r.outcome === 'fail' || r.outcome === 'error' || r.outcome === 'inconclusive');
  const warnings = report.rules.filter((r) => r.outcome === 'warn');
  const skipped = report.rules.filter((r) => r.outcome === 'skip');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Widget Service conformance: ${escapeHtml(verdict.label)}</title><style>${STYLE}${PROFILE_STYLE}</style></head>
<body><header class="${verdict.css}"><h1>${escapeHtml(verdict.label)}</h1>
<p class="why">${why(report)}</p>
${reasons.length > 1 ? `<p class="verdict-reasons">${reasons.map((r) => escapeHtml(r)).join(' · ')}</p>` : ''}
<p class="meta">Target ${escapeHtml(report.target)}${report.target === report.baseUrl ? '' : ` (${escapeHtml(report.baseUrl)})`} · implementation ${escapeHtml(report.implementation)} · ${report.rules.length} rules · ${report.requests} requests · ${(report.durationMs / 1000).toFixed(1)} s · seed ${report.seed}${report.strict ? ' · strict: SHOULD violations fail' : ''} · exit code ${report.exitCode}</p></header>
<main><p class="counts">${counts(report)}</p>
${settleNoticeHtml(report)}
${report.baseline?.nowPassing.length ? `<p class="notice">Baseline rules that now pass (remove them from ${escapeHtml(report.baseline.file)}): ${report.baseline.nowPassing.map(escapeHtml).join(', ')}</p>` : ''}
${report.suiteErrors.length ? `<h2>Suite errors</h2>${report.suiteErrors.map((e) => `<pre class="message">${escapeHtml(e)}</pre>`).join('')}` : ''}
${rootCauseList(report)}
${problems.length ? `<h2>${problemsHeading(problems)}</h2>${problems.map((r) => ruleDetail(r, true)).join('')}` : ''}
<h2>Rules by spec section</h2>${grid(report)}
${warnings.length ? `<h2>Warnings (SHOULD)</h2>${warnings.map((r) => ruleDetail(r, false)).join('')}` : ''}
${skipped.length ? `<h2>Skipped</h2>${skipped.map((r) => ruleDetail(r, false)).join('')}` : ''}
${profileHtml(report)}
<footer>widget-conformance ${escapeHtml(report.suiteVersion)} · ${escapeHtml(report.startedAt)} to ${escapeHtml(report.finishedAt)} · cleanup: ${escapeHtml(cleanupHeadline(report.cleanup, report.command))}</footer>
</main></body></html>
`;
}
