/**
 * List walks (§4.1): follow next_cursor from the first page to the last, recording every
 * page, and stop (never loop) when the server misbehaves: a repeated cursor, pages that make
 * no progress, or more pages than the account can justify.
 */
import type { WidgetApi } from './api.ts';
import type { ApiResponse } from './http/client.ts';

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
  readonly between?: (pageIndex: number) => Promise<void>;
}

export interface WalkPage {
  /** 1-based page number. */
  readonly number: number;
  readonly cursor?: string;
  readonly response: ApiResponse;
  /** The ids on this page, in order (items without a string id are left out). */
  readonly ids: readonly string[];
}

export type WalkEnd =
  | { readonly kind: 'complete' }
  | { readonly kind: 'not-a-page'; readonly reason: string }
  | { readonly kind: 'missing-cursor' }
  | { readonly kind: 'repeated-cursor'; readonly cursor: string; readonly firstPage: number }
  | { readonly kind: 'no-progress'; readonly stalls: number }
  | { readonly kind: 'page-budget' };

export interface WalkResult {
  readonly limit?: number;
  readonly pages: readonly WalkPage[];
  /** Every widget seen, by id (the first occurrence). */
  readonly widgets: ReadonlyMap<string, Record<string, unknown>>;
  /** Ids seen on more than one page (or twice on one), with the page numbers. */
  readonly duplicates: ReadonlyMap<string, readonly number[]>;
  readonly end: WalkEnd;
  /** The last page fetched. */
  readonly last: WalkPage;
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

/** Walks the account's list from the first page; transport faults propagate as SuiteErrors. */
export async function walkPages(api: WidgetApi, options: WalkOptions): Promise<WalkResult> {
  const maxStalls = options.maxStalls ?? 3;
  const pages: WalkPage[] = [];
  const widgets = new Map<string, Record<string, unknown>>();
  const occurrences = new Map<string, number[]>();
  const cursorsSeen = new Map<string, number>();
  let cursor: string | undefined = options.startCursor;
  let stalls = 0;

  const finish = (end: WalkEnd): WalkResult => {
    const duplicates = new Map([...occurrences].filter(([, on]) => on.length > 1));
    return { limit: options.limit, pages, widgets, duplicates, end, last: pages[pages.length - 1] as WalkPage };
  };

  for (let number = 1; ; number += 1) {
    const response = await api.list({ limit: options.limit, cursor });
    const problem = notAPage(response);
    const body = response.json as PageBody;
    const ids: string[] = [];
    let fresh = 0;
    if (!problem) {
      for (const item of body.data) {
        const id = (item as { id?: unknown } | null)?.id;
        if (typeof id !== 'string') continue;
        ids.push(id);
        const on = occurrences.get(id);
        if (on) on.push(number);
        else {
          occurrences.set(id, [number]);
          widgets.set(id, item as Record<string, unknown>);
          fresh += 1;
        }
      }
    }
    pages.push({ number, ...(cursor === undefined ? {} : { cursor }), response, ids });
    options.onPage?.(ids, number);
    if (problem) return finish({ kind: 'not-a-page', reason: problem });
    if (!body.has_more) return finish({ kind: 'complete' });

    const next = body.next_cursor;
    if (typeof next !== 'string' || next === '') return finish({ kind: 'missing-cursor' });
    const firstPage = cursorsSeen.get(next);
    if (firstPage !== undefined) return finish({ kind: 'repeated-cursor', cursor: next, firstPage });
    cursorsSeen.set(next, number);
    stalls = fresh === 0 && ids.length > 0 ? stalls + 1 : 0;
    if (stalls >= maxStalls) return finish({ kind: 'no-progress', stalls });
    if (number >= options.maxPages) return finish({ kind: 'page-budget' });
    await options.between?.(number);
    cursor = next;
  }
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
  }
}
