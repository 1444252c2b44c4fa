/**
 * Cleanup: delete what the run holds, and sweep each account for widgets carrying a marker.
 * Every delete goes through WidgetApi.remove, so through the one delete rule (ledger.ts
 * deleteVerdict): a list entry showing the marker is never proof, it only points at a
 * journalled id to try again. What cannot be deleted is reported by id.
 */
import { idOf, type WidgetApi } from './api.ts';
import { TokenRejectedError, UnprovenDeleteError, UnsafeIdError } from '../errors.ts';
import { isSuiteError } from '../errors.ts';
import type { Leftover, Ownership } from './ownership.ts';
import { describeEnd, walkAll } from './walk.ts';


/** Held ids deleted side by side: enough to keep the client's slots busy. */
const DELETES_AT_ONCE = 8;

export interface SweepResult {
  readonly account: string;
  /** Marked widgets the sweep deleted. */
  readonly deleted: string[];
  /** Marked widgets the walk found at journalled ids (deleted or not). */
  readonly found: number;
  /** Ids listed with the marker that no create of the run answered: never deleted, reported. */
  readonly unjournalled: string[];
  /** True when the walk reached the end of the list. */
  readonly complete: boolean;
  /** Why the account could not be walked to the end, or why a deleted id is not proven gone. */
  readonly problems: string[];
}


async function inBatches<T>(items: readonly T[], size: number, each: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(each));
}

/** Deletes one held id with its account's own token (proof first), recording the outcome. Never throws a SuiteError. */
export async function deleteHeld(api: WidgetApi, id: string): Promise<void> {
  const { ownership, account } = api;
  if (ownership.get(account, id)?.problem?.startsWith('never sent')) return;
  // Kept by --keep-failing: left for the user's replay, and for `cleanup` later.
  if (ownership.get(account, id)?.kept !== undefined) return;
  try {
    const res = await api.remove(id);
    if (res.status >= 200 && res.status < 300) {
      // A 2xx is the server's word: a retrieve that still shows the marker there says otherwise.
      const after = await api.retrieve(id);
      if (after.status >= 200 && after.status < 300 && api.ownership.isOurs(after.json)) {
        api.ownership.undeleted(account, id);
        ownership.failed(account, id, `the delete answered ${res.status}, yet a retrieve still shows the widget with the run marker`);
      }
      return;
    }
    // Proof came just before, so a refusal is an answer to record, unless the widget is now gone.
    const after = await api.retrieve(id);
    if (after.status >= 400 && after.status < 500) ownership.deleted(account, id);
    else ownership.failed(account, id, `the delete answered ${res.status}`);
  } catch (error) {
    if (error instanceof UnprovenDeleteError && ownership.get(account, id)?.sighting === 'absent') {
      // A retrieve with the owner's token finds nothing: already gone (a final walk still looks for the marker).
      ownership.deleted(account, id);
      return;
    }
    if (error instanceof UnprovenDeleteError || error instanceof UnsafeIdError) return ownership.failed(account, id, error.reason);
    // The refusal itself is said once, by the runner; per id, the reason is enough.
    if (error instanceof TokenRejectedError) return ownership.failed(account, id, `not deleted: the target refuses the ${account} account's token`);
    if (!isSuiteError(error)) throw error;
    ownership.failed(account, id, `not deleted: ${(error as Error).message}`);
  }
}

/** Deletes every id the ledger holds and has not seen deleted, in every account. */
export async function deleteAllHeld(accounts: readonly WidgetApi[]): Promise<void> {
  const byName = new Map(accounts.map((api) => [api.account, api]));
  const ownership = accounts[0]?.ownership;
  if (!ownership) return;
  await inBatches(ownership.outstanding(), DELETES_AT_ONCE, async (claim) => {
    const api = byName.get(claim.account);
    if (api) await deleteHeld(api, claim.id);
  });
}

/**
 * Walks the account: a journalled id listed with the marker is tried again (the delete rule
 * decides, after its own retrieve); a marked id no create answered is only reported; a journalled
 * id deleted yet still listed is a problem. Never throws a SuiteError.
 */
export async function sweep(api: WidgetApi, maxPages: number): Promise<SweepResult> {
  const result = { account: api.account, deleted: [] as string[], found: 0, unjournalled: [] as string[], complete: false, problems: [] as string[] };
  try {
    const walk = await walkAll(api, maxPages);
    result.complete = walk.end.kind === 'complete';
    if (!result.complete) result.problems.push(`the list walk ${describeEnd(walk)}; marked widgets beyond it were not seen`);
    // Listed twice in one walk: which entry is the widget at the id is unknown.
    for (const id of walk.duplicates.keys()) api.ownership.listedTwice(api.account, id);
    const marked = [...walk.widgets.values()].filter((w) => api.ownership.isOurs(w));
    const held: string[] = [];
    for (const widget of marked) {
      const id = idOf(widget);
      if (id === undefined) continue;
      // Kept by --keep-failing: listed on purpose, and reported as kept (leftovers), not as found.
      if (api.ownership.get(api.account, id)?.kept !== undefined) continue;
      if (api.ownership.journalled(api.account, id)) held.push(id);
      // A marker in a list is the server's word only: a lost create's widget, or a lie about the user's.
      else result.unjournalled.push(id);
    }
    // A journalled id deleted (or found absent by a retrieve) that the list still shows is not proven gone.
    for (const id of walk.widgets.keys()) {
      if (api.ownership.get(api.account, id)?.deleted && !held.includes(id)) result.problems.push(`the id ${JSON.stringify(id)} was deleted or retrieved as absent, yet the list still shows it: not proven gone`);
    }
    result.found = held.length;
    await inBatches(held, DELETES_AT_ONCE, async (id) => {
      if (api.ownership.get(api.account, id)?.deleted) {
        // Deleted, yet listed again with the marker: look once more (the rule decides).
        api.ownership.claim(api.account, id);
      }
      await deleteHeld(api, id);
      if (api.ownership.get(api.account, id)?.deleted) result.deleted.push(id);
    });
  } catch (error) {
    if (!isSuiteError(error)) throw error;
    result.problems.push((error as Error).message);
  }
  return result;
}

/** What the inventory walk found: the ids an account held before the run's first create. */
export interface Inventory {
  readonly account: string;
  readonly ids: readonly string[];
  readonly complete: boolean;
  /** Why the walk did not reach the end of the list. */
  readonly problem?: string;
}

/**
 * Walks the account before the first create and records (and journals) every id it holds: none
 * of them is ever deleted, whatever a later answer says. Never throws a SuiteError.
 */
export async function takeInventory(api: WidgetApi, maxPages: number): Promise<Inventory> {
  let ids: string[] = [];
  let complete = false;
  let problem: string | undefined;
  try {
    const walk = await walkAll(api, maxPages);
    ids = [...walk.widgets.keys()];
    complete = walk.end.kind === 'complete';
    if (!complete) problem = `the list walk ${describeEnd(walk)}`;
  } catch (error) {
    if (!isSuiteError(error)) throw error;
    problem = (error as Error).message;
  }
  api.ownership.setInventory(api.account, ids, complete);
  return { account: api.account, ids, complete, ...(problem === undefined ? {} : { problem }) };
}

/** Every held id not deleted, with the reason, for the reports. */
export function leftovers(ownership: Ownership): Leftover[] {
  return ownership.outstanding().map((c) => ({
    account: c.account,
    id: c.id,
    reason: c.kept ?? c.problem ?? (c.sighting === 'unmarked' ? 'a retrieve shows a widget without the run marker at this id: not proven the suite\'s own, not deleted' : 'not deleted: no delete was attempted before the run ended'),
  }));
}
