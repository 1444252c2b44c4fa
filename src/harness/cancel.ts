/**
 * How the runner tells its workers that the run was interrupted: a file in the run's stats
 * folder. Workers check it before every create (a cheap stat), so that once it exists nothing
 * new is created and the runner's final sweep sees everything there is to delete.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FLAG = 'cancelled';

/** Marks the run in `statsDir` as interrupted. */
export function markCancelled(statsDir: string, reason: string): void {
  writeFileSync(join(statsDir, FLAG), reason);
}

/** True once the run in `statsDir` was interrupted. */
export function isCancelled(statsDir: string): boolean {
  return existsSync(join(statsDir, FLAG));
}
