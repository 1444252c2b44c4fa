/**
 * List walks (§4.1): follow next_cursor from the first page to the last, recording every
 * page, and stop (never loop) when the server misbehaves: a repeated cursor, pages that make
 * no progress, or more pages than the account can justify. A walk keeps of each page only
 * what the checks read (walk-page.ts) and a bounded set of exchanges (walk-exchanges.ts), so
 * its memory follows the number of widgets, not the size of the server's answers.
 */
import { createHash } from 'node:crypto';
import { idOf, type WidgetApi } from './api.ts';
import type { ApiResponse } from '../http/client.ts';
import { collectGarbageIfLarge } from '../http/memory-valve.ts';
import { ExchangeBudget, KEPT_FIRST_PAGES } from './walk-exchanges.ts';
import { compactResponse, PageAnswer, storedCursor, type PageResponse, type ReducedAnswer } from './walk-page.ts';
import type { Exchange } from '../shared/exchange.ts';
import { preview } from '../schema.ts';

/** Pages beyond one a widget that a walk may spend on empty pages before it is cut off (empty pages are allowed). */
export const WALK_SLACK_PAGES = 50;

/**
 * The page budget of a walk over an account of at most `widgets` widgets: pages may be
 * shorter than the limit (even one widget each), so one page per widget, plus slack.
 */
export function walkBudget(widgets: number): number {
  return widgets + WALK_SLACK_PAGES;
}

export interface WalkOptions {
  /** The limit sent on every page; undefined sends none (the server's default applies). */
  readonly limit?: number;
  /** The most pages the walk may fetch before it stops with `page-budget`. */
  readonly maxPages: number;
  /**
   * The suite's own stop: after this many pages the walk ends as `stopped`, which blames the
   * server for nothing (the limit-1 walk of a large account is cut short to keep runs bounded).
   */
  readonly stopAfter?: number;
  /**
   * Consecutive non-empty pages with no widget not already seen, tolerated before
   * `no-progress`. Empty pages are not stalls: a server may send them (pages may be
   * shorter than the limit); the page budget bounds them.
   */
  readonly maxStalls?: number;
  /** Start from this cursor instead of the first page (ISO-4 walks another account's cursor). */
  readonly startCursor?: string;
  /** Called with the ids of each page as it arrives. */
  readonly onPage?: (ids: readonly string[], pageNumber: number) => void;
  /** Called after each page that has a next one, before it is fetched (PAGE-7 writes here). */
  readonly afterPage?: (pageIndex: number) => Promise<void>;
}

/** One page of a walk, as kept. */
export interface WalkPage {
  /** 1-based page number. */
  readonly number: number;
  /** The cursor sent for this page, cut at MAX_STORED_CURSOR_CHARS (the whole cursor was sent). */
  readonly cursor?: string;
  /** The answer reduced to what the checks read, with its exchange or a placeholder. */
  readonly response: PageResponse;
  /**
   * The ids on this page, in order, as the suite addresses them (api.ts idOf): a string as sent,
   * an integer sent as a JSON number as its decimal text. Items with no such id are left out.
   */
  readonly ids: readonly string[];
  /** Items on this page whose id is not a JSON string (the Widget schema's, FMT-3's, to judge): read as a number, or not at all. */
  readonly nonStringIds: number;
}

/** How a walk ended. */
export type WalkEnd =
  | { readonly kind: 'complete' }
  | { readonly kind: 'not-a-page'; readonly reason: string }
  | { readonly kind: 'missing-cursor' }
  | { readonly kind: 'repeated-cursor'; readonly cursor: string; readonly firstPage: number }
  | { readonly kind: 'no-progress'; readonly stalls: number }
  | { readonly kind: 'page-budget' }
  | { readonly kind: 'stopped'; readonly after: number };

/** A finished walk: its pages, the widgets seen, and how it ended. */
export interface WalkResult {
  readonly limit?: number;
  readonly pages: readonly WalkPage[];
  /** Every widget seen, by id (the first occurrence), reduced to the Widget fields (see walk-page.ts). */
  readonly widgets: ReadonlyMap<string, Record<string, unknown>>;
  /** Ids seen on more than one page (or twice on one), with the page numbers. */
  readonly duplicates: ReadonlyMap<string, readonly number[]>;
  readonly end: WalkEnd;
  /** The last page fetched. */
  readonly last: WalkPage;
  /** The last page's next_cursor exactly as sent, when it is a string: where a walk cut short would go on. */
  readonly nextCursor?: string;
}

interface PageBody {
  data: unknown[];
  has_more: boolean;
  next_cursor?: unknown;
}

/** Why a response is not a usable page, or undefined when it is one. */
export function notAPage(res: ApiResponse): string | undefined {
  if (res.status < 200 || res.status > 299) return `the list answered ${res.status}`;
  const body = res.json as Partial<PageBody> | undefined;
  if (body === undefined) return res.jsonError ?? 'the body is not JSON';
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'the body is not a JSON object';
  if (!Array.isArray(body.data)) return '"data" is not an array';
  if (typeof body.has_more !== 'boolean') return '"has_more" is not a boolean';
  return undefined;
}

/** Pages between two chances for the memory valve: a walk of a large account makes garbage fast. */
const COLLECT_GARBAGE_EVERY_PAGES = 1000;

/** Cursors longer than this are remembered by a digest: a walk compares every cursor with all before it. */
const CURSOR_KEY_CHARS = 64;

function cursorKey(cursor: string): string {
  return cursor.length <= CURSOR_KEY_CHARS ? cursor : `${cursor.length}:${createHash('sha256').update(cursor).digest('base64')}`;
}

/** Walks the account's list from the first page; transport faults propagate as SuiteErrors. */
export async function walkPages(api: WidgetApi, options: WalkOptions): Promise<WalkResult> {
  const maxStalls = options.maxStalls ?? 3;
  const pages: WalkPage[] = [];
  const widgets = new Map<string, Record<string, unknown>>();
  // The page of each id's first occurrence; a list of pages only for ids seen more than once.
  const occurrences = new Map<string, number | number[]>();
  const cursorsSeen = new Map<string, number>();
  const budget = new ExchangeBudget();
  const answers: PageAnswer[] = [];
  const { http } = api;
  // As WidgetApi.list builds it, redacted: what a placeholder shows of a page whose exchange went.
  const requestUrl = (sent: string | undefined): string =>
    http.redactor.text(http.url('/widgets', { ...(options.limit === undefined ? {} : { limit: String(options.limit) }), ...(sent === undefined ? {} : { cursor: sent }) }));
  let cursor: string | undefined = options.startCursor;
  let stalls = 0;

  const finish = (end: WalkEnd, next: unknown): WalkResult => {
    const duplicates = new Map([...occurrences].filter((entry): entry is [string, number[]] => Array.isArray(entry[1])));
    const last = pages[pages.length - 1] as WalkPage;
    return { limit: options.limit, pages, widgets, duplicates, end, last, ...(typeof next === 'string' ? { nextCursor: next } : {}) };
  };

  for (let number = 1; ; number += 1) {
    const { reduced, exchange, problem, hasMore, next } = await fetchPage(api, options.limit, cursor);
    const items = problem ? [] : (reduced.json as { data: unknown[] }).data;
    const ids: string[] = [];
    let fresh = 0;
    let seenAgain = false;
    let nonStringIds = 0;
    for (const item of items) {
      // A list that writes an id as a number (7 for "7") still names that widget: its JSON type is FMT-3's to judge.
      if (typeof (item as { id?: unknown } | null)?.id !== 'string') nonStringIds += 1;
      const id = idOf(item);
      if (id === undefined) continue;
      ids.push(id);
      const on = occurrences.get(id);
      if (on !== undefined) {
        if (Array.isArray(on)) on.push(number);
        else occurrences.set(id, [on, number]);
        seenAgain = true;
      } else {
        occurrences.set(id, number);
        widgets.set(id, item as Record<string, unknown>);
        fresh += 1;
      }
    }
    const oversized = options.limit !== undefined && items.length > options.limit;
    const hasProblem = problem !== undefined || seenAgain || oversized || reduced.schemaIssueCount > 0;
    const stored = cursor === undefined ? undefined : storedCursor(cursor);
    const kept = budget.keep(number, exchange, hasProblem);
    // A page that may later drop its exchange keeps its request, for an exact replay (walk-exchanges.ts).
    const answer = new PageAnswer(reduced, exchange, kept, requestUrl, stored, kept === undefined || number > KEPT_FIRST_PAGES ? budget.request(exchange) : undefined);
    answers.push(answer);
    // slice(): an array grown by push keeps room for more; a walk may hold tens of thousands of these.
    pages.push({ number, ...(stored === undefined ? {} : { cursor: stored }), response: answer, ids: ids.slice(), nonStringIds });
    const leaving = budget.expire(number);
    if (leaving !== undefined) answers[leaving - 1]?.drop();
    options.onPage?.(ids, number);
    if (number % COLLECT_GARBAGE_EVERY_PAGES === 0) collectGarbageIfLarge();
    if (problem) return finish({ kind: 'not-a-page', reason: problem }, next);
    if (!hasMore) return finish({ kind: 'complete' }, next);

    if (typeof next !== 'string' || next === '') return finish({ kind: 'missing-cursor' }, next);
    const firstPage = cursorsSeen.get(cursorKey(next));
    if (firstPage !== undefined) return finish({ kind: 'repeated-cursor', cursor: storedCursor(next), firstPage }, next);
    cursorsSeen.set(cursorKey(next), number);
    stalls = fresh === 0 && ids.length > 0 ? stalls + 1 : 0;
    if (stalls >= maxStalls) return finish({ kind: 'no-progress', stalls }, next);
    if (options.stopAfter !== undefined && number >= options.stopAfter && number < options.maxPages) return finish({ kind: 'stopped', after: number }, next);
    if (number >= options.maxPages) return finish({ kind: 'page-budget' }, next);
    await options.afterPage?.(number);
    cursor = next;
  }
}

/** A page as it arrived, already reduced. */
interface Arrival {
  readonly reduced: ReducedAnswer;
  /** The recorded exchange (already redacted and cut). */
  readonly exchange: Exchange;
  /** Why the answer is not a page, when it is not. */
  readonly problem?: string;
  readonly hasMore: boolean;
  /** The body's next_cursor exactly as sent (whatever its type), when the body is an object. */
  readonly next: unknown;
}

/**
 * Fetches one page and reduces it. The whole answer (up to the body cap) lives only in this
 * function's frame, so nothing of it outlives the reduction, not even while the walk waits.
 */
async function fetchPage(api: WidgetApi, limit: number | undefined, cursor: string | undefined): Promise<Arrival> {
  // An over-cap page keeps its prefix: PAGE-1 judges it (more complete items than the limit), never a transport error.
  const response = await api.list({ limit, cursor, keepPrefix: true });
  const problem = notAPage(response);
  const json = response.json;
  return {
    reduced: compactResponse(response),
    exchange: response.exchange,
    ...(problem === undefined ? {} : { problem }),
    hasMore: problem === undefined && (json as PageBody).has_more,
    next: json !== null && typeof json === 'object' ? (json as { next_cursor?: unknown }).next_cursor : undefined,
  };
}

/** A one-line account of how a walk ended, for messages. */
export function describeEnd(walk: WalkResult): string {
  const end = walk.end;
  const at = `page ${walk.last.number}${walk.limit === undefined ? ' (no limit sent)' : ` (limit ${walk.limit})`}`;
  switch (end.kind) {
    case 'complete': return `ended normally with has_more false on ${at}`;
    case 'not-a-page': return `stopped on ${at}: ${end.reason}`;
    case 'missing-cursor': return `stopped on ${at}: has_more is true but next_cursor is not a non-empty string`;
    case 'repeated-cursor': return `stopped on ${at}: next_cursor repeats the cursor first returned on page ${end.firstPage}`;
    case 'no-progress': return `stopped on ${at}: ${end.stalls} pages in a row showed only widgets already seen`;
    case 'page-budget': return `stopped on ${at}: reached the budget of pages for this account without has_more false`;
    case 'stopped': return `was cut short by the suite after ${end.after} pages (${at}), a bound on the cost of the walk; the server is not blamed`;
  }
}

/** The page size a full walk (a sweep, a shared snapshot) asks for; a server that rejects it is walked with its default instead. */
export const SWEEP_PAGE_LIMIT = 100;

/** Walks with a large page size, falling back to the server's default if that size is refused. */
export async function walkAll(api: WidgetApi, maxPages: number): Promise<WalkResult> {
  const walk = await walkPages(api, { limit: SWEEP_PAGE_LIMIT, maxPages });
  const first = walk.pages[0];
  if (walk.end.kind === 'not-a-page' && walk.pages.length === 1 && first && first.response.status >= 400 && first.response.status < 500) {
    return walkPages(api, { maxPages });
  }
  return walk;
}

/** The pages whose items include an id that is not a JSON string. */
export function pagesWithNonStringIds(walk: WalkResult): WalkPage[] {
  return walk.pages.filter((p) => p.nonStringIds > 0);
}

/**
 * The ids of each page as the server sent them, for messages: `1:[wgt_1, wgt_2] 2:[7 (number)]`;
 * an item with no id shows as `(no id)`. Cut at `maxChars`.
 */
export function describePages(walk: WalkResult, maxChars: number): string {
  const shown = (item: unknown): string => {
    const id = item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as { id?: unknown }).id : undefined;
    if (typeof id === 'string') return id;
    if (id === undefined) return '(no id)';
    return `${preview(id)} (${id === null ? 'null' : Array.isArray(id) ? 'array' : typeof id})`;
  };
  const text = walk.pages.map((p) => {
    const data = (p.response.json as { data?: unknown } | undefined)?.data;
    return `${p.number}:[${Array.isArray(data) ? data.map(shown).join(', ') : p.ids.join(', ')}]`;
  }).join(' ');
  return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
}
