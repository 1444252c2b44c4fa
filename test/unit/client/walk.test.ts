/**
 * List walks against a scripted server on loopback: every way a walk ends, duplicates, the
 * between hook, and what a walk keeps of each page (reduced bodies, a bounded set of exchanges).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { openAccounts } from '../../../src/client/accounts.ts';
import type { WidgetApi } from '../../../src/client/api.ts';
import { Ownership } from '../../../src/client/ownership.ts';
import { HttpClient } from '../../../src/http/client.ts';
import { startServer, type RunningServer } from '../../../src/reference/server.ts';
import { describeEnd, describePages, pagesWithNonStringIds, walkPages, type WalkResult } from '../../../src/client/walk.ts';
import { EVIDENCE_PREFIX_BYTES, ExchangeBudget, KEPT_FIRST_PAGES, KEPT_LAST_PAGES, MAX_CITED_PAGES, MAX_KEPT_EXCHANGE_BYTES, MAX_KEPT_REQUEST_BYTES, NOT_KEPT_NOTE, placeholder } from '../../../src/client/walk-exchanges.ts';
import type { Exchange } from '../../../src/shared/exchange.ts';
import { curlCommand } from '../../../src/report/curl.ts';
import { MAX_KEPT_ISSUES, MAX_STORED_CURSOR_CHARS } from '../../../src/client/walk-page.ts';

const TOKEN = 'walk-token-1';

/** What the scripted server answers to the n-th list request (0-based), given the cursor sent. */
type Script = (n: number, cursor: string | undefined) => { status?: number; body: unknown };

interface Scripted {
  readonly api: WidgetApi;
  /** The query of every request received, in order. */
  readonly requests: URLSearchParams[];
}

const running: RunningServer[] = [];
const clients: HttpClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function scripted(script: Script): Promise<Scripted> {
  const requests: URLSearchParams[] = [];
  const server = await startServer({
    handle(req: IncomingMessage, res: ServerResponse) {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname !== '/v1/widgets' || req.headers.authorization !== `Bearer ${TOKEN}`) {
        res.writeHead(404).end();
        return;
      }
      const n = requests.length;
      requests.push(url.searchParams);
      const { status = 200, body } = script(n, url.searchParams.get('cursor') ?? undefined);
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json' }).end(text);
    },
  });
  running.push(server);
  const http = new HttpClient({ baseUrl: server.baseUrl, timeoutMs: 5_000, concurrency: 2, maxRetries: 0, maxRetryWaitMs: 0, secrets: [TOKEN] });
  clients.push(http);
  return { api: openAccounts(http, new Ownership(() => false), [{ name: 'primary', token: TOKEN }])[0]!, requests };
}

const widget = (id: string, name = `widget ${id}`): Record<string, unknown> => ({ id, name, created_at: '2026-01-02T03:04:05Z' });

/** A script that serves fixed pages, page i answering whatever cursor it gets. */
const pagesOf =
  (...pages: unknown[]): Script =>
  (n) => ({ body: pages[n] ?? { data: [], has_more: false } });

describe('walkPages', () => {
  it('a normal walk ends complete with every widget once, following each cursor in turn', async () => {
    const { api, requests } = await scripted(
      pagesOf(
        { data: [widget('w1'), widget('w2')], has_more: true, next_cursor: 'c1' },
        { data: [widget('w3'), widget('w4')], has_more: true, next_cursor: 'c2' },
        { data: [widget('w5')], has_more: false, next_cursor: null },
      ),
    );
    const walk = await walkPages(api, { limit: 2, maxPages: 10 });
    expect(walk.end).toEqual({ kind: 'complete' });
    expect([...walk.widgets.keys()]).toEqual(['w1', 'w2', 'w3', 'w4', 'w5']);
    expect(walk.widgets.get('w3')).toEqual(widget('w3'));
    expect(walk.duplicates.size).toBe(0);
    expect(walk.pages.map((p) => [p.number, p.cursor, p.ids])).toEqual([
      [1, undefined, ['w1', 'w2']],
      [2, 'c1', ['w3', 'w4']],
      [3, 'c2', ['w5']],
    ]);
    expect(walk.last.number).toBe(3);
    expect(walk.limit).toBe(2);
    expect(requests.map((q) => q.toString())).toEqual(['limit=2', 'limit=2&cursor=c1', 'limit=2&cursor=c2']);
    expect(describeEnd(walk)).toBe('ended normally with has_more false on page 3 (limit 2)');
  });

  it('a walk without a limit sends none and says so', async () => {
    const { api, requests } = await scripted(pagesOf({ data: [widget('only')], has_more: false }));
    const walk = await walkPages(api, { maxPages: 10 });
    expect(walk.end.kind).toBe('complete');
    expect(requests.map((q) => q.toString())).toEqual(['']);
    expect(describeEnd(walk)).toBe('ended normally with has_more false on page 1 (no limit sent)');
  });

  it('a server whose next_cursor repeats ends the walk with repeated-cursor after two requests', async () => {
    const { api, requests } = await scripted((n) => ({ body: { data: [widget(`w${n}`)], has_more: true, next_cursor: 'same' } }));
    const walk = await walkPages(api, { limit: 1, maxPages: 1000 });
    expect(walk.end).toEqual({ kind: 'repeated-cursor', cursor: 'same', firstPage: 1 });
    expect(requests).toHaveLength(2);
    expect(describeEnd(walk)).toBe('stopped on page 2 (limit 1): next_cursor repeats the cursor first returned on page 1');
  });

  it('a cursor cycle A → B → A ends with repeated-cursor naming the page that first returned it', async () => {
    const cycle = ['A', 'B'];
    const { api, requests } = await scripted((n) => ({ body: { data: [widget(`w${n}`)], has_more: true, next_cursor: cycle[n % 2] } }));
    const walk = await walkPages(api, { maxPages: 1000 });
    expect(walk.end).toEqual({ kind: 'repeated-cursor', cursor: 'A', firstPage: 1 });
    expect(requests).toHaveLength(3);
  });

  it('fresh cursors that bring only widgets already seen end with no-progress after maxStalls pages', async () => {
    const { api, requests } = await scripted((n) => ({
      body: { data: n === 0 ? [widget('w1'), widget('w2')] : [widget('w1')], has_more: true, next_cursor: `c${n}` },
    }));
    const walk = await walkPages(api, { maxPages: 1000, maxStalls: 3 });
    expect(walk.end).toEqual({ kind: 'no-progress', stalls: 3 });
    expect(requests).toHaveLength(4);
    expect(walk.duplicates.get('w1')).toEqual([1, 2, 3, 4]);
    expect(describeEnd(walk)).toBe('stopped on page 4 (no limit sent): 3 pages in a row showed only widgets already seen');
  });

  it('empty pages with fresh cursors are not stalls: a run of them ends at the page budget', async () => {
    // Pages may be shorter than the limit, even empty, so only the budget bounds them.
    const { api, requests } = await scripted((n) => ({ body: { data: [], has_more: true, next_cursor: `c${n}` } }));
    const walk = await walkPages(api, { maxPages: 20 });
    expect(walk.end).toEqual({ kind: 'page-budget' });
    expect(requests).toHaveLength(20);
  });

  it('a run of empty pages followed by the rest of the list completes', async () => {
    const { api } = await scripted((n) => ({ body: { data: n < 6 ? [] : [widget(`w${n}`)], has_more: n < 7, next_cursor: `c${n}` } }));
    const walk = await walkPages(api, { maxPages: 100 });
    expect(walk.end).toEqual({ kind: 'complete' });
    expect([...walk.widgets.keys()]).toEqual(['w6', 'w7']);
  });

  it('a short stall followed by new widgets resets the stall count', async () => {
    // Pages: new, stall, stall, new, stall, stall, new, last.
    const fresh = new Set([0, 3, 6]);
    const { api } = await scripted((n) => ({
      body: { data: fresh.has(n) ? [widget(`w${n}`)] : [widget('w0')], has_more: n < 7, next_cursor: `c${n}` },
    }));
    const walk = await walkPages(api, { maxPages: 1000, maxStalls: 3 });
    expect(walk.end).toEqual({ kind: 'complete' });
    expect(walk.pages).toHaveLength(8);
  });

  it('endless pages of fresh widgets end with page-budget after exactly maxPages requests', async () => {
    const { api, requests } = await scripted((n) => ({ body: { data: [widget(`w${n}`)], has_more: true, next_cursor: `c${n}` } }));
    const walk = await walkPages(api, { limit: 1, maxPages: 5 });
    expect(walk.end).toEqual({ kind: 'page-budget' });
    expect(requests).toHaveLength(5);
    expect(walk.widgets.size).toBe(5);
    expect(describeEnd(walk)).toBe('stopped on page 5 (limit 1): reached the budget of pages for this account without has_more false');
  });

  it.each([
    ['absent', {}],
    ['null', { next_cursor: null }],
    ['empty', { next_cursor: '' }],
    ['a number', { next_cursor: 2 }],
  ])('has_more true with next_cursor %s ends with missing-cursor', async (_what, extra) => {
    const { api, requests } = await scripted(pagesOf({ data: [widget('w1')], has_more: true, ...extra }));
    const walk = await walkPages(api, { maxPages: 10 });
    expect(walk.end).toEqual({ kind: 'missing-cursor' });
    expect(requests).toHaveLength(1);
    expect(describeEnd(walk)).toBe('stopped on page 1 (no limit sent): has_more is true but next_cursor is not a non-empty string');
  });

  it('a 500 answer on page 2 ends the walk with not-a-page, keeping the widgets of page 1', async () => {
    const { api } = await scripted((n) =>
      n === 0
        ? { body: { data: [widget('w1')], has_more: true, next_cursor: 'c1' } }
        : { status: 500, body: { code: 'internal_error', message: 'boom' } },
    );
    const walk = await walkPages(api, { limit: 1, maxPages: 10 });
    expect(walk.end).toEqual({ kind: 'not-a-page', reason: 'the list answered 500' });
    expect(walk.pages).toHaveLength(2);
    expect(walk.last.response.status).toBe(500);
    expect(walk.last.ids).toEqual([]);
    expect([...walk.widgets.keys()]).toEqual(['w1']);
    expect(describeEnd(walk)).toBe('stopped on page 2 (limit 1): the list answered 500');
  });

  it.each([
    ['an empty body', '', 'the body is empty'],
    ['a body that is not JSON', '<html>', /^the body is not valid JSON/],
    ['a JSON array', [], 'the body is not a JSON object'],
    ['JSON null', 'null', 'the body is not a JSON object'],
    ['data that is not an array', { data: {}, has_more: false }, '"data" is not an array'],
    ['has_more that is not a boolean', { data: [], has_more: 'false' }, '"has_more" is not a boolean'],
  ])('a 200 answer with %s ends with not-a-page and the reason', async (_what, body, reason) => {
    const { api } = await scripted(() => ({ body }));
    const walk = await walkPages(api, { maxPages: 10 });
    expect(walk.end.kind).toBe('not-a-page');
    expect(walk.end.kind === 'not-a-page' ? walk.end.reason : '').toMatch(reason);
  });

  it('reports widgets seen more than once with the numbers of the pages they were on, keeping the first copy', async () => {
    const { api } = await scripted(
      pagesOf(
        { data: [widget('a', 'first a'), widget('b')], has_more: true, next_cursor: 'c1' },
        { data: [widget('b'), widget('c')], has_more: true, next_cursor: 'c2' },
        { data: [widget('c'), widget('a', 'second a'), widget('a', 'third a'), widget('d')], has_more: false },
      ),
    );
    const walk = await walkPages(api, { maxPages: 10 });
    expect(walk.end.kind).toBe('complete');
    expect(Object.fromEntries(walk.duplicates)).toEqual({ a: [1, 3, 3], b: [1, 2], c: [2, 3] });
    expect([...walk.widgets.keys()]).toEqual(['a', 'b', 'c', 'd']);
    expect(walk.widgets.get('a')?.name).toBe('first a');
    expect(walk.pages[2]?.ids).toEqual(['c', 'a', 'a', 'd']);
  });

  it('reads an integer id sent as a JSON number as its decimal text, leaves items with no such id out of the ids, and counts every id that is not a string', async () => {
    const { api } = await scripted(pagesOf({ data: [widget('w1'), { id: 7, name: 'n' }, { id: 7.5 }, { id: 2 ** 60 }, { id: { $oid: '8' } }, null, 'x', { name: 'no id' }], has_more: false }));
    const walk = await walkPages(api, { maxPages: 10 });
    expect(walk.end.kind).toBe('complete');
    expect(walk.pages[0]?.ids).toEqual(['w1', '7']);
    expect([...walk.widgets.keys()]).toEqual(['w1', '7']);
    // The widget as listed keeps the id's JSON type: the schema (FMT-3) judges it.
    expect(walk.widgets.get('7')?.id).toBe(7);
    expect(walk.pages[0]?.nonStringIds).toBe(7);
    expect(pagesWithNonStringIds(walk).map((p) => p.number)).toEqual([1]);
  });

  it('describes each page by the ids as the server sent them, their type named when it is not a string', async () => {
    const { api } = await scripted(pagesOf(
      { data: [widget('w1'), widget('w2')], has_more: true, next_cursor: 'c1' },
      { data: [{ id: 3 }, { id: { $oid: '4' } }, null, { name: 'no id' }], has_more: false },
    ));
    const walk = await walkPages(api, { limit: 2, maxPages: 10 });
    expect(describePages(walk, 500)).toBe('1:[w1, w2] 2:[3 (number), {} (object), (no id), (no id)]');
    expect(describePages(walk, 10)).toBe('1:[w1, w2]…');
    expect(pagesWithNonStringIds(walk).map((p) => p.number)).toEqual([2]);
  });

  it('calls between after each page that has a next one, before the next is fetched', async () => {
    const { api, requests } = await scripted(
      pagesOf(
        { data: [widget('w1')], has_more: true, next_cursor: 'c1' },
        { data: [widget('w2')], has_more: true, next_cursor: 'c2' },
        { data: [widget('w3')], has_more: false },
      ),
    );
    const calls: Array<[number, number]> = [];
    const walk: WalkResult = await walkPages(api, {
      maxPages: 10,
      afterPage: async (pageIndex) => {
        calls.push([pageIndex, requests.length]);
      },
    });
    expect(walk.end.kind).toBe('complete');
    // [page just fetched, requests the server had seen when between ran]
    expect(calls).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });

  it('does not call between when the walk stops at the page budget', async () => {
    const { api } = await scripted((n) => ({ body: { data: [widget(`w${n}`)], has_more: true, next_cursor: `c${n}` } }));
    const calls: number[] = [];
    const walk = await walkPages(api, { maxPages: 2, afterPage: async (i) => void calls.push(i) });
    expect(walk.end.kind).toBe('page-budget');
    expect(calls).toEqual([1]);
  });
});

/** Whether a page of the walk kept its recorded exchange (or carries the placeholder). */
const keptExchange = (walk: WalkResult, number: number): boolean => walk.pages[number - 1]?.response.exchange.response?.body !== NOT_KEPT_NOTE;

describe('what a walk keeps', () => {
  it('keeps of each item only the Widget fields, other values as empty shells of their type', async () => {
    const item = { id: 'w1', name: [['deep']], description: { a: 1 }, created_at: 5, padding: 'x'.repeat(100_000), kind: 'widget' };
    const { api } = await scripted(pagesOf({ data: [item, 'stray', null, [1, 2]], has_more: false, padding: 'y'.repeat(100_000) }));
    const walk = await walkPages(api, { maxPages: 10 });
    expect(walk.widgets.get('w1')).toEqual({ id: 'w1', name: [], description: {}, created_at: 5 });
    expect(walk.pages[0]?.response.json).toEqual({ data: [{ id: 'w1', name: [], description: {}, created_at: 5 }, 'stray', null, []], has_more: false });
    expect(JSON.stringify(walk.pages).length).toBeLessThan(10_000);
  });

  it("checks the page schema on the whole body as it arrives, so issues name the values as received", async () => {
    const { api } = await scripted(pagesOf({ data: [widget('w1', 7 as unknown as string), { ...widget('w2'), name: [[['x']]] }], has_more: false }));
    const walk = await walkPages(api, { maxPages: 10 });
    const res = walk.pages[0]!.response;
    expect(res.schemaIssueCount).toBe(2);
    expect(res.schemaIssues.map((i) => `${i.path} ${i.received}`)).toEqual(['/data/0/name 7', '/data/1/name [[["x"]]]']);
  });

  it(`keeps at most ${MAX_KEPT_ISSUES} schema issues of a page and counts them all`, async () => {
    const { api } = await scripted(pagesOf({ data: Array.from({ length: MAX_KEPT_ISSUES * 2 }, () => 1), has_more: false }));
    const walk = await walkPages(api, { maxPages: 10 });
    expect(walk.pages[0]!.response.schemaIssues).toHaveLength(MAX_KEPT_ISSUES);
    expect(walk.pages[0]!.response.schemaIssueCount).toBe(MAX_KEPT_ISSUES * 2);
  });

  it('keeps the exchanges of the first and last pages and of pages with a problem; the others carry a placeholder', async () => {
    const PAGES = 20;
    const REPEAT_ON = 10;
    const { api } = await scripted((n) => ({
      body: { data: n + 1 === REPEAT_ON ? [widget('w1'), widget(`w${n + 1}`)] : [widget(`w${n + 1}`)], has_more: n + 1 < PAGES, next_cursor: `c${n + 1}` },
    }));
    const walk = await walkPages(api, { limit: 2, maxPages: 100 });
    expect(walk.end.kind).toBe('complete');
    const kept = walk.pages.filter((p) => keptExchange(walk, p.number)).map((p) => p.number);
    const first = Array.from({ length: KEPT_FIRST_PAGES }, (_, i) => i + 1);
    const last = Array.from({ length: KEPT_LAST_PAGES }, (_, i) => PAGES - KEPT_LAST_PAGES + 1 + i);
    expect(kept).toEqual([...first, REPEAT_ON, ...last]);
    // The page that shows w1 again is the one PAGE-3 cites.
    expect(walk.duplicates.get('w1')).toEqual([1, REPEAT_ON]);
    const dropped = walk.pages[4]!.response.exchange;
    expect(dropped.request.url).toContain('cursor=c4');
    expect(dropped.response?.status).toBe(200);
    expect(dropped.response?.body).toBe(NOT_KEPT_NOTE);
  });

  it(`keeps at most ${MAX_CITED_PAGES} pages with a problem besides the first and last`, async () => {
    const PAGES = 40;
    // Every page shows w0 again: each is a page with a problem, and the walk keeps making progress.
    const { api } = await scripted((n) => ({ body: { data: [widget('w0'), widget(`w${n + 1}`)], has_more: n + 1 < PAGES, next_cursor: `c${n + 1}` } }));
    const walk = await walkPages(api, { maxPages: 100 });
    const kept = walk.pages.filter((p) => keptExchange(walk, p.number)).length;
    expect(kept).toBe(KEPT_FIRST_PAGES + MAX_CITED_PAGES + KEPT_LAST_PAGES);
  });

  it('sends a long cursor whole, keeps a cut copy, and gives the last one whole as nextCursor', async () => {
    const long = (n: number): string => `${n}-${'c'.repeat(MAX_STORED_CURSOR_CHARS * 2)}`;
    const { api, requests } = await scripted((n) => ({ body: { data: [widget(`w${n}`)], has_more: true, next_cursor: long(n) } }));
    const walk = await walkPages(api, { maxPages: 2 });
    expect(requests[1]?.get('cursor')).toBe(long(0));
    expect(walk.pages[1]?.cursor).toBe(`${long(0).slice(0, MAX_STORED_CURSOR_CHARS)}…`);
    expect((walk.pages[1]?.response.json as { next_cursor: string }).next_cursor).toHaveLength(MAX_STORED_CURSOR_CHARS + 1);
    expect(walk.nextCursor).toBe(long(1));
  });

  it('recognises a long cursor that repeats', async () => {
    const same = 's'.repeat(MAX_STORED_CURSOR_CHARS * 2);
    const { api, requests } = await scripted((n) => ({ body: { data: [widget(`w${n}`)], has_more: true, next_cursor: same } }));
    const walk = await walkPages(api, { maxPages: 100 });
    expect(walk.end).toEqual({ kind: 'repeated-cursor', cursor: `${same.slice(0, MAX_STORED_CURSOR_CHARS)}…`, firstPage: 1 });
    expect(requests).toHaveLength(2);
  });
});


describe('replays of pages a walk did not keep', () => {
  it('a dropped page keeps its request exactly (URL whole, headers, credential): its replay is exact', async () => {
    const PAGES = 12;
    const long = (n: number): string => `${n}-${'p'.repeat(MAX_STORED_CURSOR_CHARS * 2)}`;
    const { api } = await scripted((n) => ({ body: { data: [widget(`w${n + 1}`)], has_more: n + 1 < PAGES, next_cursor: long(n + 1) } }));
    const walk = await walkPages(api, { maxPages: 100 });
    const dropped = walk.pages[5]!.response.exchange;
    expect(dropped.response?.body).toBe(NOT_KEPT_NOTE);
    expect(dropped.request.partial).toBeUndefined();
    expect(decodeURIComponent(dropped.request.url)).toContain(`cursor=${long(5)}`);
    expect(Object.keys(dropped.request.headers).length).toBeGreaterThan(0);
    expect(curlCommand(dropped)).not.toContain('partial replay');
  });

  it('a placeholder without its request says the replay is partial and why', () => {
    const url = `http://h/v1/widgets?cursor=${'x'.repeat(400)}`;
    const shown = placeholder({ method: 'GET', url }, 200, 1);
    expect(shown.request.partial).toBe(`the walk kept no more requests (at most ${MAX_KEPT_REQUEST_BYTES / 1024} KiB of them): its headers and credential are not shown, and its URL is cut at 300 of ${url.length} characters`);
    expect(curlCommand(shown).split('\n')[0]).toBe(`# partial replay, not the request as sent: ${shown.request.partial}`);
  });

  it('a page with a problem past the budget keeps a bounded prefix of its evidence and says how much was cut', () => {
    const budget = new ExchangeBudget();
    const big = (n: number): Exchange => ({ request: { method: 'GET', url: `u${n}`, headers: {} }, response: { status: 200, headers: {}, body: 'b'.repeat(MAX_KEPT_EXCHANGE_BYTES / 2) }, durationMs: 1 });
    expect(budget.keep(1, big(1), false)).toBeDefined();
    expect(budget.keep(2, big(2), false)).toBeUndefined();
    const evidence = budget.keep(4, big(4), true);
    expect(evidence?.response?.body).toMatch(new RegExp(`^b{${EVIDENCE_PREFIX_BYTES}}\\n… \\[recorded body cut at ${EVIDENCE_PREFIX_BYTES} of ${MAX_KEPT_EXCHANGE_BYTES / 2} bytes`));
  });
});
