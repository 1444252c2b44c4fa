/**
 * Snapshots: shared list walks. Each caller needs a walk begun after its `since`; one walk
 * serves every caller it can, and a caller it cannot serve gets the next one.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WalkGate } from '../../../src/harness/walk-gate.ts';
import { Snapshots } from '../../../src/harness/snapshots.ts';
import { RateLimitError } from '../../../src/errors.ts';
import { startHeldList, type HeldList } from '../support/held-list.ts';

/** Bounds each walk's pages; the walks here are one page each. */
const MAX_WIDGETS = 10;

let server: HeldList;
let snapshots: Snapshots;

beforeEach(async () => {
  server = await startHeldList();
  snapshots = new Snapshots(MAX_WIDGETS, new WalkGate());
});

afterEach(async () => {
  await server.close();
});

const idsOf = (walk: { widgets: ReadonlyMap<string, unknown> }): string[] => [...walk.widgets.keys()];

describe('Snapshots.after', () => {
  it('one walk serves every caller whose since is before its start', async () => {
    const since = performance.now();
    const first = snapshots.after(server.api, since);
    const request = await server.next();
    const second = snapshots.after(server.api, since);
    request.page(['w1']);
    const [a, b] = await Promise.all([first, second]);
    expect(b).toBe(a);
    expect(idsOf(a)).toEqual(['w1']);
    expect(server.received()).toBe(1);
  });

  it('a finished walk still serves a caller whose since is before its start', async () => {
    const since = performance.now();
    const first = snapshots.after(server.api, since);
    (await server.next()).page(['w1']);
    const walk = await first;
    expect(await snapshots.after(server.api, since)).toBe(walk);
    expect(server.received()).toBe(1);
  });

  it('a caller whose since is after the running walk began gets the next walk, begun after that walk ends', async () => {
    const early = snapshots.after(server.api, performance.now());
    const running = await server.next();
    const late = snapshots.after(server.api, performance.now());
    running.page(['before']);
    expect(idsOf(await early)).toEqual(['before']);
    (await server.next()).page(['before', 'after']);
    expect(idsOf(await late)).toEqual(['before', 'after']);
    expect(server.received()).toBe(2);
  });

  it('callers queued behind the same running walk share one next walk', async () => {
    void snapshots.after(server.api, performance.now());
    const running = await server.next();
    const since = performance.now();
    const late = [snapshots.after(server.api, since), snapshots.after(server.api, performance.now())];
    running.page(['w1']);
    (await server.next()).page(['w1', 'w2']);
    const [a, b] = await Promise.all(late);
    expect(b).toBe(a);
    expect(server.received()).toBe(2);
  });

  it('a walk that fails fails every caller sharing it', async () => {
    const since = performance.now();
    const callers = [snapshots.after(server.api, since), snapshots.after(server.api, since)];
    (await server.next()).throttle();
    for (const caller of callers) await expect(caller).rejects.toBeInstanceOf(RateLimitError);
  });

  it('callers queued behind a walk that fails get the next walk, which succeeds', async () => {
    const early = snapshots.after(server.api, performance.now());
    const running = await server.next();
    const late = snapshots.after(server.api, performance.now());
    running.throttle();
    await expect(early).rejects.toBeInstanceOf(RateLimitError);
    (await server.next()).page(['w1']);
    expect(idsOf(await late)).toEqual(['w1']);
  });

  it('a caller arriving after a walk failed gets a fresh walk, not the old failure', async () => {
    const since = performance.now();
    const failed = snapshots.after(server.api, since);
    (await server.next()).throttle();
    await expect(failed).rejects.toBeInstanceOf(RateLimitError);
    const retry = snapshots.after(server.api, since);
    // Whichever comes first: the old failure handed back at once, or a request of a new walk.
    const first = await Promise.race([
      retry.then(
        () => 'a walk result',
        () => 'the old failure',
      ),
      server.next().then((request) => {
        request.page(['w1']);
        return 'a new walk';
      }),
    ]);
    expect(first).toBe('a new walk');
    expect(idsOf(await retry)).toEqual(['w1']);
    expect(server.received()).toBe(2);
  });
});
