/**
 * What a worker leaves for the runner in the run's stats folder: its request counts, and the
 * ids it still holds (claimed by a create, not seen deleted), which the runner tries to delete
 * once more and otherwise reports by id.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Claim } from '../client/ownership.ts';

const STATS = '.stats.json';
const HELD = '.held.json';

/** The stats file of one worker. */
export function statsFile(dir: string, worker: string): string {
  return join(dir, `${worker}${STATS}`);
}

/** The held-ids file of one worker. */
export function heldFile(dir: string, worker: string): string {
  return join(dir, `${worker}${HELD}`);
}

function readAll<T>(dir: string, suffix: string): T[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith(suffix)).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as T);
}

/** Every worker's stats. */
export function readStats<T>(dir: string): T[] {
  return readAll<T>(dir, STATS);
}

/** Every id the workers still hold. */
export function readHeld(dir: string): Claim[] {
  return readAll<Claim[]>(dir, HELD).flat();
}

const TOKEN_REJECTED = 'token-rejected';

/** Records that the target stopped accepting a token (the first report wins). */
export function markTokenRejected(dir: string, message: string): void {
  const file = join(dir, TOKEN_REJECTED);
  if (!existsSync(file)) writeFileSync(file, message);
}

/** The message of a token the target stopped accepting during the run, if one did. */
export function tokenRejected(dir: string): string | undefined {
  const file = join(dir, TOKEN_REJECTED);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}
