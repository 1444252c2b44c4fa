/**
 * Sweeps: walk an account and delete the widgets that carry a run marker. The run's final
 * sweep uses its own marker (it catches widgets whose create answer was lost, or that a
 * faulty server created while refusing); `npm run cleanup` uses any marker of this suite.
 * A widget without the marker is never touched.
 */
import type { WidgetApi } from './api.ts';
import { isSuiteError } from './errors.ts';
import { carriesMarker } from './harness/marker.ts';
import { describeEnd, walkPages, type WalkResult } from './walk.ts';

/** The page size a sweep asks for; a server that rejects it is walked with its default instead. */
export const SWEEP_PAGE_LIMIT = 100;

export interface SweepResult {
  readonly account: string;
  readonly deleted: string[];
  /** Marked widgets that would not delete, or an account the sweep could not walk. */
  readonly problems: string[];
}

/** Walks with a large page size, falling back to the server's default if that size is refused. */
export async function walkAll(api: WidgetApi, maxPages: number): Promise<WalkResult> {
  const walk = await walkPages(api, { limit: SWEEP_PAGE_LIMIT, maxPages });
  const first = walk.pages[0];
  if (walk.end.kind === 'not-a-page' && walk.pages.length === 1 && first && first.response.status >= 400 && first.response.status < 500) {
    return walkPages(api, { maxPages });
  }
  return walk;
}

/** Deletes every widget of the account that carries the marker. Never throws. */
export async function sweep(api: WidgetApi, marker: string | RegExp, maxPages: number): Promise<SweepResult> {
  const result: SweepResult = { account: api.account, deleted: [], problems: [] };
  try {
    const walk = await walkAll(api, maxPages);
    if (walk.end.kind !== 'complete') result.problems.push(`the list walk ${describeEnd(walk)}; marked widgets beyond it were not seen`);
    const marked = [...walk.widgets.values()].filter((w) => carriesMarker(w, marker));
    await Promise.all(
      marked.map(async (w) => {
        const id = String(w.id);
        const res = await api.remove(id);
        if (res.status >= 200 && res.status < 300) result.deleted.push(id);
        else if (res.status !== 404) result.problems.push(`delete of ${id} answered ${res.status}`);
      }),
    );
  } catch (error) {
    if (!isSuiteError(error)) throw error;
    result.problems.push((error as Error).message);
  }
  return result;
}
