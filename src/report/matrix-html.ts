/**
 * matrix.html: the comparison as one self-contained page, like the run report (no network, no
 * scripts; a Content-Security-Policy forbids them). Rules as rows grouped by spec section, one
 * column per run, each cell coloured by outcome and marked with a symbol too, linking to the
 * rule's evidence in that run's report. Everything that comes from an input is escaped.
 */
import { escapeHtml } from './html-text.ts';
import { ABSENT, CHANGE_WORDS, outcomeLabel, type Matrix, type MatrixCell, type MatrixColumn } from './matrix.ts';
import { PROFILE_MATRIX_STYLE, profileMatrixHtml } from './matrix-profile-render.ts';

/** Colour and mark of each outcome; an outcome not listed (a newer suite's) gets the generic one. */
const LOOK: Readonly<Record<string, { colour: string; mark: string }>> = {
  pass: { colour: '#1a7f37', mark: '✓' },
  fail: { colour: '#cf222e', mark: '✗' },
  warn: { colour: '#9a6700', mark: '!' },
  skip: { colour: '#6e7781', mark: '–' },
  error: { colour: '#8250df', mark: '⚠' },
  inconclusive: { colour: '#bc4c00', mark: '?' },
  [ABSENT]: { colour: '#d1d9e0', mark: '∅' },
};
const GENERIC = { colour: '#57606a', mark: '•' };
const look = (outcome: string) => LOOK[outcome] ?? GENERIC;
/** A class name for an outcome: only letters and digits of it, so an odd string cannot break out of the attribute. */
const cls = (outcome: string) => `o-${outcome.replace(/[^a-z0-9]/gi, '') || 'x'}`;
const CHANGE_MARK = { regression: '▼', fixed: '▲', changed: '↔' } as const;

const STYLE = `
:root { color-scheme: light; --fg:#1f2328; --muted:#59636e; --line:#d1d9e0; }
* { box-sizing: border-box; }
body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; margin: 0; padding: 16px 24px 32px; color: var(--fg); background: #fff; }
h1 { font-size: 22px; margin: 0 0 8px; }
h2 { font-size: 17px; margin: 18px 0 8px; }
.notice { border: 1px solid var(--line); border-left: 5px solid #9a6700; border-radius: 6px; padding: 8px 12px; margin: 8px 0; }
.legend { color: var(--muted); font-size: 13px; }
.legend span { margin-right: 12px; white-space: nowrap; }
.legend i { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px; background: var(--c); }
table { border-collapse: collapse; margin-top: 8px; }
th, td { border: 1px solid var(--line); padding: 4px 8px; vertical-align: top; text-align: left; }
thead th { background: #f6f8fa; font-weight: 600; max-width: 260px; }
thead .meta { display: block; font-weight: 400; color: var(--muted); font-size: 12px; overflow-wrap: anywhere; }
tr.section th { background: #f6f8fa; color: var(--muted); font-size: 13px; }
.rule-id { font-family: ui-monospace, SFMono-Regular, Menlo, "DejaVu Sans Mono", monospace; font-weight: 600; white-space: nowrap; }
.statement { display: block; color: var(--muted); font-size: 12px; max-width: 520px; }
td.cell { background: var(--c); color: #fff; white-space: nowrap; font-weight: 600; min-width: 110px; }
td.cell a { color: #fff; }
td.o-absent { color: var(--fg); }
td.changed-cell { outline: 3px solid #1f2328; outline-offset: -3px; }
.change { display: block; font-size: 12px; font-weight: 400; }
.verdict { display: inline-block; color: #fff; border-radius: 4px; padding: 0 6px; font-size: 12px; background: var(--c); }
ul.changes li { margin: 2px 0; }
`;

function outcomeVars(): string {
  return Object.entries(LOOK).map(([o, l]) => `.${cls(o)} { --c: ${l.colour}; }`).concat(`.o-generic { --c: ${GENERIC.colour}; }`).join('\n');
}
const cssClass = (outcome: string) => (outcome in LOOK ? cls(outcome) : 'o-generic');

const VERDICT_OUTCOME: Readonly<Record<string, string>> = { conformant: 'pass', 'not-conformant': 'fail', partial: 'warn', incomplete: 'error', interrupted: 'error' };

function counts(column: MatrixColumn): string {
  return Object.entries(column.counts).map(([o, n]) => `${n} ${escapeHtml(outcomeLabel(o))}`).join(' · ');
}

function header(column: MatrixColumn, columns: readonly MatrixColumn[]): string {
  const verdict = column.verdict;
  const link = column.reportHref === undefined ? '' : ` · <a href="${escapeHtml(column.reportHref)}">report</a>`;
  const after = column.previous === undefined ? '' : `<span class="meta">compared with ${escapeHtml(columns[column.previous]!.label)}</span>`;
  return `<th scope="col">${escapeHtml(column.label)}
<span class="meta"><span class="verdict ${cssClass(VERDICT_OUTCOME[verdict] ?? verdict)}">${escapeHtml(column.verdictWord)}</span></span>
<span class="meta">${counts(column)}</span>
<span class="meta">suite ${escapeHtml(column.suiteVersion)} · interface ${escapeHtml(column.interfaceVersion)} · seed ${column.seed}${link}</span>
<span class="meta">${escapeHtml(column.target)} · ${escapeHtml(column.startedAt)}</span>
<span class="meta">${escapeHtml(column.source)}</span>${after}</th>`;
}

function cell(c: MatrixCell, columns: readonly MatrixColumn[]): string {
  const text = `${look(c.outcome).mark} ${escapeHtml(outcomeLabel(c.outcome))}${c.baselined ? ' (baseline)' : ''}`;
  const body = c.href === undefined ? text : `<a href="${escapeHtml(c.href)}">${text}</a>`;
  const change = c.change
    ? `<span class="change">${CHANGE_MARK[c.change.kind]} ${CHANGE_WORDS[c.change.kind]}: was ${escapeHtml(outcomeLabel(c.change.from))} in ${escapeHtml(columns[c.change.previous]!.label)}</span>`
    : '';
  return `<td class="cell ${cssClass(c.outcome)}${c.change ? ` changed-cell change-${c.change.kind}` : ''}">${body}${change}</td>`;
}

function changesList(matrix: Matrix): string {
  if (matrix.changes.length === 0) return '';
  const label = (i: number) => escapeHtml(matrix.columns[i]!.label);
  const order = ['regression', 'fixed', 'changed'] as const;
  const items = order.flatMap((kind) =>
    matrix.changes.filter((c) => c.kind === kind).map((c) => `<li class="change-${kind}">${CHANGE_MARK[kind]} ${CHANGE_WORDS[kind]}: <span class="rule-id">${escapeHtml(c.rule)}</span> ${escapeHtml(outcomeLabel(c.from))} in ${label(c.previous)} → ${escapeHtml(outcomeLabel(c.to))} in ${label(c.column)}</li>`),
  );
  const flips = matrix.rows.filter((r) => r.changes >= 2).map((r) => escapeHtml(r.id));
  return `<h2>What changed</h2><ul class="changes">${items.join('')}</ul>${flips.length ? `<p class="notice">Flipping back and forth between runs: ${flips.join(', ')}</p>` : ''}`;
}

/** Renders the comparison as one self-contained HTML page. */
export function renderMatrixHtml(matrix: Matrix): string {
  const { columns } = matrix;
  const present = [...new Set(matrix.rows.flatMap((r) => r.cells.map((c) => c.outcome)))];
  const legend = `<p class="legend">${present.map((o) => `<span class="${cssClass(o)}"><i></i>${look(o).mark} ${escapeHtml(outcomeLabel(o))}</span>`).join('')}<span>${CHANGE_MARK.regression} regression · ${CHANGE_MARK.fixed} newly passing · ${CHANGE_MARK.changed} changed (against the previous run of the same implementation)</span></p>`;
  const rows = matrix.sections
    .map(({ section, rows: sectionRows }) => `<tr class="section"><th colspan="${columns.length + 1}" scope="rowgroup">${escapeHtml(section)}</th></tr>
${sectionRows
  .map((r) => `<tr id="${escapeHtml(r.id)}"><th scope="row"><span class="rule-id">${escapeHtml(r.id)}</span> ${escapeHtml(r.level)}${r.inCatalogue ? '' : ' (not in this suite\'s catalogue)'}${r.changes >= 2 ? ' ↕ flips' : ''}<span class="statement">${escapeHtml(r.section)}: ${escapeHtml(r.statement)}</span></th>${r.cells.map((c) => cell(c, columns)).join('')}</tr>`)
  .join('\n')}`)
    .join('\n');
  const gate = matrix.regressions.length
    ? `<p class="notice">Regressions (the last run fails a rule an earlier run of the same implementation passed): ${matrix.regressions.map((r) => `<span class="rule-id">${escapeHtml(r.rule)}</span> in ${escapeHtml(columns[r.column]!.label)} (passed in ${escapeHtml(columns[r.passedIn]!.label)})`).join(', ')}</p>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Widget Service conformance: ${columns.length} runs compared</title><style>${STYLE}${outcomeVars()}${PROFILE_MATRIX_STYLE}</style></head>
<body><h1>Widget Service conformance: ${columns.length} run${columns.length === 1 ? '' : 's'} compared</h1>
${matrix.notes.map((n) => `<p class="notice">${escapeHtml(n)}</p>`).join('\n')}
${gate}
${changesList(matrix)}
<h2>Rules by spec section</h2>${legend}
<table><thead><tr><th scope="col">Rule</th>${columns.map((c) => header(c, columns)).join('')}</tr></thead>
<tbody>
${rows}
</tbody></table>
${profileMatrixHtml(matrix)}
</body></html>
`;
}
