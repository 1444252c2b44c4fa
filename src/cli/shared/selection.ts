/** `--only`: a subset of the catalogue, by rule id (PAGE-3) or family (AUTH). */
import { ConfigError } from '../../config.ts';
import { familyOf, RULES } from '../../rules.ts';

/** The selected rule ids, or undefined for every rule; throws ConfigError naming an unknown entry. */
export function parseOnly(raw: string | undefined): ReadonlySet<string> | undefined {
  if (raw === undefined) return undefined;
  const entries = raw.split(',').map((e) => e.trim().toUpperCase()).filter((e) => e !== '');
  if (entries.length === 0) throw new ConfigError('--only needs at least one rule id or family, e.g. --only AUTH,PAGE-3');
  const families = [...new Set(RULES.map((r) => familyOf(r.id)))];
  const selected = new Set<string>();
  for (const entry of entries) {
    const matching = RULES.filter((r) => r.id === entry || familyOf(r.id) === entry);
    if (matching.length === 0) {
      throw new ConfigError(`--only: no rule or family ${JSON.stringify(entry)}; families are ${families.join(', ')} (npm test -- --list shows every id)`);
    }
    for (const r of matching) selected.add(r.id);
  }
  return selected;
}

/** A vitest test-name pattern matching the tests of the selected rules (titles start with the id and a space). */
export function testNamePattern(selected: ReadonlySet<string>): RegExp {
  return new RegExp(`^(?:${[...selected].map((id) => id.replace(/[-]/g, '\\-')).join('|')}) `);
}
