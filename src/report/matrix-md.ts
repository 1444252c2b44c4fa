/**
 * matrix.md: the comparison as a Markdown table for a pull request or a job summary. One row
 * per rule under a row per spec section, one column per run; each cell is an icon and the
 * outcome in words (never colour alone), linked to the rule's evidence in that run's report.
 * Text from the inputs is escaped so that it cannot break the table or add markup.
 */
import { mdInline } from './markdown-text.ts';
import { ABSENT, CHANGE_WORDS, outcomeLabel, type Matrix, type MatrixCell, type MatrixColumn } from './matrix.ts';
import { profileMatrixMarkdown } from './matrix-profile-render.ts';

const ICON: Readonly<Record<string, string>> = { pass: '✅', fail: '❌', warn: '⚠️', skip: '⏭️', error: '💥', inconclusive: '❔', [ABSENT]: '∅' };
const CHANGE_MARK = { regression: '🔻', fixed: '🔺', changed: '↔️' } as const;

/** A link destination that cannot end the link early or open markup: spaces, brackets and quotes percent-encoded. */
function destination(href: string): string {
  return href.replace(/[\s()<>"'[\]\\|`]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

function cell(c: MatrixCell, columns: readonly MatrixColumn[]): string {
  const text = `${ICON[c.outcome] ?? '•'} ${mdInline(outcomeLabel(c.outcome), 40)}${c.baselined ? ' (baseline)' : ''}`;
  const linked = c.href === undefined ? text : `[${text}](${destination(c.href)})`;
  return c.change ? `${linked} ${CHANGE_MARK[c.change.kind]} ${CHANGE_WORDS[c.change.kind]} (was ${mdInline(outcomeLabel(c.change.from), 40)} in ${mdInline(columns[c.change.previous]!.label, 60)})` : linked;
}

function columnSummary(c: MatrixColumn): string {
  const counts = Object.entries(c.counts).map(([o, n]) => `${n} ${mdInline(outcomeLabel(o), 40)}`).join(', ');
  const report = c.reportHref === undefined ? '' : ` ([report](${destination(c.reportHref)}))`;
  return `- **${mdInline(c.label, 100)}**: ${mdInline(c.verdictWord, 120)}; ${counts}; suite ${mdInline(c.suiteVersion, 40)}, interface ${mdInline(c.interfaceVersion, 20)}, seed ${c.seed}; ${mdInline(c.target, 120)}${report}`;
}

/** Renders the comparison as Markdown. */
export function renderMatrixMarkdown(matrix: Matrix): string {
  const { columns } = matrix;
  const lines = [`## Widget Service conformance: ${columns.length} run${columns.length === 1 ? '' : 's'} compared`, ''];
  for (const note of matrix.notes) lines.push(`> ⚠️ ${mdInline(note, 1000)}`, '');
  lines.push(...columns.map(columnSummary), '');
  if (matrix.regressions.length > 0) {
    lines.push(`**Regressions** (the last run fails a rule an earlier run of the same implementation passed): ${matrix.regressions.map((r) => `${r.rule} in ${mdInline(columns[r.column]!.label, 100)} (passed in ${mdInline(columns[r.passedIn]!.label, 100)})`).join(', ')}`, '');
  }
  if (matrix.changes.length > 0) {
    lines.push('### What changed', '');
    for (const kind of ['regression', 'fixed', 'changed'] as const) {
      for (const c of matrix.changes.filter((x) => x.kind === kind)) {
        lines.push(`- ${CHANGE_MARK[kind]} ${CHANGE_WORDS[kind]}: ${c.rule} ${mdInline(outcomeLabel(c.from), 40)} in ${mdInline(columns[c.previous]!.label, 100)} → ${mdInline(outcomeLabel(c.to), 40)} in ${mdInline(columns[c.column]!.label, 100)}`);
      }
    }
    const flips = matrix.rows.filter((r) => r.changes >= 2).map((r) => r.id);
    if (flips.length > 0) lines.push(`- ↕️ flipping back and forth: ${flips.join(', ')}`);
    lines.push('');
  }
  lines.push('### Rules by spec section', '', `| Rule | ${columns.map((c) => mdInline(c.label, 100)).join(' | ')} |`, `|---|${columns.map(() => '---').join('|')}|`);
  for (const { section, rows } of matrix.sections) {
    lines.push(`| **${mdInline(section, 60)}** |${columns.map(() => ' ').join('|')}|`);
    for (const r of rows) {
      const label = `${r.id} ${r.level}${r.inCatalogue ? '' : ' (not in this catalogue)'}${r.changes >= 2 ? ' ↕️' : ''}`;
      lines.push(`| ${mdInline(label, 80)} | ${r.cells.map((c) => cell(c, columns)).join(' | ')} |`);
    }
  }
  lines.push(...profileMatrixMarkdown(matrix));
  return `${lines.join('\n')}\n`;
}
