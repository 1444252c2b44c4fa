/**
 * The profile rows of matrix.md and matrix.html (matrix-profile.ts): a value that differs from
 * the majority of the runs that observed the choice is marked ◆ and said in words. Every value
 * from a report goes through the formats' escaping helpers.
 */
import { escapeHtml } from './html-text.ts';
import type { Matrix } from './matrix.ts';
import { codeSpan, mdInline } from './markdown-text.ts';
import type { ProfileCell } from './matrix-profile.ts';

const DIFFERS = '◆';
const LEGEND = `${DIFFERS} differs from the majority of the runs that observed the choice`;

function mdCell(c: ProfileCell): string {
  // The server's value in an inert code span; the suite's own "not observed" as plain words.
  const value = c.value === 'not observed' ? c.value : codeSpan(c.value, 160, true);
  return c.differs ? `**${DIFFERS} ${value}** (differs)` : value;
}

/** The Markdown section: nothing when no report has a profile. */
export function profileMatrixMarkdown(matrix: Matrix): string[] {
  if (!matrix.profile.length) return [];
  const lines = ['', '### Interoperability profile', '', `What each implementation chose where the spec is silent: data, not a verdict. ${LEGEND}.`, ''];
  lines.push(`| Choice | ${matrix.columns.map((c) => mdInline(c.label, 100)).join(' | ')} |`, `|---|${matrix.columns.map(() => '---').join('|')}|`);
  for (const row of matrix.profile) lines.push(`| ${mdInline(`${row.topic}: ${row.label}`, 120)} | ${row.cells.map(mdCell).join(' | ')} |`);
  return lines;
}

/** The CSS of the section. */
export const PROFILE_MATRIX_STYLE = `
td.profile-cell { font-size: 13px; }
td.profile-cell.differs { background: #fff8c5; font-weight: 600; }
td.profile-cell.unseen { color: #59636e; font-style: italic; }
`;

function htmlCell(c: ProfileCell): string {
  const css = c.differs ? ' differs' : c.exchanges.length === 0 ? ' unseen' : '';
  const evidence = c.exchanges.length ? ` title="exchanges.har _id ${escapeHtml(c.exchanges.join(' '))}"` : '';
  return `<td class="profile-cell${css}"${evidence}>${c.differs ? `${DIFFERS} ` : ''}${escapeHtml(c.value)}${c.differs ? ' <span class="meta">(differs from the majority)</span>' : ''}</td>`;
}

/** The HTML section: empty when no report has a profile. */
export function profileMatrixHtml(matrix: Matrix): string {
  if (!matrix.profile.length) return '';
  const rows = matrix.profile.map((r) => `<tr data-profile-key="${escapeHtml(r.key)}"><th scope="row">${escapeHtml(r.topic)}: ${escapeHtml(r.label)}</th>${r.cells.map(htmlCell).join('')}</tr>`);
  return `<h2 id="profile">Interoperability profile</h2><p class="legend">What each implementation chose where the spec is silent: data, not a verdict. ${escapeHtml(LEGEND)}.</p>
<table class="profile"><thead><tr><th scope="col">Choice</th>${matrix.columns.map((c) => `<th scope="col">${escapeHtml(c.label)}</th>`).join('')}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table>`;
}
