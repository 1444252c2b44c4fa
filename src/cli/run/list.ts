/** `--list`: the rule catalogue, one rule a line (id, level, section, statement), and which need a second account. */
import { RULES, SECOND_ACCOUNT_MARK } from '../../rules.ts';

/** The catalogue as --list prints it, in columns as wide as its longest entry, whatever rules it holds. */
export function catalogueListing(): string {
  const width = (field: 'id' | 'level' | 'section') => Math.max(...RULES.map((r) => r[field].length));
  const [id, level, section] = [width('id'), width('level'), width('section')];
  return RULES.map((r) => {
    const needs = r.secondAccount ? ` (${SECOND_ACCOUNT_MARK})` : '';
    return `${r.id.padEnd(id)} ${r.level.padEnd(level)} ${r.section.padEnd(section)} ${r.statement}${needs}\n`;
  }).join('');
}
