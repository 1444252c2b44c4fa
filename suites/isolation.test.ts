/**
 * Account isolation (§1): rules ISO-1..5, with a second account's token. "Every operation
 * acts on the authenticated account. Widgets of other accounts are not visible." Each test
 * uses widgets of the run in the accounts it needs (those that only read them share them), and
 * only ever deletes its own.
 */
import type { WidgetApi } from '../src/harness/api.ts';
import { createdWidget, describeDifferences, differingFields, expect2xx, expectErrorObject, expectNotListed, jsonObject, removeOrSkip, retrieveRemovingIf, sameDescription, type Json } from '../src/harness/checks.ts';
import { freshUnknownId } from '../src/harness/ids.ts';
import { requireKept, requireRetrievable, requireSameWidget } from '../src/harness/prerequisites.ts';
import { rule, type RuleContext } from '../src/harness/rule.ts';
import { SharedWidget } from '../src/harness/shared-widget.ts';
import type { ApiResponse } from '../src/harness/api.ts';
import { preview } from '../src/schema.ts';
import { idOf, walkBudget, walkPages } from '../src/harness/api.ts';

/** Creates a widget in the given account, with a description, and returns it. */
async function createIn(t: RuleContext, api: WidgetApi): Promise<Json & { id: string }> {
  const res = await api.create({ name: t.name(), description: `${api.account} account ${t.random.hex(6)}` });
  return createdWidget(t, res, `a create in the ${api.account} account`, api);
}

/** A widget of an account that no test of this file changes, created once the one `after` it (if any) is answered. */
function readOnly(n: number, account: (t: RuleContext) => WidgetApi, after?: SharedWidget<Made>): SharedWidget<Made> {
  return new SharedWidget(account, async (t) => {
    // Only the order of the creates matters here: the one before answered, whatever it answered.
    await after?.made(t).catch(() => undefined);
    const api = account(t);
    const shared = t.shared(n, 'ISO-1');
    return { res: await api.create({ name: shared.name, description: `${api.account} account ${shared.random.hex(6)}` }) };
  });
}

type Made = { readonly res: ApiResponse };

/**
 * The widgets of the run that no test of this file changes, each made once by whichever test
 * asks first and named the same whichever does (a rerun with the seed sends the same requests):
 * the tests that only list or retrieve a widget (ISO-1, ISO-2, ISO-4, ISO-5's retrieve) share
 * them, each judging its own requests; a test whose request may change a widget (another
 * account's delete) makes its own. In order: the first account's, the second account's, then the
 * first account's second, made only once the second account's first is answered, and the second
 * account's second only once that one is: whatever order the server lists them in, a walk of the
 * second account at limit 1 has the first account's second widget between its own first and
 * last (ISO-1's pages fetched with a cursor), and the first account holds two (ISO-4's second page).
 * The last of their tests to pass deletes each (SharedWidget).
 */
const FIRST = readOnly(0, (t) => t.api);
const SECOND = readOnly(1, (t) => t.second);
const FIRST_BETWEEN = readOnly(2, (t) => t.api, SECOND);
const SECOND_AFTER = readOnly(3, (t) => t.second, FIRST_BETWEEN);
const { using } = SharedWidget;

/** The items of a walk's page (reduced to the Widget fields). */
function itemsOf(page: { readonly response: { readonly json: unknown } }): Json[] {
  const data = (page.response.json as { data?: unknown } | undefined)?.data;
  return Array.isArray(data) ? data.filter((w): w is Json => w !== null && typeof w === 'object') : [];
}

/**
 * True when a listed item is one of `owner`'s widgets, recognised by its content (the same id
 * with the same name and description), not by an id alone: ids may be unique per account only,
 * so another account may hold a widget of its own under the same id.
 */
function isOneOf(item: Json, owner: ReadonlyMap<string, Record<string, unknown>>): boolean {
  const id = idOf(item);
  const theirs = id === undefined ? undefined : owner.get(id);
  return theirs !== undefined && theirs.name === item.name && sameDescription(theirs.description, item.description);
}

/**
 * Skips a check when the second account answers with a widget of its own at the first
 * account's id: ids may be unique per account only, and then the rule cannot be judged on it.
 */
async function skipIfOwnAtSameId(t: RuleContext, res: ApiResponse, mine: Json): Promise<void> {
  if (res.status >= 200 && res.status < 300 && !reveals(res, mine) && idOf(res.json) === mine.id) {
    await t.skip(`the second account holds a widget of its own at the id ${preview(mine.id)} (ids may be unique per account only), so this rule cannot be judged on it`);
  }
}

/** True when a response body shows the widget's content: its name or description (echoing the requested id reveals nothing). */
function reveals(res: ApiResponse, widget: Json): boolean {
  return [widget.name, widget.description].some((v) => typeof v === 'string' && v !== '' && res.text.includes(v));
}

rule('ISO-1', "the second account's list walk shows none of the first account's widgets", using([FIRST], async (t) => {
  const mine = await FIRST.widget(t);
  // Recognised by content: the name carries the run marker and a number no other widget has.
  await expectNotListed(t, t.second, performance.now(), (w) => w.name === mine.name,
    `no widget of the first account (id ${preview(mine.id)}) in the second account's list`);
}));

rule('ISO-1', "the first account's list walk shows none of the second account's widgets", using([SECOND], async (t) => {
  const theirs = await SECOND.widget(t);
  await expectNotListed(t, t.api, performance.now(), (w) => w.name === theirs.name,
    `no widget of the second account (id ${preview(theirs.id)}) in the first account's list`);
}));

rule('ISO-1', "no page of the second account's walk at limit 1 shows a widget of the first account", using([FIRST_BETWEEN, SECOND, SECOND_AFTER], async (t) => {
  // Small pages: catches servers that filter by account only on the first page, not on pages fetched with a cursor.
  // The first account's widget made between the second account's two (FIRST_BETWEEN).
  const [mine] = await Promise.all([FIRST_BETWEEN.widget(t), SECOND.widget(t), SECOND_AFTER.widget(t)]);
  const ownA = await t.listAfter(t.api, performance.now());
  const walk = await walkPages(t.second, { limit: 1, maxPages: walkBudget(t.settings.maxWidgets) });
  const leaked = walk.pages.flatMap((p) => itemsOf(p).filter((w) => w.name === mine.name || isOneOf(w, ownA.widgets)).map((w) => ({ id: w.id, page: p })));
  t.check(leaked.length === 0, () => ({
    expected: "no widget of the first account (the same id with the same name and description) on any page of the second account's walk at limit 1",
    received: `${leaked.length} of them, e.g. ${preview(leaked[0]?.id)} on page ${leaked[0]?.page.number}`,
    exchanges: leaked.slice(0, 2).map((l) => l.page.response.exchange),
  }));
}));

rule('ISO-2', "the second account cannot retrieve the first account's widget", using([FIRST], async (t) => {
  const mine = await FIRST.widget(t);
  const res = await t.second.retrieve(mine.id);
  await skipIfOwnAtSameId(t, res, mine);
  expectErrorObject(t, res, "a retrieve of another account's widget");
  t.check(!reveals(res, mine), () => ({
    expected: "an Error that shows nothing of the other account's widget",
    received: 'the body shows its name or description',
    exchanges: [res.exchange],
  }));
}));

rule('ISO-3', "the second account's delete of the first account's widget leaves it unchanged", async (t) => {
  const mine = await createIn(t, t.api);
  // Compared with the owner's own retrieve just before, so that only the other account's delete is judged.
  const before = await t.api.retrieve(mine.id);
  requireRetrievable(t, t.api, mine.id, before, 'the owner\'s retrieve of the widget it just created');
  expect2xx(t, before, 'the owner\'s retrieve of the widget it just created');
  const was = jsonObject(t, before, 'the owner\'s widget');
  const del = await removeOrSkip(t, t.second, mine.id);
  // The owner's retrieve after it is the proof its own delete is sent on, when the widget is as it was.
  const after = await retrieveRemovingIf(t.api, mine.id, (res) => res.status >= 200 && res.status < 300 && differingFields(was, (res.json ?? {}) as Json).length === 0);
  // A widget gone or changed is evidence of the other account's delete only while the id names one widget (CRUD-3).
  const changedOrGone = !(after.status >= 200 && after.status < 300) || differingFields(was, (after.json ?? {}) as Json).length > 0;
  if (changedOrGone) requireSameWidget(t, t.api, mine, after.json);
  // Not found after the other account's delete: that delete's doing only if the owner's store keeps widgets (CRUD-4).
  await requireKept(t, t.api, mine.id, after, `the owner's retrieve of its widget after another account tried to delete it (the delete answered ${del.status})`);
  expect2xx(t, after, `the owner's retrieve of its widget after another account tried to delete it (the delete answered ${del.status})`);
  const got = jsonObject(t, after, 'the owner\'s widget');
  const changed = differingFields(was, got);
  t.check(changed.length === 0, () => ({
    expected: "the widget as it was before the other account's delete",
    received: `it changed: ${describeDifferences(was, got, 'before', 'after', changed)} (the delete answered ${del.status})`,
    exchanges: [del.exchange, after.exchange],
  }));
});

rule('ISO-4', "a cursor of the first account, used with the second account's token, reveals none of the first account's widgets", using([FIRST, FIRST_BETWEEN], async (t) => {
  // Two widgets guarantee the first account has a second page at limit 1.
  await Promise.all([FIRST.widget(t), FIRST_BETWEEN.widget(t)]);
  const walkA = await walkPages(t.api, { limit: 1, maxPages: 1 });
  const first = walkA.pages[0];
  // The cursor as sent: the page keeps only a cut copy of it.
  const cursor = walkA.nextCursor;
  if (typeof cursor !== 'string' || cursor === '') {
    return t.skip('the first account\'s first page at limit 1 gave no next_cursor (PAGE-2 and PAGE-4 report that)');
  }
  const ownA = await t.listAfter(t.api, performance.now());
  const walkB = await walkPages(t.second, { startCursor: cursor, maxPages: walkBudget(t.settings.maxWidgets) });
  const leaked = walkB.pages.flatMap((p) => itemsOf(p).filter((w) => isOneOf(w, ownA.widgets)).map((w) => ({ id: w.id, page: p })));
  t.check(leaked.length === 0, () => ({
    expected: "no widget of the first account in any page the second account gets from the first account's cursor",
    received: `${leaked.length} of the first account's widgets, e.g. ${preview(leaked.slice(0, 5).map((l) => l.id))} on page ${leaked[0]?.page.number}`,
    note: `cursor ${preview(cursor)} from the first account's first page (limit 1)`,
    exchanges: [first!.response.exchange, leaked[0]!.page.response.exchange],
  }));
}));

const ORACLE_OPERATIONS = [
  // A retrieve changes nothing: the widget the reading tests share. A delete may (on a server that ignores accounts): a widget of its own.
  { verb: 'retrieving', send: (_t: RuleContext, api: WidgetApi, id: string) => api.retrieve(id), shared: [FIRST], widget: (t: RuleContext) => FIRST.widget(t) },
  { verb: 'deleting', send: (t: RuleContext, api: WidgetApi, id: string) => removeOrSkip(t, api, id), shared: [], widget: (t: RuleContext) => createIn(t, t.api) },
];

for (const op of ORACLE_OPERATIONS) {
  rule('ISO-5', `${op.verb} another account's widget answers exactly as ${op.verb} an id that never existed`, using(op.shared, async (t) => {
    const mine = await op.widget(t);
    const never = await freshUnknownId(t.second, mine.id, t.random);
    const [foreign, unknown] = await Promise.all([op.send(t, t.second, mine.id), op.send(t, t.second, never)]);
    await skipIfOwnAtSameId(t, foreign, mine);
    const code = (res: ApiResponse): unknown => (res.json as { code?: unknown } | undefined)?.code;
    t.check(foreign.status === unknown.status && code(foreign) === code(unknown), () => ({
      expected: `the answer for an id that never existed: ${unknown.status} with code ${preview(code(unknown))}`,
      received: `${foreign.status} with code ${preview(code(foreign))} for the other account's widget`,
      exchanges: [foreign.exchange, unknown.exchange],
    }));
  }));
}
