/** The rule families of the catalogue, for `--only`: a new family needs no self-test edit. */
import { familyOf, RULES } from '../../src/rules.ts';

/** Every rule family, in catalogue order: FMT, CRUD, … */
export const FAMILIES: readonly string[] = [...new Set(RULES.map((r) => familyOf(r.id)))];

/**
 * `--only` for every family but the property rules (PROP): the slowest part of a run, judged
 * across seeds in properties.test.ts.
 */
export const ALL_BUT_PROPERTIES = FAMILIES.filter((f) => f !== 'PROP').join(',');
