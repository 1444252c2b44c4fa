/**
 * conformance.html: one self-contained page (no network, no scripts, no external fonts or
 * styles) that shows the verdict first, then the rules as a grid by spec section coloured by
 * outcome, then each failure with its expectation, what was received and the exchange.
 * Everything from the server (names, messages, bodies) is escaped: shown as text, never run.
 */
import { formatExchange } from '../http/exchange.ts';
import type { RuleReport, RunReport, TestReport } from './model.ts';

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

const VERDICT: Record<RunReport['verdict'], { label: string; css: string }> = {
  conformant: { label: 'Conformant', css: 'pass' },
  'not-conformant': { label: 'Not conformant', css: 'fail' },
  incomplete: { label: 'Incomplete: the suite could not complete', css: 'error' },
  interrupted: { label: 'Interrupted', css: 'error' },
};

const OUTCOME_LABEL: Record<string, string> = { pass: 'passed', fail: 'failed', warn: 'warning', skip: 'skipped', error: 'suite error' };

const STYLE = `
:root { color-scheme: light; --pass:#1a7f37; --fail:#cf222e; --warn:#9a6700; --skip:#6e7781; --error:#8250df; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1f2328; background: #fff; }
header { padding: 20px 28px; color: #fff; }
header.pass { background: var(--pass); } header.fail { background: var(--fail); } header.error { background: var(--error); }
header h1 { margin: 0 0 4px; font-size: 26px; }
header p { margin: 2px 0; opacity: .95; }
main { padding: 8px 28px 40px; max-width: 1200px; }
h2 { font-size: 19px; margin: 26px 0 10px; }
.counts span { display: inline-block; margin-right: 14px; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 6px; }
.section h3 { font-size: 14px; margin: 14px 0 6px; color: #57606a; }
.cell { display: block; padding: 6px 8px; border-radius: 6px; color: #fff; text-decoration: none; font-size: 13px; }
.cell b { display: block; font-size: 14px; }
.pass { background: var(--pass); } .fail { background: var(--fail); } .warn { background: var(--warn); } .skip { background: var(--skip); } .error { background: var(--error); }
.cell.baselined { outline: 3px dashed #fff; outline-offset: -5px; }
details.rule { border: 1px solid #d0d7de; border-left: 6px solid var(--skip); border-radius: 6px; margin: 10px 0; padding: 8px 12px; }
details.rule.fail { border-left-color: var(--fail); } details.rule.warn { border-left-color: var(--warn); } details.rule.error { border-left-color: var(--error); }
details.rule summary { cursor: pointer; font-weight: 600; }
.test { margin: 10px 0 4px; }
.kv { display: grid; grid-template-columns: 90px 1fr; gap: 2px 10px; margin: 6px 0; }
.kv dt { color: #57606a; } .kv dd { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
pre { background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 6px; padding: 10px; overflow: auto; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
.muted { color: #57606a; font-size: 13px; }
`;

function counts(report: RunReport): string {
  return (['MUST', 'SHOULD'] as const)
    .map((level) => {
      const c = report.summary[level];
      return `<p class="counts"><b>${level}</b> <span>${c.pass} passed</span><span>${c.fail} failed</span><span>${c.warn} warned</span><span>${c.error} errored</span><span>${c.skip} skipped</span></p>`;
    })
    .join('');
}

/** Groups rules by the first spec section they cite (§4.2, §5, …), in catalogue order. */
function bySection(rules: readonly RuleReport[]): Map<string, RuleReport[]> {
  const groups = new Map<string, RuleReport[]>();
  for (const r of rules) {
    const section = /§[\d.]+/.exec(r.section)?.[0] ?? r.section;
    groups.set(section, [...(groups.get(section) ?? []), r]);
  }
  return groups;
}

function grid(report: RunReport): string {
  return [...bySection(report.rules)]
    .map(([section, rules]) => `<div class="section"><h3>${escapeHtml(section)}</h3><div class="grid">${rules
      .map((r) => `<a class="cell ${r.outcome}${r.baselined ? ' baselined' : ''}" href="#${r.id}" title="${escapeHtml(r.statement)}"><b>${r.id}</b>${r.level} · ${OUTCOME_LABEL[r.outcome]}${r.baselined ? ' (baseline)' : ''}</a>`)
      .join('')}</div></div>`)
    .join('');
}

function testDetail(t: TestReport): string {
  const parts = [`<div class="test"><b>${escapeHtml(t.title)}</b> <span class="muted">${OUTCOME_LABEL[t.outcome]} · ${t.durationMs} ms${t.runs ? ` · runs ${escapeHtml(t.runs)}` : ''}</span>`];
  for (const f of t.failures ?? []) {
    parts.push('<dl class="kv">');
    if (f.expected !== undefined) parts.push(`<dt>expected</dt><dd>${escapeHtml(f.expected)}</dd>`);
    if (f.received !== undefined) parts.push(`<dt>received</dt><dd>${escapeHtml(f.received)}</dd>`);
    if (f.note) parts.push(`<dt>note</dt><dd>${escapeHtml(f.note)}</dd>`);
    parts.push('</dl>');
    for (const x of f.exchanges ?? []) parts.push(`<pre>${escapeHtml(formatExchange(x, ''))}</pre>`);
    if (f.expected === undefined) parts.push(`<pre>${escapeHtml(f.message)}</pre>`);
  }
  for (const e of t.errors ?? []) parts.push(`<pre>${escapeHtml(e)}</pre>`);
  for (const w of t.warnings ?? []) parts.push(`<p>${escapeHtml(w)}</p>`);
  if (t.skipReason) parts.push(`<p class="muted">${escapeHtml(t.skipReason)}</p>`);
  parts.push('</div>');
  return parts.join('');
}

function ruleDetail(r: RuleReport, open: boolean): string {
  const tests = r.tests.filter((t) => t.outcome !== 'pass');
  return `<details class="rule ${r.outcome}" id="${r.id}"${open ? ' open' : ''}><summary>${r.id} (${r.level}, ${escapeHtml(r.section)}) — ${OUTCOME_LABEL[r.outcome]}${r.baselined ? ', in the baseline' : ''}: ${escapeHtml(r.statement)}</summary>
<p class="muted">${escapeHtml(r.basis)}</p>${tests.map(testDetail).join('')}</details>`;
}

/** Renders the report as one self-contained HTML page. */
export function renderHtml(report: RunReport): string {
  const verdict = VERDICT[report.verdict];
  const problems = report.rules.filter((r) => r.outcome === 'fail' || r.outcome === 'error');
  const warnings = report.rules.filter((r) => r.outcome === 'warn');
  const skipped = report.rules.filter((r) => r.outcome === 'skip');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Widget Service conformance: ${escapeHtml(verdict.label)}</title><style>${STYLE}</style></head>
<body><header class="${verdict.css}"><h1>${escapeHtml(verdict.label)}</h1>
<p>Target: ${escapeHtml(report.target)}${report.target === report.baseUrl ? '' : ` (${escapeHtml(report.baseUrl)})`}</p>
<p>${report.rules.length} rules · ${report.requests} requests · ${(report.durationMs / 1000).toFixed(1)} s · seed ${report.seed}${report.strict ? ' · strict: SHOULD violations fail' : ''} · exit code ${report.exitCode}</p></header>
<main>${counts(report)}
${report.baseline?.nowPassing.length ? `<p>Baseline rules that now pass (remove them from ${escapeHtml(report.baseline.file)}): ${report.baseline.nowPassing.join(', ')}</p>` : ''}
${report.suiteErrors.map((e) => `<pre>${escapeHtml(e)}</pre>`).join('')}
${problems.length ? `<h2>Failures</h2>${problems.map((r) => ruleDetail(r, true)).join('')}` : ''}
<h2>Rules by spec section</h2>${grid(report)}
${warnings.length ? `<h2>Warnings (SHOULD)</h2>${warnings.map((r) => ruleDetail(r, false)).join('')}` : ''}
${skipped.length ? `<h2>Skipped</h2>${skipped.map((r) => ruleDetail(r, false)).join('')}` : ''}
<p class="muted">widget-conformance ${escapeHtml(report.suiteVersion)} · ${escapeHtml(report.startedAt)} to ${escapeHtml(report.finishedAt)} · cleanup: ${report.cleanup.problems.length ? escapeHtml(report.cleanup.problems.join('; ')) : `nothing left behind`}</p>
</main></body></html>
`;
}
