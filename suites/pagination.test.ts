/**
 * Pagination (§4.1, §8): rules PAGE-1..8. The suite creates its own set of widgets; the
 * account may hold any number of others, in any order. Walks follow next_cursor with
 * limits 1, 2, 3 and a larger one, and never assume an order, a page size equal to the
 * limit, or a default or maximum limit. Every walk is bounded (see src/walk.ts).
 */
import { randomBytes } from 'node:crypto';
import { createdWidget, expect2xx, expectErrorObject, expectSchema, jsonBody } from '../src/harness/checks.ts';
import { rule, type RuleContext } from '../src/harness/rule.ts';
import { InconclusiveError } from '../src/errors.ts';
import { preview } from '../src/schema.ts';
import { describeEnd, walkBudget, walkPages, type WalkResult } from '../src/walk.ts';

/** Widgets the suite creates for the walks: enough that limits 1, 2 and 3 each need several pages. */
const SET_SIZE = 7;
/** Widgets created before the PAGE-7 walk to be deleted during it. */
const VOLATILE_SIZE = 4;
const SMALL_LIMITS = [1, 2, 3] as const;
/** The larger limit; a server may refuse it (its maximum is its choice), which skips its walk. */
const LARGE_LIMIT = 10;
const LIMITS = [...SMALL_LIMITS, LARGE_LIMIT];

interface Fixture {
  /** Ids of the set the suite created. */
  readonly ids: ReadonlySet<string>;
  /** How many widgets the account holds at least: the set, or a complete walk's count if larger. */
  readonly atLeast: number;
  /** Page budget for every walk of this file. */
  readonly maxPages: number;
}

let fixture: Promise<Fixture> | undefined;

/** The set of widgets every walk of this file looks for; created once, by whichever test asks first. */
function theSet(t: RuleContext): Promise<Fixture> {
  fixture ??= (async () => {
    const responses = await Promise.all(Array.from({ length: SET_SIZE }, (_, i) => t.api.create({ name: t.name() })));
    const refused = responses.find((r) => r.status < 200 || r.status > 299 || typeof (r.json as { id?: unknown })?.id !== 'string');
    if (refused) throw new InconclusiveError(`could not create the widgets the pagination checks walk over: a create answered ${refused.status}`);
    const ids = new Set(responses.map((r) => (r.json as { id: string }).id));
    const whole = await t.listAfter(t.api, performance.now());
    const counted = whole.end.kind === 'complete' ? whole.widgets.size : 0;
    const atLeast = Math.max(ids.size, counted);
    // A walk may take one page per widget; without a trustworthy count, fall back to --max-widgets.
    const maxPages = walkBudget(counted > 0 ? counted + SET_SIZE : t.settings.maxWidgets);
    return { ids, atLeast, maxPages };
  })();
  return fixture;
}

const walks = new Map<number, Promise<WalkResult>>();

/** The walk at this limit, made once and examined by every rule that asks. */
async function walkAt(t: RuleContext, limit: number): Promise<{ walk: WalkResult; set: Fixture }> {
  const set = await theSet(t);
  let walk = walks.get(limit);
  if (!walk) walks.set(limit, (walk = walkPages(t.api, { limit, maxPages: set.maxPages })));
  return { walk: await walk, set };
}

/** Skips the large-limit checks when the server refuses that limit outright: a valid choice. */
async function skipIfLimitRefused(t: RuleContext, walk: WalkResult, limit: number): Promise<void> {
  const first = walk.pages[0]?.response;
  if (limit === LARGE_LIMIT && walk.pages.length === 1 && first && first.status >= 400 && first.status < 500) {
    await t.skip(`the server refuses limit ${limit} with ${first.status}; its maximum limit is its own choice`);
  }
}

const pageLabel = (walk: WalkResult, n: number): string => `page ${n} of the walk at limit ${walk.limit}`;

for (const limit of LIMITS) {
  rule('PAGE-1', `every page at limit ${limit} matches the page schema and holds at most ${limit} widgets`, async (t) => {
    const { walk } = await walkAt(t, limit);
    await skipIfLimitRefused(t, walk, limit);
    for (const page of walk.pages) {
      const res = page.response;
      expect2xx(t, res, `${pageLabel(walk, page.number)}`);
      const body = jsonBody(t, res, pageLabel(walk, page.number));
      expectSchema(t, 'page', body, res, pageLabel(walk, page.number));
      const size = (body as { data: unknown[] }).data.length;
      t.check(size <= limit, () => ({
        expected: `at most ${limit} widgets on ${pageLabel(walk, page.number)}`,
        received: `${size} widgets`,
        exchanges: [res.exchange],
      }));
    }
  });

  rule('PAGE-2', `at limit ${limit}, every page with has_more true carries a non-empty next_cursor`, async (t) => {
    const { walk } = await walkAt(t, limit);
    await skipIfLimitRefused(t, walk, limit);
    for (const page of walk.pages) {
      const body = page.response.json as { has_more?: unknown; next_cursor?: unknown } | undefined;
      if (body?.has_more !== true) continue;
      t.check(typeof body.next_cursor === 'string' && body.next_cursor !== '', () => ({
        expected: `a non-empty string next_cursor on ${pageLabel(walk, page.number)}, which says has_more true`,
        received: `next_cursor ${preview(body.next_cursor)}`,
        exchanges: [page.response.exchange],
      }));
    }
  });

  rule('PAGE-3', `a walk at limit ${limit} returns every widget exactly once and ends with has_more false`, async (t) => {
    const { walk, set } = await walkAt(t, limit);
    await skipIfLimitRefused(t, walk, limit);
    const duplicates = [...walk.duplicates];
    t.check(duplicates.length === 0, () => ({
      expected: `each widget once in the walk at limit ${limit}`,
      received: `${duplicates.length} widget(s) more than once: ${duplicates.slice(0, 5).map(([id, pages]) => `${id} on pages ${pages.join(', ')}`).join('; ')}`,
      exchanges: walk.pages.filter((p) => p.number === duplicates[0]?.[1][1]).map((p) => p.response.exchange),
    }));
    if (walk.end.kind !== 'complete') throw new InconclusiveError(`the walk at limit ${limit} ${describeEnd(walk)}; PAGE-1, PAGE-2 or PAGE-5 report why`);
    const missing = [...set.ids].filter((id) => !walk.widgets.has(id));
    t.check(missing.length === 0, () => ({
      expected: `all ${set.ids.size} widgets the suite created, in a walk at limit ${limit} that ended after ${walk.pages.length} pages`,
      received: `${missing.length} missing: ${preview(missing)}`,
      note: `pages: ${walk.pages.map((p) => `${p.number}:[${p.ids.join(', ')}]`).join(' ').slice(0, 2000)}`,
      exchanges: [walk.last.response.exchange],
    }));
  });

  rule('PAGE-4', `at limit ${limit}, the first page says has_more true when the account holds more widgets`, async (t) => {
    const { walk, set } = await walkAt(t, limit);
    await skipIfLimitRefused(t, walk, limit);
    const first = walk.pages[0]!;
    const body = first.response.json as { has_more?: unknown; data?: unknown[] } | undefined;
    if (set.atLeast <= limit || !Array.isArray(body?.data)) return t.skip(`the account holds ${set.atLeast} widget(s), not more than ${limit}, or the first page is not a page (PAGE-1)`);
    t.check(body.has_more === true, () => ({
      expected: `has_more true on the first page at limit ${limit}: the account holds at least ${set.atLeast} widgets and the page shows ${body.data?.length}`,
      received: `has_more ${preview(body.has_more)}`,
      exchanges: [first.response.exchange],
    }));
  });

  rule('PAGE-5', `a walk at limit ${limit} terminates: no cursor repeats and every page makes progress`, async (t) => {
    const { walk } = await walkAt(t, limit);
    await skipIfLimitRefused(t, walk, limit);
    const looping = walk.end.kind === 'repeated-cursor' || walk.end.kind === 'no-progress' || walk.end.kind === 'page-budget';
    t.check(!looping, () => ({
      expected: `a walk at limit ${limit} that reaches has_more false within ${walk.pages.length} pages`,
      received: `the walk ${describeEnd(walk)}`,
      note: walk.end.kind === 'page-budget' ? `budget: one page per widget the account holds, plus slack (raise --max-widgets if it really holds more)` : undefined,
      exchanges: walk.pages.slice(-2).map((p) => p.response.exchange),
    }));
  });
}

rule('PAGE-6', 'a list without limit answers a valid page (the default limit applies)', async (t) => {
  const res = await t.api.list();
  expect2xx(t, res, 'a list without limit');
  expectSchema(t, 'page', jsonBody(t, res, 'the page of a list without limit'), res, 'the page of a list without limit');
});

const INVALID_LIMITS = [
  { value: 'abc', why: 'not a number' },
  { value: '-1', why: 'negative' },
  { value: '1.5', why: 'not an integer' },
];

for (const { value, why } of INVALID_LIMITS) {
  rule('PAGE-8', `limit=${value} (${why}) is rejected with an Error object, never a 5xx`, async (t) => {
    expectErrorObject(t, await t.api.list({ limit: value }), `a list with limit=${value}`);
  });
}

rule('PAGE-8', 'a cursor the server never issued is rejected with an Error object, never a 5xx', async (t) => {
  expectErrorObject(t, await t.api.list({ cursor: `wcs-not-a-cursor-${randomBytes(8).toString('hex')}` }), 'a list with a cursor the server never issued');
});

// Alone, after the walks above: its writes between pages must not disturb their walks.
rule('PAGE-7', 'widgets that exist for a whole walk appear in it exactly once while others are created and deleted between pages', async (t) => {
  const set = await theSet(t);
  const volatile: string[] = [];
  for (let i = 0; i < VOLATILE_SIZE; i += 1) volatile.push(createdWidget(t, await t.api.create({ name: t.name() })).id);
  const writes: string[] = [];
  const walk = await walkPages(t.api, {
    limit: 2,
    maxPages: set.maxPages + VOLATILE_SIZE * 2,
    between: async () => {
      // One delete and one create per page: a delete shifts offset-based pages back, a create
      // shifts newest-first pages forward.
      const gone = volatile.shift();
      if (gone) writes.push(`deleted ${gone} (${(await t.api.remove(gone)).status})`);
      const made = await t.api.create({ name: t.name() });
      writes.push(`created ${(made.json as { id?: string } | undefined)?.id ?? `nothing (${made.status})`}`);
    },
  });
  const twice = [...set.ids].filter((id) => walk.duplicates.has(id));
  const missing = [...set.ids].filter((id) => !walk.widgets.has(id));
  t.check(walk.end.kind === 'complete' && twice.length === 0 && missing.length === 0, () => ({
    expected: `each of the ${set.ids.size} widgets that existed throughout the walk exactly once, and the walk complete`,
    received: `${twice.length} seen twice ${preview(twice)}, ${missing.length} missing ${preview(missing)}; the walk ${describeEnd(walk)}`,
    note: `writes between pages: ${writes.join('; ')}`,
    exchanges: [walk.last.response.exchange],
  }));
}, { sequential: true });
