/**
 * What a worker leaves for the runner in the run's stats folder: its request counts, and the
 * ids it still holds (claimed by a create, not seen deleted), which the runner tries to delete
 * once more and otherwise reports by id.
 */
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Claim } from '../client/ownership.ts';
import type { RequestTallyData } from './request-tally.ts';

const STATS = '.stats.json';
const HELD = '.held.json';
const PROFILE = '.profile.json';
const REQUESTS = '.requests.json';

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

/** The profile tally file of one worker (report/profile-facts.ts). */
export function profileFile(dir: string, worker: string): string {
  return join(dir, `${worker}${PROFILE}`);
}

/** The file of one worker's requests by test (request-tally.ts). */
export function requestsFile(dir: string, worker: string): string {
  return join(dir, `${worker}${REQUESTS}`);
}

/** Every worker's requests by test, with the worker's name (the file's). */
export function readRequestTallies(dir: string): Array<{ worker: string; tally: RequestTallyData }> {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith(REQUESTS)).map((f) => ({ worker: f.slice(0, -REQUESTS.length), tally: JSON.parse(readFileSync(join(dir, f), 'utf8')) as RequestTallyData }));
}

/** Every worker's profile tally. */
export function readProfiles<T>(dir: string): T[] {
  return readAll<T>(dir, PROFILE);
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

const REFUSED = 'refused-beyond-budget';

/**
 * Records that the target refused requests (429/503) past the run's wait budget and the worker's
 * client stopped sending (the first report wins): the run has no verdict (exit 3).
 */
export function markRefusedBeyondBudget(dir: string, message: string): void {
  const file = join(dir, REFUSED);
  if (!existsSync(file)) writeFileSync(file, message);
}

/** The message of the refusals that outlasted the wait budget, if the target's did. */
export function refusedBeyondBudget(dir: string): string | undefined {
  const file = join(dir, REFUSED);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

const TOKENS = 'renewed-tokens';

/**
 * Records a token a --token-command renewed, before it is first sent: the runner redacts it in
 * everything it relays or writes, and its cleanup uses the latest. The folder is the runner's
 * private temp folder (mode 0700), removed at the end of the run.
 */
export function recordToken(dir: string, account: string, token: string): void {
  appendFileSync(join(dir, TOKENS), `${JSON.stringify({ account, token })}\n`, { mode: 0o600 });
}

/** Every token renewed during the run, oldest first. */
export function renewedTokens(dir: string): Array<{ account: string; token: string }> {
  const file = join(dir, TOKENS);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { account: string; token: string });
}

const LIVE = '.live';

/** Records how many requests a worker has sent so far, for the runner's progress line (written every few seconds: harness/setup.ts). */
export function recordLiveRequests(dir: string, worker: string, requests: number): void {
  writeFileSync(join(dir, `${worker}${LIVE}`), String(requests));
}

/** Requests every worker has sent so far, as they last recorded it; 0 when none has yet. */
export function liveRequests(dir: string): number {
  if (!existsSync(dir)) return 0;
  let total = 0;
  for (const f of readdirSync(dir).filter((n) => n.endsWith(LIVE))) {
    try {
      const n = Number(readFileSync(join(dir, f), 'utf8'));
      if (Number.isFinite(n)) total += n;
    } catch {
      // Being rewritten this instant: counted at the next line.
    }
  }
  return total;
}
