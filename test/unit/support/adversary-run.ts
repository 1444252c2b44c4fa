/**
 * One run of the suite's deleting components against a generated adversary (test/servers/adversary.ts),
 * in-process: the tests' WidgetApi.remove, the per-file cleanup (deleteAllHeld), the runner's
 * final cleanup and `cleanup` reading the journal. Shared by test/unit/client/adversary.test.ts
 * and the ablations of test/unit/client/adversary-ablation.test.ts (which load it again with a
 * door part swapped out).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WidgetApi } from '../../../src/client/api.ts';
import { openAccounts } from '../../../src/client/accounts.ts';
import { Journal, readJournal } from '../../../src/client/ledger.ts';
import { Ownership } from '../../../src/client/ownership.ts';
import { deleteAllHeld, takeInventory } from '../../../src/client/sweep.ts';
import { cleanJournal } from '../../../src/cli/cleanup/journal.ts';
import { describeCleanup, finalCleanup } from '../../../src/cli/run/final-cleanup.ts';
import { isSuiteError } from '../../../src/errors.ts';
import { carriesMarker, newMarker } from '../../../src/harness/marker.ts';
import { HttpClient } from '../../../src/http/client.ts';
import { Adversary, type Schedule } from '../../servers/adversary.ts';

const TOKENS = ['adv-token-alice', 'adv-token-bob'] as const;
/** Slots of each client of the run. */
const SLOTS = 4;
/**
 * What can arrive between a proof and its write, which leaves on the proof's slot as soon as its
 * answer is read (docs/data-safety.md): from each other slot, the request it had in flight, and
 * at most one more if that one's answer was read in the same turn of the event loop as the proof's.
 */
export const ROUND_TRIP_REQUESTS = 2 * (SLOTS - 1);
/** Creates per account in one generated run. */
const CREATES = 4;

function client(baseUrl: string): HttpClient {
  return new HttpClient({ baseUrl, timeoutMs: 5_000, concurrency: SLOTS, maxRetries: 0, maxRetryWaitMs: 0, secrets: [...TOKENS] });
}

function accounts(http: HttpClient, ownership: Ownership): WidgetApi[] {
  return openAccounts(http, ownership, [{ name: 'primary', token: TOKENS[0] }, { name: 'second', token: TOKENS[1] }]);
}

/** A suite error is an answer the run reports; anything else is a bug of the suite. */
async function tolerant<T>(step: () => Promise<T>): Promise<T | undefined> {
  try {
    return await step();
  } catch (error) {
    if (isSuiteError(error)) return undefined;
    throw error;
  }
}

/** Runs `step` while each account keeps SLOTS * 2 lists queued (none when `apis` is empty). */
async function withListsQueued(apis: readonly WidgetApi[], step: () => Promise<void>): Promise<void> {
  let running = true;
  const lister = async (api: WidgetApi): Promise<void> => {
    while (running) await tolerant(() => api.list({ limit: 3 }));
  };
  const listers = apis.flatMap((api) => Array.from({ length: 2 * SLOTS }, () => lister(api)));
  try {
    await step();
  } finally {
    running = false;
    await Promise.all(listers);
  }
}

/** One run against one generated adversary; returns what the property needs. */
export async function oneRun(schedule: Schedule, interrupted: boolean): Promise<{ adversary: Adversary; reported: string; verified: boolean; cleanedUp: boolean }> {
  // No race takes a proven id while the requests the client's other slots send in one round trip arrive.
  const adversary = new Adversary(schedule, ROUND_TRIP_REQUESTS);
  const server = await adversary.start();
  const dir = mkdtempSync(join(tmpdir(), 'adversary-'));
  const file = join(dir, 'widget-journal.jsonl');
  const marker = newMarker();
  const isOurs = (w: unknown): boolean => carriesMarker(w, marker);
  const http = [client(server.baseUrl), client(server.baseUrl), client(server.baseUrl), client(server.baseUrl)];
  try {
    // The runner: the run's marker and the inventory, before the first create.
    new Journal(file).append({ kind: 'run', marker, at: new Date().toISOString() });
    const runner = accounts(http[0]!, new Ownership(isOurs, new Journal(file)));
    for (const api of runner) await takeInventory(api, 20);
    // A worker: creates, retrieves, lists, the tests' own deletes, then the per-file cleanup.
    const worker = new Ownership(isOurs, new Journal(file));
    worker.loadEntries(readJournal(file).filter((e) => e.kind === 'inventory'));
    const apis = accounts(http[1]!, worker);
    for (const api of apis) {
      for (let i = 0; i < CREATES; i += 1) {
        const res = await tolerant(() => api.create({ name: `${marker} CRUD-1 ${i}`, description: 'adversary' }));
        const id = (res?.json as { id?: unknown } | undefined)?.id;
        if (typeof id !== 'string') continue;
        await tolerant(() => api.retrieve(id));
        await tolerant(() => api.list({ limit: 3 }));
        if (i % 2 === 0) await tolerant(() => api.remove(id));
        // DEL-4's delete of an id extending the widget, aimed at it alone: on a lenient router it may reach the widget, never another.
        else if (schedule.probes) await tolerant(() => api.removeExtension(id, `${id}-wcsprobe`));
      }
    }
    // The per-file cleanup; against a server that acts after answers, with lists of other tests
    // queued beside it (more than the slots), as in a run, so a write that waited in line would
    // leave its proven id free for longer than the other slots' requests.
    await withListsQueued(schedule.afterAnswer === undefined ? [] : apis, () => deleteAllHeld(apis));
    // The runner's final cleanup, from the journal alone (and the held ids, as the workers leave them).
    const outcome = await finalCleanup(accounts(http[2]!, new Ownership(isOurs, new Journal(file))), worker.outstanding(), {
      maxPages: 20,
      minSweeps: interrupted ? 2 : 1,
      journal: readJournal(file),
    });
    // `cleanup` reading the journal afterwards.
    const said: string[] = [];
    const code = await cleanJournal(http[3]!, TOKENS[0], TOKENS[1], file, (line) => said.push(line));
    return { adversary, reported: `${describeCleanup(outcome)}\n${said.join('\n')}`, verified: outcome.verified, cleanedUp: code === 0 };
  } finally {
    await Promise.all(http.map((h) => h.close()));
    await server.close();
  }
}

/**
 * A server no client can defend against (docs/data-safety.md): it hides the users' widgets from
 * every list, so none is in the inventory, and hands a create the id of one while its retrieve
 * shows the suite's widget there. (A DELETE route alone that takes the run's id to a widget the
 * run was never shown, by folding, decoding or reading ids leniently, is exempted widget by
 * widget by the adversary itself: Adversary.damaged.)
 */
export function undetectable(schedule: Schedule): boolean {
  return schedule.list.includes('hide-pre-existing') && schedule.create.includes('id-of-pre-existing') && schedule.retrieve.includes('show-own-widget-at-any-id');
}

/**
 * The property, as the lines that break it (none when it holds): nothing the suite did not
 * create is changed or deleted; "nothing left behind" (from the run or `cleanup`) only when
 * nothing of the run is left; every widget left is reported by id, or the line says why it
 * cannot be (lost answers, ids given twice).
 */
export function violations(schedule: Schedule, outcome: Awaited<ReturnType<typeof oneRun>>): string[] {
  const { adversary, reported, verified, cleanedUp } = outcome;
  const found: string[] = [];
  const damaged = undetectable(schedule) ? [] : adversary.damaged();
  if (damaged.length) found.push(`widgets the suite did not create changed or deleted: ${JSON.stringify(damaged)}`);
  // A widget hidden from every list and every retrieve is out of any client's sight: only a
  // schedule that can do both is exempt from the reporting half of the property.
  const invisible = schedule.list.includes('hide-marked') && schedule.retrieve.includes('not-found');
  const left = invisible ? [] : adversary.remaining();
  if (verified && left.length) found.push(`"nothing left behind" said, yet the run's widgets remain: ${JSON.stringify(left)}`);
  if (cleanedUp && left.length) found.push(`cleanup said nothing is left, yet the run's widgets remain: ${JSON.stringify(left)}`);
  if (!verified && !cleanedUp) {
    for (const { id } of left) {
      if (!reported.includes(JSON.stringify(id)) && !/lost their answer|an id an earlier create of this run had|may stand at an id the run never learned/.test(reported)) found.push(`${id} left and not reported`);
    }
  }
  return found;
}
