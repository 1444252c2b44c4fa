/**
 * Whole-account walks (PAGE-3). Exactly-once is judged over every widget of the account, the
 * ones it held before the run included: walks at several limits, made while the suite writes
 * nothing (the caller runs this in one quiet window), must return the same set, and a widget
 * seen in one walk and missing from another is a gap. Walks below the largest limit cover a
 * bounded window of pages (SMALL_LIMIT_MAX_PAGES): a large account costs what it proves.
 *
 * Other clients of a shared account may write meanwhile; a difference is not blamed on the
 * server until it reproduces: the walk that missed widgets is made once more, and a widget it
 * misses again is a gap only if a retrieve then still shows it (so it existed throughout, as
 * far as anyone can tell from outside). A widget another client created or deleted during
 * the first walks turns up, or fails the retrieve, and is not counted.
 */
import { idOf, type WidgetApi } from './api.ts';
import { walkAll, walkPages, type WalkResult } from './walk.ts';

/** Widgets missing from a walk that are confirmed with a retrieve: a few prove a gap; the count says how many more. */
export const MAX_CONFIRMED_GAPS = 10;
/** Retrieves spent confirming one walk's gaps at most (other clients may have deleted many of the missing widgets). */
export const MAX_GAP_RETRIEVES = 2 * MAX_CONFIRMED_GAPS;

/**
 * Pages of a walk at any limit but the largest, at most. A walk at limit n takes one request per
 * n widgets, so walks at 1, 2 and 3 across a large account cost several requests per widget and
 * prove nothing the first pages do not: the paging logic (page size, has_more, next_cursor,
 * exactly-once across page boundaries) is the same on page 500 as on page 5. On a larger account
 * they stop here (ending `stopped`, which blames nothing) and exactly-once over the whole account
 * is judged by the walk at the largest limit and the one at the largest page size, which still
 * cover all of it. An account of up to this many pages at a limit is walked whole at it, as the
 * self-tests' faulty servers (timestamp ties, offset pages) are.
 */
export const SMALL_LIMIT_MAX_PAGES = 500;

/** A widget missing from the walks at one limit, seen in another walk and still retrievable. */
export interface Gap {
  readonly id: string;
  /** The limits (or `reference`) of the walks that showed it. */
  readonly seenIn: readonly string[];
}

/** How the walk at one limit compares with the others. */
export interface WalkComparison {
  readonly limit: number;
  /** Ids seen in another complete walk but not in this one, on the first walk. */
  readonly differences: number;
  /** The second walk at this limit, made when there was a difference. */
  readonly rewalk?: WalkResult;
  /** Of the differences, those the second walk also missed and a retrieve still shows (at most MAX_CONFIRMED_GAPS). */
  readonly gaps: readonly Gap[];
  /** Differences the second walk also missed, whether or not checked: gaps.length of them were confirmed. */
  readonly stillMissing: number;
}

export interface AccountWalks {
  readonly byLimit: ReadonlyMap<number, WalkResult>;
  /** A walk at the largest page size (walkAll): one more view of the set, not judged itself. */
  readonly reference: WalkResult;
  readonly comparisons: ReadonlyMap<number, WalkComparison>;
}

export interface AccountWalkOptions {
  readonly limits: readonly number[];
  readonly maxPages: number;
}

/** The walk options at one limit: a walk at a limit below `largest` is cut short on a large account. */
export function walkOptions(limit: number, maxPages: number, largest: number): { limit: number; maxPages: number; stopAfter?: number } {
  return limit < largest ? { limit, maxPages, stopAfter: SMALL_LIMIT_MAX_PAGES } : { limit, maxPages };
}

/** Walks the account at every limit, then compares them; run it while the suite writes nothing. */
export async function walkAccount(api: WidgetApi, options: AccountWalkOptions): Promise<AccountWalks> {
  const largest = Math.max(...options.limits);
  const walks = await Promise.all(options.limits.map((limit) => walkPages(api, walkOptions(limit, options.maxPages, largest))));
  const byLimit = new Map(options.limits.map((limit, i) => [limit, walks[i] as WalkResult]));
  const reference = await walkAll(api, options.maxPages);
  const complete = [...byLimit.entries()].map(([limit, walk]) => ({ label: `limit ${limit}`, walk })).filter(({ walk }) => walk.end.kind === 'complete');
  if (reference.end.kind === 'complete') complete.push({ label: 'reference', walk: reference });
  const comparisons = new Map<number, WalkComparison>();
  // One limit after the other: the second walks and retrieves are few, and only on a difference.
  for (const [limit, walk] of byLimit) {
    if (walk.end.kind !== 'complete') continue;
    comparisons.set(limit, await compare(api, limit, walk, complete.filter((c) => c.walk !== walk), walkOptions(limit, options.maxPages, largest)));
  }
  return { byLimit, reference, comparisons };
}

async function compare(api: WidgetApi, limit: number, walk: WalkResult, others: ReadonlyArray<{ label: string; walk: WalkResult }>, again: ReturnType<typeof walkOptions>): Promise<WalkComparison> {
  const seenIn = new Map<string, string[]>();
  for (const other of others) {
    for (const id of other.walk.widgets.keys()) {
      if (walk.widgets.has(id)) continue;
      const labels = seenIn.get(id);
      if (labels) labels.push(other.label);
      else seenIn.set(id, [other.label]);
    }
  }
  if (seenIn.size === 0) return { limit, differences: 0, gaps: [], stillMissing: 0 };
  const rewalk = await walkPages(api, again);
  // A second walk that did not end proves nothing about what it did not reach.
  const still = rewalk.end.kind === 'complete' ? [...seenIn.keys()].filter((id) => !rewalk.widgets.has(id)) : [];
  const gaps: Gap[] = [];
  for (const id of still.slice(0, MAX_GAP_RETRIEVES)) {
    if (gaps.length >= MAX_CONFIRMED_GAPS) break;
    if (await stillExists(api, id)) gaps.push({ id, seenIn: seenIn.get(id) ?? [] });
  }
  return { limit, differences: seenIn.size, rewalk, gaps, stillMissing: still.length };
}

/** Whether a retrieve shows the widget now; an id the suite will not put in a path counts as not shown. */
async function stillExists(api: WidgetApi, id: string): Promise<boolean> {
  try {
    const res = await api.retrieve(id);
    return res.status >= 200 && res.status < 300 && idOf(res.json) === id;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_UNSAFE_ID') return false;
    throw error;
  }
}
