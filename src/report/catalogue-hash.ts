/**
 * What makes two runs comparable: the interface version the suite checks and a fingerprint of
 * the rule catalogue it judged by. Two runs with the same hash judged every rule by the same
 * statement at the same level; a different hash means a rule was added, removed, reworded or
 * moved between MUST and SHOULD, and a compare says so instead of lining up unlike results.
 */
import { createHash } from 'node:crypto';

/** The Widget Service interface version the suite checks (the spec's /v1). */
export const INTERFACE_VERSION = 'v1';

/** The parts of a rule that decide what its outcome means. */
export interface CatalogueEntry {
  readonly id: string;
  readonly level: string;
  readonly statement: string;
}

/**
 * `sha256:` and the hex digest of the rules' ids, levels and statements, sorted by id: the
 * catalogue's order and the rules' quoted basis or section do not change what a pass means.
 */
export function catalogueHash(rules: readonly CatalogueEntry[]): string {
  const entries = [...rules].map((r) => [r.id, r.level, r.statement]).sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0));
  return `sha256:${createHash('sha256').update(JSON.stringify(entries)).digest('hex')}`;
}
