/**
 * The adversary property (test/unit/client/adversary.test.ts) is not vacuous: with a part of
 * the door taken out, fast-check finds a generated server on which the suite changes or
 * deletes a widget it did not create.
 * - Without the fresh retrieve: the door's proof for an id in an account is the first retrieve
 *   it ever made of it there (as the removed WidgetApi.shows() answered from the ledger's earlier proof), so a DELETE
 *   sent again after one that failed rests on an old proof, and an id given meanwhile to another
 *   client's widget is deleted.
 * - Without the lane: the proof's retrieve and the write each wait for a slot like any request
 *   (as before issue 35), so a server that gives an id to another client's widget the moment it
 *   has answered anything finds the proven id free for longer than the other slots' requests.
 * - Without the id check: every non-empty id is a safe segment and ids are compared exactly, so
 *   `%2e%2e` on a router that decodes twice empties the account, and a lookalike id on a DELETE
 *   route that folds ids deletes the user's widget.
 * - Without the lenient-reach check: DEL-4's DELETE of an id extending the run's widget goes out
 *   though the user's widget's id begins it too, and a DELETE route that reads ids leniently (the
 *   first widget whose id begins the one sent) deletes the user's widget.
 * Each loads the run's modules afresh with one module swapped (vi.doMock), for this file only.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as Client from '../../../src/http/client.ts';
import type { ApiResponse, HttpClient, Lane } from '../../../src/http/client.ts';
import type * as Door from '../../../src/client/door.ts';
import type * as SafeIds from '../../../src/client/safe-ids.ts';
import { sparseRaces, type Schedule } from '../../servers/adversary.ts';
import type * as Run from '../support/adversary-run.ts';

afterEach(() => {
  vi.doUnmock('../../../src/client/door.ts');
  vi.doUnmock('../../../src/http/client.ts');
  vi.doUnmock('../../../src/client/safe-ids.ts');
  vi.resetModules();
});

/** Runs the property over `arbitrary` with the modules as mocked now; the counterexample fast-check found, or undefined. */
async function counterexample(arbitrary: fc.Arbitrary<Schedule>, numRuns: number): Promise<string | undefined> {
  vi.resetModules();
  const { oneRun, violations } = (await import('../support/adversary-run.ts')) as typeof Run;
  const result = await fc.check(
    fc.asyncProperty(arbitrary, async (schedule) => violations(schedule, await oneRun(schedule, false)).length === 0),
    // The first counterexample is enough: not shrunk (each run is a whole run of the deleting components).
    { numRuns, seed: 20261127, endOnFailure: true },
  );
  return result.failed ? JSON.stringify(result.counterexample) : undefined;
}

const some = <T>(values: readonly T[]): fc.Arbitrary<T[]> => fc.array(fc.constantFrom(...values), { minLength: 1, maxLength: 6 });

/** A server that answers honestly and keeps its widgets: each ablation adds the one attack its door part holds off. */
const HONEST = {
  preExisting: fc.constant({ primary: 2, second: 1 }),
  create: fc.constant(['honest'] as Schedule['create']),
  retrieve: fc.constant(['honest'] as Schedule['retrieve']),
  list: fc.constant(['honest'] as Schedule['list']),
};

describe('the property fails when a part of the door is taken out', () => {
  it('CRUD-4 without the fresh retrieve before each write, a generated server gets another client\'s widget deleted', async () => {
    const racing: fc.Arbitrary<Schedule> = fc.record({
      ...HONEST,
      delete: some(['fail', 'honest'] as const),
      // Another client's widget given the id, with a copy of the name: only its created_at tells it apart, and only a retrieve made then shows that.
      race: some(['none', 'reassign-own-id-copying-name'] as const),
      router: fc.constant('exact' as const),
    });
    // The property holds with the door as it is (the main property runs many more: adversary.test.ts).
    expect(await counterexample(racing, 12)).toBeUndefined();
    vi.doMock('../../../src/client/door.ts', async (importActual) => {
      const actual = await importActual<typeof Door>();
      // The ledger's earlier proof: per ledger (one run's), the first retrieve the door made of each id.
      const first = new WeakMap<object, Map<string, Promise<ApiResponse>>>();
      return {
        ...actual,
        openDoor: (...[http, ownership, settings, accounts]: Parameters<typeof actual.openDoor>) =>
          actual.openDoor(http, ownership, settings, {
            names: () => accounts.names(),
            credential: (account) => accounts.credential(account),
            retrieve: (account, id, via) => {
              let proofs = first.get(ownership);
              if (!proofs) first.set(ownership, (proofs = new Map()));
              const key = `${account} ${id}`;
              if (!proofs.has(key)) proofs.set(key, accounts.retrieve(account, id, via));
              return proofs.get(key)!;
            },
          }),
      };
    });
    expect(await counterexample(racing, 40)).toBeDefined();
  }, 120_000);

  it('CRUD-4 without the write leaving on its proof\'s slot, a server that gives ids away after any answer gets another client\'s widget deleted', async () => {
    const afterAnswers: fc.Arbitrary<Schedule> = fc.record({
      ...HONEST,
      delete: fc.constant(['honest'] as Schedule['delete']),
      race: fc.constant(['none'] as Schedule['race'] & string[]),
      // Another client acts right after the nth answer (every 20 to 80): rare enough that the
      // suite's widgets live until the cleanup, when only a retrieve made after it tells them apart.
      afterAnswer: sparseRaces,
      router: fc.constant('exact' as const),
    });
    expect(await counterexample(afterAnswers, 12)).toBeUndefined();
    vi.doMock('../../../src/http/client.ts', async (importActual) => {
      const actual = await importActual<typeof Client>();
      return {
        ...actual,
        // The proof and the write queued apart, each behind every request waiting for a slot.
        takeWriter: (http: HttpClient) => {
          const writer = actual.takeWriter(http);
          const queued: Lane = { request: (method, path, opts) => http.request(method, path, opts), write: (request) => writer.send(request) };
          return { send: writer.send, inLane: <T>(run: (lane: Lane) => Promise<T>) => run(queued) };
        },
      };
    });
    expect(await counterexample(afterAnswers, 40)).toBeDefined();
  }, 120_000);

  it('CRUD-3 without the id check, a generated server gets the user\'s widgets deleted through its router', async () => {
    const routing: fc.Arbitrary<Schedule> = fc.record({
      preExisting: fc.constant({ primary: 3, second: 2 }),
      create: some(['honest', 'lookalike-of-pre-existing', 'dot-dot-id'] as const),
      retrieve: fc.constant(['honest'] as Schedule['retrieve']),
      list: fc.constant(['honest'] as Schedule['list']),
      delete: fc.constant(['honest'] as Schedule['delete']),
      race: fc.constant(['none'] as Schedule['race'] & string[]),
      router: fc.constantFrom('fold-on-delete' as const, 'decode-twice-on-delete' as const),
    });
    expect(await counterexample(routing, 12)).toBeUndefined();
    vi.doMock('../../../src/client/safe-ids.ts', async (importActual) => {
      const actual = await importActual<typeof SafeIds>();
      return { ...actual, unsafeSegment: (id: string) => (id === '' ? 'the id is empty' : undefined), idKey: (id: string) => id };
    });
    expect(await counterexample(routing, 40)).toBeDefined();
  }, 120_000);

  it('DEL-4 without the lenient-reach check, a generated server gets the user\'s widget deleted through a DELETE route that reads ids leniently', async () => {
    const lenient: fc.Arbitrary<Schedule> = fc.record({
      ...HONEST,
      create: some(['honest', 'extension-of-pre-existing'] as const),
      delete: fc.constant(['honest'] as Schedule['delete']),
      race: fc.constant(['none'] as Schedule['race'] & string[]),
      router: fc.constant('lenient-on-delete' as const),
      probes: fc.constant(true),
    });
    expect(await counterexample(lenient, 12)).toBeUndefined();
    vi.doMock('../../../src/client/safe-ids.ts', async (importActual) => {
      const actual = await importActual<typeof SafeIds>();
      return { ...actual, lenientlyReaches: () => false, keyReaches: () => false };
    });
    expect(await counterexample(lenient, 40)).toBeDefined();
  }, 120_000);
});
