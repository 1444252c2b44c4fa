/**
 * Pagination (§4.1, §8): rules PAGE-1..8. The suite creates its own set of widgets; the
 * account may hold any number of others, in any order. Walks follow next_cursor with
 * limits 1, 2, 3 and a larger one, and never assume an order, a page size equal to the
 * limit, or a default or maximum limit. Every walk is bounded (see src/client/walk.ts).
 *
 * PAGE-3 judges every widget of the account, not only the suite's: the walks at all limits
 * (and one at the largest page size) are made in one quiet window, so they must show the same
 * set; a difference counts only once it reproduces (src/client/walk-account.ts), so writes of
 * other clients of a shared account are not blamed. The limit-1 walk stops after
 * SMALL_LIMIT_MAX_PAGES pages on a larger account, as do those at 2 and 3; the walks at the larger
 * limit and at the largest page size still cover all of it, and PAGE-7 walks at the larger limit
 * when the account is too large to walk whole at its small one.
 */
import { afterAll } from 'vitest';
import { createdWidget, expect2xx, expectErrorObject, expectSchema, jsonBody } from '../src/harness/checks.ts';
import { prerequisite, requireDistinctIds, requireStringIds } from '../src/harness/prerequisites.ts';
import { rule, type RuleContext } from '../src/harness/rule.ts';
import { requireComplete } from '../src/harness/snapshots.ts';
import { describeLateness, diagnose, lookAgain, recordLag, settleWindowMs } from '../src/harness/settle.ts';
import { describeSkipped } from '../src/harness/cursor-gaps.ts';
import { OverCapError } from '../src/harness/api.ts';
import type { ApiResponse } from '../src/harness/api.ts';
import { formatIssues, pageEnvelope, preview } from '../src/schema.ts';
import { describeEnd, describePages, idOf, walkAll, walkBudget, walkPages, type WalkResult } from '../src/harness/api.ts';
import { walkAccount, type AccountWalks } from '../src/harness/api.ts';

/** Widgets the suite creates for the walks: enough that limits 1, 2 and 3 each need several pages. */
const SET_SIZE = 7;
/** Widgets created on each side of the set (older and newer) for PAGE-7 to delete during its walk. */
const VOLATILE_EACH_SIDE = 2;
const SMALL_LIMITS = [1, 2, 3] as const;
/** The larger limit. A server may refuse any limit above 1 (its maximum is its choice), which skips that walk. */
const LARGE_LIMIT = 10;
const LIMITS = [...SMALL_LIMITS, LARGE_LIMIT];

interface Fixture {
  /** Ids of the set the suite created. */
  readonly ids: ReadonlySet<string>;
  /** Ids created just before and just after the set, for PAGE-7 to delete mid-walk. */
  readonly volatile: string[];
  /** How many widgets the account holds at least: the set, or a complete walk's count if larger. */
  readonly atLeast: number;
  /** Page budget for every walk of this file. */
  readonly maxPages: number;
  /** When the set's creates were answered (performance.now()): how late the list is, is measured from it. */
  readonly createdAt: number;
  /** The whole list made after the creates and before any walk of this file (the one that caught up, within a settle window). */
  readonly listed: WalkResult;
}

let fixture: Promise<Fixture> | undefined;

/** The set of widgets every walk of this file looks for; created once, by whichever test asks first. */
function sharedWidgetSet(t: RuleContext): Promise<Fixture> {
  fixture ??= (async () => {
    // Created in three waves, so that in any order some volatile widgets sit on each side of the set.
    const wave = async (n: number): Promise<string[]> => {
      const responses = await Promise.all(Array.from({ length: n }, () => t.api.create({ name: t.name() })));
      // A create at fault (refused, not JSON, no string id) makes every walk check inconclusive, naming the rule it breaks.
      const ids = responses.map((r) => createdWidget(t, r, 'a create of a widget for the pagination walks').id);
      requireDistinctIds(t, ids);
      return ids;
    };
    const older = await wave(VOLATILE_EACH_SIDE);
    const ids = new Set(await wave(SET_SIZE));
    const newer = await wave(VOLATILE_EACH_SIDE);
    const createdAt = performance.now();
    let whole = await t.listAfter(t.api, createdAt);
    // A list that catches up late (settle.ts): with --list-settle-ms the walks wait for it, within the window.
    const unlisted = (w: WalkResult): boolean => [...ids].some((id) => !w.widgets.has(id));
    if (whole.end.kind === 'complete') {
      if (!unlisted(whole)) recordLag('create', 'immediate', whole);
      else if (settleWindowMs(t) > 0) {
        const late = await lookAgain(t, t.api, 'create', createdAt, (w) => !unlisted(w), createdAt + settleWindowMs(t));
        if (late.caughtUp && late.last) {
          recordLag('create', late);
          whole = late.last;
          await t.annotate(describeLateness(t, late), 'note');
        }
      }
    }
    const counted = whole.end.kind === 'complete' ? whole.widgets.size : 0;
    const atLeast = Math.max(ids.size + 2 * VOLATILE_EACH_SIDE, counted);
    // A walk may take one page per widget; without a trustworthy count, fall back to --max-widgets.
    const maxPages = walkBudget(counted > 0 ? counted + SET_SIZE : t.settings.maxWidgets);
    return { ids, volatile: [...older, ...newer], atLeast, maxPages, createdAt, listed: whole };
  })();
  return fixture;
}

let lateNote: Promise<string> | undefined;

/**
 * Why widgets of the set are missing from a walk, in words built from the lists the run made: those
 * a plain list made before the walk showed were skipped by the cursor (the pages say where); only
 * for the others is the list's lateness looked into (a later list showing what the earlier one did
 * not), and --list-settle-ms named.
 */
async function whyMissing(t: RuleContext, set: Fixture, walk: WalkResult, missing: readonly string[]): Promise<string> {
  const complete = set.listed.end.kind === 'complete';
  const skipped = complete ? missing.filter((id) => set.listed.widgets.has(id)) : [];
  const unlisted = missing.filter((id) => !skipped.includes(id));
  const parts = skipped.length > 0 ? [describeSkipped(walk, set.listed, skipped)] : [];
  if (unlisted.length > 0) parts.push(`${skipped.length > 0 ? `${unlisted.length} of them missing from the list made before the walk too, and the set: ` : ''}${await lateness(t, set)}`);
  return parts.join('\n');
}

/** Whether the set missing from the walks appeared later, and when: one diagnosis for every walk's PAGE-3. */
function lateness(t: RuleContext, set: Fixture): Promise<string> {
  lateNote ??= (async () => {
    const late = await diagnose(t, t.api, 'create', set.createdAt, (w) => [...set.ids].every((id) => w.widgets.has(id)));
    recordLag('create', late);
    return describeLateness(t, late);
  })();
  return lateNote;
}

let accountWalks: Promise<AccountWalks> | undefined;
// The walks of a large account are the biggest thing the suite holds: let them go with the file.
afterAll(() => void (accountWalks = undefined));

/** The walks at every limit, made together in one quiet window and compared (see walk-account.ts). */
async function walksOf(t: RuleContext): Promise<{ walks: AccountWalks; set: Fixture }> {
  const set = await sharedWidgetSet(t);
  accountWalks ??= t.quietly(() => walkAccount(t.api, { limits: LIMITS, maxPages: set.maxPages }));
  return { walks: await accountWalks, set };
}

/** The walk at this limit, made once and examined by every rule that asks. */
async function walkAt(t: RuleContext, limit: number): Promise<{ walk: WalkResult; set: Fixture; walks: AccountWalks }> {
  const { walks, set } = await walksOf(t);
  const walk = walks.byLimit.get(limit) as WalkResult;
  // The widgets the walks are judged on: under --keep-failing a failure keeps them in place. Only
  // the set: no test deletes it, while PAGE-7 deletes the volatile ones and other tests their own.
  t.uses(set.ids);
  return { walk, set, walks };
}

/** Skips a walk's checks when the server refuses its limit outright: its maximum is its choice (1 is always valid). */
async function skipIfLimitRefused(t: RuleContext, walk: WalkResult, limit: number): Promise<void> {
  const first = walk.pages[0]?.response;
  if (limit > 1 && walk.pages.length === 1 && first && first.status >= 400 && first.status < 500) {
    await t.skip(`the server refuses limit ${limit} with ${first.status}; its maximum limit is its own choice`);
  }
}

const pageLabel = (walk: WalkResult, n: number): string => `page ${n} of the walk at limit ${walk.limit}`;

for (const limit of LIMITS) {
  rule('PAGE-1', `every page at limit ${limit} matches the page schema and holds at most ${limit} widgets`, async (t) => {
    const { walk } = await walkAt(t, limit);
    await skipIfLimitRefused(t, walk, limit);
    // Each Widget in data is FMT-3's to judge: what this walk saw of it is FMT-3's evidence (once per walk),
    // so a list whose widgets break the schema only past the first page is caught too.
    const broken = walk.pages.find((p) => p.response.schemaIssues.some((i) => i.path.startsWith('/data/')));
    if (broken) {
      const issues = broken.response.schemaIssues.filter((i) => i.path.startsWith('/data/'));
      t.evidence('FMT-3', {
        expected: `every Widget on ${pageLabel(walk, broken.number)} matching the widget schema (schemas/widget.schema.json)`,
        received: `${issues.length}${broken.response.schemaIssueCount > broken.response.schemaIssues.length ? ' or more' : ''} violation(s):\n    ${formatIssues(issues).split('\n').join('\n    ')}`,
        exchanges: [broken.response.exchange],
      });
    }
    for (const page of walk.pages) {
      const res = page.response;
      expect2xx(t, res, `${pageLabel(walk, page.number)}`);
      if (res.prefix) {
        // Over the body cap: only its first bytes were read, and the items they close are counted.
        const { completeItems } = res.prefix;
        t.check(completeItems <= limit, () => ({
          expected: `at most ${limit} widgets on ${pageLabel(walk, page.number)}`,
          received: `${completeItems} complete widgets in the part read of a body larger than the cap (${res.jsonError})`,
          exchanges: [res.exchange],
        }));
        // Not more than the limit in the part read: a page may be that large lawfully (extra fields, long
        // names), so no rule is broken that the suite can tell; a limit of the suite, said as such.
        throw new OverCapError(`${pageLabel(walk, page.number)} is larger than the body cap, and the part read shows only ${completeItems} complete widgets, not more than the limit ${limit}: its size against the limit cannot be judged within the cap (${res.jsonError})`);
      }
      const body = jsonBody(t, res, pageLabel(walk, page.number));
      // The page's own fields (the reduced body keeps their types); each Widget in data is FMT-3's to judge.
      expectSchema(t, 'page', pageEnvelope(body), res, pageLabel(walk, page.number));
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
      // Every page is judged against the statement: one that says has_more false (or nothing) holds it.
      t.check(body?.has_more !== true || (typeof body.next_cursor === 'string' && body.next_cursor !== ''), () => ({
        expected: `a non-empty string next_cursor on ${pageLabel(walk, page.number)}, which says has_more true`,
        received: `next_cursor ${preview(body?.next_cursor)}`,
        exchanges: [page.response.exchange],
      }));
    }
  });

  rule('PAGE-3', `a walk at limit ${limit} returns every widget of the account exactly once and ends with has_more false`, async (t) => {
    const { walk, set, walks } = await walkAt(t, limit);
    await skipIfLimitRefused(t, walk, limit);
    const duplicates = [...walk.duplicates];
    t.check(duplicates.length === 0, () => ({
      expected: `each widget once in the walk at limit ${limit}`,
      received: `${duplicates.length} widget(s) more than once: ${duplicates.slice(0, 5).map(([id, pages]) => `${id} on pages ${pages.join(', ')}`).join('; ')}`,
      exchanges: walk.pages.filter((p) => p.number === duplicates[0]?.[1][1]).map((p) => p.response.exchange),
    }));
    if (walk.end.kind === 'stopped') {
      // A large account: this walk covered its window of pages; the complete walks judge the whole set.
      const whole = LIMITS.filter((l) => walks.byLimit.get(l)?.end.kind === 'complete');
      return t.annotate(`the walk at limit ${limit} ${describeEnd(walk)}; exactly-once over the whole account is judged by the walks at ${[...whole.map((l) => `limit ${l}`), 'the largest page size'].join(', ')}`, 'note');
    }
    requireComplete(t, walk, `judge the walk at limit ${limit}`);
    const missing = [...set.ids].filter((id) => !walk.widgets.has(id));
    // A widget may be listed under an id of the wrong type (FMT-3's): then it is not known to be missing.
    if (missing.length > 0) requireStringIds(t, walk, `tell whether the ${missing.length} widget(s) not found are missing`);
    // Skipped by the cursor, or a list that is late (settle.ts, looked at once for all the walks); the verdict stays.
    const late = missing.length === 0 ? '' : `\n${await whyMissing(t, set, walk, missing)}`;
    t.check(missing.length === 0, () => ({
      expected: `all ${set.ids.size} widgets the suite created, in a walk at limit ${limit} that ended after ${walk.pages.length} pages`,
      received: `${missing.length} missing: ${preview(missing)}${late}`,
      note: `pages: ${describePages(walk, 2000)}`,
      exchanges: [walk.last.response.exchange],
    }));
    const compared = walks.comparisons.get(limit);
    const gaps = compared?.gaps ?? [];
    if (gaps.length > 0) requireStringIds(t, walk, `tell whether the ${gaps.length} widget(s) seen in another walk are missing from this one`);
    t.check(gaps.length === 0, () => ({
      expected: `every widget of the account in the walk at limit ${limit}: with no write of the suite in between, the walks at limits ${LIMITS.join(', ')} and at the largest page size must show the same ${walks.reference.widgets.size} widgets`,
      received:
        `${compared?.stillMissing} widget(s) seen in another walk are missing from both walks at limit ${limit} (${walk.widgets.size} and ${compared?.rewalk?.widgets.size} widgets), ` +
        `and a retrieve still shows them: ${gaps.map((g) => `${g.id} (seen at ${g.seenIn.join(', ')})`).join('; ')}` +
        // Where the plain list of the same window has them, the pages name the request that skipped each.
        (walks.reference.end.kind === 'complete' && gaps.some((g) => walks.reference.widgets.has(g.id)) ? `\n${describeSkipped(walk, walks.reference, gaps.map((g) => g.id).filter((id) => walks.reference.widgets.has(id)), 'beside')}` : ''),
      note: `first walk at limit ${limit}, pages: ${describePages(walk, 1500)}`,
      exchanges: [walk.pages[0]!.response.exchange, walk.last.response.exchange],
    }));
  });

  rule('PAGE-4', `at limit ${limit}, the first page says has_more true when the account holds more widgets than it shows`, async (t) => {
    const { walk, set } = await walkAt(t, limit);
    await skipIfLimitRefused(t, walk, limit);
    const first = walk.pages[0]!;
    const body = first.response.json as { has_more?: unknown; data?: unknown[] } | undefined;
    if (!Array.isArray(body?.data)) return t.skip('the first page is not a page (PAGE-1 reports it)');
    // Judged on what the page shows, not on the limit: a page may be shorter than the limit.
    if (set.atLeast <= body.data.length) return t.skip(`the first page at limit ${limit} shows ${body.data.length} widgets, as many as the account is known to hold`);
    // A list that does not show the set yet says has_more false truthfully for what it shows: say why the walk lacks it.
    const lacking = [...set.ids].filter((id) => !walk.widgets.has(id));
    const late = body.has_more !== true && walk.end.kind === 'complete' && lacking.length > 0 ? `; the walk lacks widgets the suite created: ${await whyMissing(t, set, walk, lacking)}` : '';
    t.check(body.has_more === true, () => ({
      expected: `has_more true on the first page at limit ${limit}: the account holds at least ${set.atLeast} widgets and the page shows ${body.data?.length}`,
      received: `has_more ${preview(body.has_more)}${late}`,
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
  // Sent once the walks' set stands, when one is being made (whatever became of it): a default
  // page with more to show is where the profile reads the default page size (list.default-page-size).
  await fixture?.catch(() => undefined);
  const res = await t.api.list();
  expect2xx(t, res, 'a list without limit');
  expectSchema(t, 'page', pageEnvelope(jsonBody(t, res, 'the page of a list without limit')), res, 'the page of a list without limit');
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

for (const value of ['0', '1000000000']) {
  rule('PAGE-8', `limit=${value} is answered with a page or an Error object, never a 5xx`, async (t) => {
    // Whether 0 or a huge limit is refused, clamped or served is the server's choice; a crash is not.
    const res = await t.api.list({ limit: value });
    if (res.status >= 200 && res.status < 300) return expectSchema(t, 'page', pageEnvelope(jsonBody(t, res, `the page for limit=${value}`)), res, `the page for limit=${value}`);
    expectErrorObject(t, res, `a list with limit=${value}`);
  });
}

rule('PAGE-8', 'a cursor the server never issued is rejected with an Error object, never a 5xx', async (t) => {
  expectErrorObject(t, await t.api.list({ cursor: `wcs-not-a-cursor-${t.random.hex(8)}` }), 'a list with a cursor the server never issued');
});

/** A list answered with a valid page or an Error object: whichever the server chose, never a 5xx. */
function expectPageOrError(t: RuleContext, res: ApiResponse, what: string): void {
  if (res.status >= 200 && res.status < 300) return expectSchema(t, 'page', pageEnvelope(jsonBody(t, res, `the page for ${what}`)), res, `the page for ${what}`);
  expectErrorObject(t, res, `a list with ${what}`);
}

/** Not an integer in decimal digits, yet read as one by a lenient parser (parseInt): refused. */
for (const value of ['1x', '2,3']) {
  rule('PAGE-8', `limit=${value} (digits then junk) is rejected with an Error object, never a 5xx`, async (t) => {
    expectErrorObject(t, await t.api.list({ limit: value }), `a list with limit=${value}`);
  });
}

/**
 * Spellings a server may read as an integer, or refuse: either is its choice, a crash is not.
 * Among them what trips numeric coercion (Number('') is 0, Number('0x10') is 16, '1e3' is 1000).
 */
const LIMIT_SPELLINGS = ['01', '+1', '1e3', '0x10', ' 1', 'NaN', '', '\uff11', '9'.repeat(400)];

for (const value of LIMIT_SPELLINGS) {
  const shown = JSON.stringify(value.length > 20 ? `${value.slice(0, 8)}… (${value.length} characters)` : value);
  rule('PAGE-8', `limit=${shown} is answered with a page or an Error object, never a 5xx`, async (t) => {
    expectPageOrError(t, await t.api.list({ limit: value }), `limit=${shown}`);
  });
}

/** A cursor of the account's own, from the walk at limit 1: the base of the forged shapes below. */
async function ownCursor(t: RuleContext): Promise<string> {
  const { walk } = await walkAt(t, 1);
  const cursor = (walk.pages[0]?.response.json as { next_cursor?: unknown } | undefined)?.next_cursor;
  if (typeof cursor !== 'string' || cursor === '') return t.skip('the first page of the walk at limit 1 carries no cursor to alter (PAGE-2 judges that)');
  return cursor;
}

/** Base64url of n bytes of the test's seeded stream: well-formed in the alphabet most servers use for cursors. */
const base64url = (t: RuleContext, n: number): string => t.random.bytes(n).toString('base64url');

/** Cursors of every shape that the server never issued; each may be refused or (if the server can read it) served. */
const CURSOR_SHAPES: Array<{ label: string; cursor: (t: RuleContext) => Promise<string> }> = [
  { label: 'one character', cursor: async () => 'a' },
  { label: 'a short well-formed base64url string (3 bytes)', cursor: async (t) => base64url(t, 3) },
  { label: 'a well-formed base64url string of 31 bytes', cursor: async (t) => base64url(t, 31) },
  { label: 'a well-formed base64url string of 48 bytes', cursor: async (t) => base64url(t, 48) },
  { label: 'a long well-formed base64url string (3000 bytes)', cursor: async (t) => base64url(t, 3000) },
  { label: 'standard base64 with padding', cursor: async (t) => t.random.bytes(40).toString('base64') },
  { label: 'a number', cursor: async () => '0' },
  { label: 'a negative number', cursor: async () => '-1' },
  { label: 'a JSON object', cursor: async () => '{"seq":1,"account":"x"}' },
  { label: 'a path', cursor: async () => '../../widgets' },
  { label: "the account's own cursor with its last character changed", cursor: async (t) => { const c = await ownCursor(t); return `${c.slice(0, -1)}${c.endsWith('A') ? 'B' : 'A'}`; } },
  { label: "the account's own cursor cut short", cursor: async (t) => (await ownCursor(t)).slice(0, -4) },
  { label: "the account's own cursor with characters appended", cursor: async (t) => `${await ownCursor(t)}AA` },
];

for (const shape of CURSOR_SHAPES) {
  rule('PAGE-8', `a cursor that is ${shape.label} is answered with a page or an Error object, never a 5xx`, async (t) => {
    expectPageOrError(t, await t.api.list({ cursor: await shape.cursor(t) }), `a cursor that is ${shape.label}`);
  });
}

for (const limit of LIMITS) {
  rule('PAGE-9', `at limit ${limit}, a page with has_more false carries no next_cursor`, async (t) => {
    const { walk } = await walkAt(t, limit);
    await skipIfLimitRefused(t, walk, limit);
    const last = walk.pages.filter((page) => (page.response.json as { has_more?: unknown } | undefined)?.has_more === false);
    if (last.length === 0) return t.skip(`the walk at limit ${limit} ${describeEnd(walk)} without a page saying has_more false (PAGE-3 judges that)`);
    for (const page of last) {
      const cursor = (page.response.json as { next_cursor?: unknown }).next_cursor;
      t.check(cursor === undefined || cursor === null || cursor === '', () => ({
        expected: `no next_cursor on ${pageLabel(walk, page.number)}, which says has_more false: there is no following page (§2)`,
        received: `next_cursor ${preview(cursor)}`,
        exchanges: [page.response.exchange],
      }));
    }
  });
}

/** PAGE-7's limit: small, so the walk has many page boundaries to write at. */
const STABILITY_LIMIT = 2;
/** Widgets PAGE-7 creates during its walk (their place in the order is the server's choice). */
const CREATES_DURING_WALK = 2;
/** Pre-existing widgets missing from PAGE-7's walk that are confirmed with a retrieve, at most. */
const MAX_STABILITY_RETRIEVES = 20;

/**
 * The writes PAGE-7 makes between pages, placed by what the walk has shown, never by an assumed
 * order: a delete of one of the suite's widgets the walk has already shown is behind its position
 * (an offset cursor then skips one), a delete of one not yet shown is ahead of it, and a create
 * lands wherever the server's order puts it (in front of a newest-first offset, it repeats one).
 * Creates and deletes go between different pages, so that a create in front and a delete behind
 * never cancel each other out; the ahead-delete is made once, before any behind-delete, so the
 * widget a behind-delete makes the walk skip is never one the suite deletes later.
 */
class StabilityWrites {
  readonly log: string[] = [];
  readonly deleted = new Set<string>();
  private readonly shownOn = new Map<string, number>();
  private creates = 0;
  private behind = 0;
  private ahead = 0;

  constructor(
    private readonly t: RuleContext,
    private readonly volatile: string[],
  ) {}

  shown(ids: readonly string[], page: number): void {
    for (const id of ids) if (!this.shownOn.has(id)) this.shownOn.set(id, page);
  }

  /** After page `page`, before the next one. */
  async afterPage(page: number): Promise<void> {
    if (page % 2 === 1 && this.creates < CREATES_DURING_WALK) {
      this.creates += 1;
      const made = await this.t.api.create({ name: this.t.name() });
      this.log.push(`after page ${page}: created ${(made.json as { id?: string } | undefined)?.id ?? `nothing (${made.status})`}`);
      return;
    }
    const live = this.volatile.filter((id) => !this.deleted.has(id));
    // The one most recently shown: the widget a cursor may name.
    const behind = live.filter((id) => this.shownOn.has(id)).sort((a, b) => (this.shownOn.get(b) ?? 0) - (this.shownOn.get(a) ?? 0))[0];
    const ahead = this.ahead === 0 && this.behind === 0 ? live.filter((id) => !this.shownOn.has(id)).at(-1) : undefined;
    const target = behind ?? ahead;
    if (target === undefined) return;
    if (behind !== undefined) this.behind += 1;
    else this.ahead += 1;
    this.deleted.add(target);
    const res = await this.t.api.remove(target);
    this.log.push(`after page ${page}: deleted ${target}, ${behind !== undefined ? `behind the walk (shown on page ${this.shownOn.get(target)})` : 'ahead of the walk (not yet shown)'} (${res.status})`);
  }

  /** Where the writes landed, for the message. */
  summary(): string {
    return `${this.behind} delete(s) behind the walk's position, ${this.ahead} ahead of it, ${this.creates} create(s)`;
  }
}

// Alone, after the walks above: its writes between pages must not disturb their walks.
rule('PAGE-7', 'widgets that exist for a whole walk appear in it exactly once while others are created and deleted between pages', async (t) => {
  const set = await sharedWidgetSet(t);
  // Without writes, the walk at this limit must already be exactly-once: otherwise a gap here is PAGE-3's, not PAGE-7's.
  // An account too large to walk whole at the small limit is walked at the larger one: still many page boundaries, a tenth of the cost.
  const small = await walkAt(t, STABILITY_LIMIT);
  const stabilityLimit = small.walk.end.kind === 'stopped' ? LARGE_LIMIT : STABILITY_LIMIT;
  const { walk: quiet, walks } = stabilityLimit === STABILITY_LIMIT ? small : await walkAt(t, stabilityLimit);
  // A limit the server refuses outright is its choice (PAGE-1 skips it too), not a walk that broke.
  await skipIfLimitRefused(t, quiet, stabilityLimit);
  requireComplete(t, quiet, `judge the quiet walk at limit ${stabilityLimit}`);
  // What this quiet walk shows of PAGE-3 is PAGE-3's evidence, whether or not PAGE-3's own test ran (--only).
  const duplicates = [...quiet.duplicates];
  const gaps = walks.comparisons.get(stabilityLimit)?.gaps ?? [];
  const unlisted = [...set.ids].filter((id) => !quiet.widgets.has(id));
  // A widget listed under an id of another JSON type is FMT-3's, not missing (as in PAGE-3's own test).
  if (gaps.length > 0 || unlisted.length > 0) requireStringIds(t, quiet, `tell whether widgets are missing from the walk at limit ${stabilityLimit}`);
  prerequisite(t, 'PAGE-3', duplicates.length === 0 && gaps.length === 0 && unlisted.length === 0, () => ({
    expected: `each widget of the account exactly once in the walk at limit ${stabilityLimit}, with no write in between (PAGE-7 judges writes against that)`,
    received: [
      duplicates.length > 0 ? `${duplicates.length} widget(s) more than once: ${duplicates.slice(0, 5).map(([id, pages]) => `${id} on pages ${pages.join(', ')}`).join('; ')}` : '',
      gaps.length > 0 ? `${gaps.length} widget(s) seen in another walk and still retrievable are missing: ${gaps.map((g) => g.id).join(', ')}` : '',
      unlisted.length > 0 ? `${unlisted.length} widget(s) the suite created are missing: ${preview(unlisted)}` : '',
    ].filter(Boolean).join('; '),
    note: `pages: ${describePages(quiet, 1500)}`,
    exchanges: [quiet.pages[0]!.response.exchange, quiet.last.response.exchange],
  }));
  // What the account holds just before the walk: every widget of it that is not deleted by this test must appear once.
  const before = await t.quietly(() => walkAll(t.api, set.maxPages));
  requireComplete(t, before, 'list the account before PAGE-7\'s walk');
  const writes = new StabilityWrites(t, set.volatile);
  const walk = await walkPages(t.api, {
    limit: stabilityLimit,
    maxPages: set.maxPages + 2 * VOLATILE_EACH_SIDE + CREATES_DURING_WALK,
    onPage: (ids, page) => writes.shown(ids, page),
    afterPage: (page) => writes.afterPage(page),
  });
  const judged = [...new Set([...before.widgets.keys(), ...set.ids])].filter((id) => !writes.deleted.has(id));
  const twice = judged.filter((id) => walk.duplicates.has(id));
  const absent = judged.filter((id) => !walk.widgets.has(id));
  // The suite's own widgets cannot have gone; another client may have deleted one of its own meanwhile, so those must still be there.
  const ours = new Set([...set.ids, ...set.volatile]);
  const missing: string[] = absent.filter((id) => ours.has(id));
  for (const id of absent.filter((id) => !ours.has(id)).slice(0, MAX_STABILITY_RETRIEVES)) {
    const res = await t.api.retrieve(id).catch(() => undefined);
    if (res && res.status >= 200 && res.status < 300 && idOf(res.json) === id) missing.push(id);
  }
  if (missing.length > 0) requireStringIds(t, walk, `tell whether the ${missing.length} widget(s) not found are missing`);
  t.check(walk.end.kind === 'complete' && twice.length === 0 && missing.length === 0, () => ({
    expected: `each of the ${judged.length} widgets that existed throughout the walk at limit ${stabilityLimit} exactly once, and the walk complete`,
    received: `${twice.length} seen twice ${preview(twice)}, ${missing.length} missing ${preview(missing)}; the walk ${describeEnd(walk)}`,
    note: `writes between pages (${writes.summary()}): ${writes.log.join('; ')}`,
    exchanges: [walk.last.response.exchange],
  }));
}, { sequential: true });
