/**
 * Where a walk lost widgets that a plain list made before it showed (PAGE-3): a cursor that skips,
 * not a list that is late. For each such widget, the neighbours it has in that list which the
 * walk did show, and the pages they were on, name the page request that should have returned it.
 * The order is the plain list's, as the server gave it: read, never assumed (a server may order
 * its pages as it likes, so the pages named are where the widget stands in its own order).
 */
import type { WalkResult } from '../client/walk.ts';

/** A widget the walk lost, with its nearest neighbours in the plain list that the walk showed. */
export interface Skipped {
  readonly id: string;
  readonly before?: { readonly id: string; readonly page: number };
  readonly after?: { readonly id: string; readonly page: number };
}

/** How many lost widgets a message places; the rest are counted. */
const PLACED = 3;

/** The lost widgets among `ids`, each placed between the neighbours the walk showed in `plain`'s order. */
export function skippedIn(walk: WalkResult, plain: WalkResult, ids: readonly string[]): Skipped[] {
  const pageOf = new Map<string, number>();
  for (const page of walk.pages) for (const id of page.ids) if (!pageOf.has(id)) pageOf.set(id, page.number);
  const order = plain.pages.flatMap((p) => p.ids);
  return ids.map((id) => {
    const at = order.indexOf(id);
    const shown = (from: number, step: number): { id: string; page: number } | undefined => {
      for (let i = from; i >= 0 && i < order.length; i += step) {
        const page = pageOf.get(order[i]!);
        if (page !== undefined) return { id: order[i]!, page };
      }
      return undefined;
    };
    const before = at < 0 ? undefined : shown(at - 1, -1);
    const after = at < 0 ? undefined : shown(at + 1, 1);
    return { id, ...(before ? { before } : {}), ...(after ? { after } : {}) };
  });
}

/** Which page request should have shown a lost widget, from where its neighbours were. */
function placed(s: Skipped, walk: WalkResult): string {
  const { before, after } = s;
  const where = `${JSON.stringify(s.id)} stands`;
  if (before && after) {
    const between = `${where} between ${JSON.stringify(before.id)} (page ${before.page}) and ${JSON.stringify(after.id)} (page ${after.page})`;
    if (after.page === before.page) return `${between}: page ${before.page} shows both and not it`;
    if (after.page === before.page + 1) return `${between}: the request for page ${after.page}, with the cursor page ${before.page} gave, should have shown it`;
    return `${between}: one of the requests for pages ${before.page + 1} to ${after.page} should have shown it`;
  }
  if (after) return `${where} before ${JSON.stringify(after.id)} (page ${after.page}): ${after.page === 1 ? 'the first page' : `page ${after.page} or one before it`} should have shown it`;
  if (before && before.page < walk.last.number) return `${where} after ${JSON.stringify(before.id)} (page ${before.page}), and the walk showed nothing after it: the request for page ${before.page + 1}, with the cursor page ${before.page} gave, should have shown it`;
  if (before) return `${where} after ${JSON.stringify(before.id)} (page ${before.page}), where the walk ended: page ${before.page} should have said has_more true and given a cursor to it`;
  return `${where} among widgets the walk showed none of`;
}

/**
 * "the cursor skipped them: …", then one line per lost widget (the first few) placed by the pages of
 * its neighbours. `when` says when the plain list was made: before the walk (the suite deleted none
 * of the widgets since), or in the walk's own quiet window.
 */
export function describeSkipped(walk: WalkResult, plain: WalkResult, ids: readonly string[], when: 'before' | 'beside' = 'before'): string {
  const all = skippedIn(walk, plain, ids);
  const list = `${plain.pages.length} page${plain.pages.length === 1 ? '' : 's'}${plain.limit === undefined ? '' : ` at limit ${plain.limit}`}`;
  return [
    when === 'before'
      ? `the cursor skipped ${ids.length === 1 ? 'it' : 'them'}: a plain list made before this walk (${list}) shows ${ids.length === 1 ? 'it' : 'each'}, and the suite deleted none of them since; in that list's order:`
      : `the cursor skipped ${ids.length === 1 ? 'it' : 'them'}: a plain list made in the same quiet window as this walk (${list}) shows ${ids.length === 1 ? 'it' : 'each'}; in that list's order:`,
    ...all.slice(0, PLACED).map((s) => placed(s, walk)),
    ...(all.length > PLACED ? [`and ${all.length - PLACED} more`] : []),
  ].join('\n');
}
