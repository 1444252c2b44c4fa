/**
 * Snapshots: shared list walks. Each caller needs a walk begun after its `since`; one walk
 * serves every caller it can, and a caller it cannot serve gets the next one. A check that needs a
 * whole walk and gets an incomplete one names the rule its end breaks, with that rule's evidence.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WalkGate } from '../../../src/harness/walk-gate.ts';
import { requireComplete, Snapshots, walkEndFinding } from '../../../src/harness/snapshots.ts';
import { InconclusiveError, OverCapError, TransportError } from '../../../src/errors.ts';
import { ConformanceFailure } from '../../../src/harness/failure.ts';
import type { RuleContext } from '../../../src/harness/rule.ts';
import type { WalkEnd, WalkResult } from '../../../src/client/walk.ts';
import { contextOf, exchangeOf, walkOf, type PageSpec } from '../support/walks.ts';
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
    (await server.next()).breakOff();
    for (const caller of callers) await expect(caller).rejects.toBeInstanceOf(TransportError);
  });

  it('callers queued behind a walk that fails get the next walk, which succeeds', async () => {
    const early = snapshots.after(server.api, performance.now());
    const running = await server.next();
    const late = snapshots.after(server.api, performance.now());
    running.breakOff();
    await expect(early).rejects.toBeInstanceOf(TransportError);
    (await server.next()).page(['w1']);
    expect(idsOf(await late)).toEqual(['w1']);
  });

  it('a caller arriving after a walk failed gets a fresh walk, not the old failure', async () => {
    const since = performance.now();
    const failed = snapshots.after(server.api, since);
    (await server.next()).breakOff();
    await expect(failed).rejects.toBeInstanceOf(TransportError);
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

describe('requireComplete', () => {
  const page = (ids: string[], more: boolean, cursor?: unknown): PageSpec => ({ json: { data: ids.map((id) => ({ id, name: id, created_at: '2026-01-02T03:04:05Z' })), has_more: more, ...(cursor === undefined ? {} : { next_cursor: cursor }) } });
  const stop = (t: RuleContext, walk: WalkResult): unknown => {
    try {
      requireComplete(t, walk, 'find w9');
    } catch (error) {
      return error;
    }
    return undefined;
  };

  it('holds for a complete walk, and records nothing', () => {
    const { t, evidence } = contextOf('DEL-1');
    expect(stop(t, walkOf([page(['w1'], false)]))).toBeUndefined();
    expect(evidence).toEqual([]);
  });

  it.each([
    ['a page that is not one (PAGE-1)', [page(['w1'], true, 'c1'), { status: 500, json: { code: 'boom', message: 'x' } }], { kind: 'not-a-page', reason: 'the list answered 500' }, 'PAGE-1', [2]],
    ['has_more true without a cursor (PAGE-2)', [page(['w1'], true)], { kind: 'missing-cursor' }, 'PAGE-2', [1]],
    ['a cursor that repeats (PAGE-5)', [page(['w1'], true, 'c1'), page(['w2'], true, 'c1')], { kind: 'repeated-cursor', cursor: 'c1', firstPage: 1 }, 'PAGE-5', [1, 2]],
    ['the page budget spent (PAGE-5)', [page(['w1'], true, 'c1'), page(['w2'], true, 'c2')], { kind: 'page-budget' }, 'PAGE-5', [1, 2]],
  ] as const)('ends the check inconclusive naming the rule a walk that ends on %s breaks, with that rule\'s evidence', (_, pages, end, rule, cited) => {
    const { t, evidence } = contextOf('DEL-1');
    const error = stop(t, walkOf(pages as readonly PageSpec[], end as WalkEnd, 1));
    expect(error).toBeInstanceOf(InconclusiveError);
    expect((error as InconclusiveError).dependsOn).toEqual([rule]);
    expect((error as Error).message).toContain(`could not find w9: the list walk stopped on page ${pages.length}`);
    // The rule named gets the evidence, so it fails in the same run: never "depends on PAGE-5, which passed".
    expect(evidence.map((e) => e.rule)).toEqual([rule]);
    expect(evidence[0]!.exchanges).toEqual(cited.map(exchangeOf));
  });

  it('fails the rule itself when the walk\'s end breaks the calling rule', () => {
    const { t } = contextOf('PAGE-5');
    expect(stop(t, walkOf([page(['w1'], true, 'c1'), page(['w2'], true, 'c1')], { kind: 'repeated-cursor', cursor: 'c1', firstPage: 1 }, 1))).toBeInstanceOf(ConformanceFailure);
  });

  it('blames PAGE-1 for a page over the body cap whose part read holds more complete widgets than the limit', () => {
    const { t, evidence } = contextOf('DEL-1');
    const over = { prefix: { completeItems: 3, sawData: true }, jsonError: 'the body is larger than the cap' };
    const error = stop(t, walkOf([over], { kind: 'not-a-page', reason: 'the body is larger than the cap' }, 2));
    expect((error as InconclusiveError).dependsOn).toEqual(['PAGE-1']);
    expect(evidence[0]).toMatchObject({ rule: 'PAGE-1', expected: 'at most 2 widgets on page 1 of the walk at limit 2', received: '3 complete widgets in the part read of a body larger than the cap (the body is larger than the cap)' });
  });

  it.each([
    ['no more complete widgets than the limit', 2],
    ['no limit sent', undefined],
  ])('ends the check as a suite error, blaming no rule, for a page over the body cap with %s', (_, limit) => {
    const { t, evidence } = contextOf('DEL-1');
    const over = { prefix: { completeItems: 2, sawData: true }, jsonError: 'the body is larger than the cap' };
    const error = stop(t, walkOf([over], { kind: 'not-a-page', reason: 'the body is larger than the cap' }, limit));
    expect(error).toBeInstanceOf(OverCapError);
    expect(error).not.toBeInstanceOf(InconclusiveError);
    expect((error as Error).message).toContain('the page cannot be judged within the cap');
    expect(evidence).toEqual([]);
  });

  it('says a walk cut short by the suite where a whole one is needed is a problem of the suite, never an inconclusive naming no rule', () => {
    const { t } = contextOf('DEL-1');
    const error = stop(t, walkOf([page(['w1'], true, 'c1')], { kind: 'stopped', after: 1 }, 1));
    expect(error).not.toBeInstanceOf(InconclusiveError);
    expect((error as Error).message).toContain('a problem of the suite');
  });
});

describe('walkEndFinding', () => {
  it('finds nothing in a complete walk or one the suite stopped on purpose', () => {
    const walk = walkOf([{ json: { data: [], has_more: false } }]);
    expect(walkEndFinding(walk)).toBeUndefined();
    expect(walkEndFinding({ ...walk, end: { kind: 'stopped', after: 1 } })).toBeUndefined();
  });
});
