/**
 * Cleanup: delete what the run holds, and sweep each account for widgets carrying a marker.
 * Every delete goes through WidgetApi.remove, so through the one delete rule (ledger.ts
 * deleteVerdict): a list entry showing the marker is never proof, it only points at a
 * journalled id to try again. What cannot be deleted is reported by id.
 */
import { idOf, type WidgetApi } from './api.ts';
import { isGone } from './ledger.ts';
import { TokenRejectedError, UnprovenDeleteError, UnsafeIdError } from '../errors.ts';
import { isSuiteError } from '../errors.ts';
import type { Leftover, Ownership } from './ownership.ts';
import { describeEnd, walkAll } from './walk.ts';


/** Held ids deleted side by side: enough to keep the client's slots busy. */
const DELETES_AT_ONCE = 8;

export interface SweepResult {
  readonly account: string;
  /** Marked widgets the sweep deleted and proved gone. */
  readonly deleted: string[];
  /** Marked widgets the walk found at journalled ids that a delete was tried for. */
  readonly found: number;
  /** Ids listed with the marker that no create of the run answered (per the journal): never deleted, reported. */
  readonly unjournalled: string[];
  /** Journalled ids listed with the marker whose retrieve with the account's own token answered 404 or 410: not deleted, not gone. */
  readonly unretrievable: Array<{ readonly id: string; readonly status: number }>;
  /** True when the walk reached the end of the list. */
  readonly complete: boolean;
  /** Why the account could not be walked to the end, or why a deleted id is not proven gone. */
  readonly problems: string[];
}

async function inBatches<T>(items: readonly T[], size: number, each: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(each));
}

const is2xx = (status: number): boolean => status >= 200 && status < 300;

/** What a retrieve answered, for a reason that says why it proves nothing. */
function answered(status: number): string {
  if (status === 401 || status === 403) return `${status} (the target does not take the token for this account's widget: nothing is claimed)`;
  return `${status}, not 404 or 410`;
}

/** What became of one held id (see deleteHeld). */
export type HeldOutcome = 'gone' | 'left' | { readonly unretrievable: number };

/**
 * After a delete (or a proof that found nothing), a retrieve with the owner's token decides:
 * 404 or 410 proves the widget gone; a widget shown with the marker is live again; any other
 * answer proves nothing. A list entry is never proof either way.
 */
async function settle(api: WidgetApi, id: string, what: string, listedMarked: boolean): Promise<HeldOutcome> {
  const { ownership, account } = api;
  const after = await api.retrieve(id);
  if (isGone(after.status)) {
    // Listed with the marker in this very walk: the 404 is not the widget's absence (a proxy's, a stale route's).
    if (listedMarked) {
      ownership.notGone(account, id, `listed with the run marker, yet a retrieve with the ${account} account's token answers ${after.status}: not deleted, not proven gone`);
      return { unretrievable: after.status };
    }
    ownership.deleted(account, id);
    ownership.provenGone(account, id);
    return 'gone';
  }
  if (is2xx(after.status) && idOf(after.json) === id && ownership.isOurs(after.json)) {
    ownership.undeleted(account, id);
    ownership.failed(account, id, `${what}, yet a retrieve still shows the widget with the run marker`);
    return 'left';
  }
  const shown = is2xx(after.status) ? `${after.status} with ${idOf(after.json) === id ? 'a widget without the run marker' : 'a body that is not the widget at this id'}` : answered(after.status);
  if (ownership.get(account, id)?.deleted) ownership.failed(account, id, `${what}, yet a retrieve answers ${shown}: not proven gone`);
  else ownership.failed(account, id, `${what}; a retrieve answers ${shown}: not deleted`);
  return 'left';
}

/**
 * Deletes one held id with its account's own token (proof first), then proves it gone with a
 * retrieve (404 or 410), recording the outcome. `listedMarked`: a walk just listed it with the
 * marker, so a retrieve's 404 cannot prove it gone. Never throws a SuiteError.
 */
export async function deleteHeld(api: WidgetApi, id: string, listedMarked = false): Promise<HeldOutcome> {
  const { ownership, account } = api;
  if (ownership.get(account, id)?.unsendable !== undefined) return 'left';
  // Kept by --keep-failing: left for the user's replay, and for `cleanup` later.
  if (ownership.get(account, id)?.kept !== undefined) return 'left';
  try {
    let res;
    try {
      res = await api.remove(id);
    } catch (error) {
      // The proof's retrieve found nothing there (404 or 410): proven gone by the retrieve after, as a delete is.
      if (error instanceof UnprovenDeleteError && error.why === 'absent') return await settle(api, id, 'not deleted: a retrieve found nothing', listedMarked);
      throw error;
    }
    return await settle(api, id, `the delete answered ${res.status}`, listedMarked && !is2xx(res.status));
  } catch (error) {
    if (error instanceof UnprovenDeleteError || error instanceof UnsafeIdError) ownership.failed(account, id, error.reason);
    // The refusal itself is said once, by the runner; per id, the reason is enough.
    else if (error instanceof TokenRejectedError) ownership.failed(account, id, `not deleted, nothing claimed: the target refuses the ${account} account's token`);
    else if (!isSuiteError(error)) throw error;
    else ownership.failed(account, id, `not deleted: ${(error as Error).message}`);
    return 'left';
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
 * Every id recorded deleted and not yet proven gone (a test's own delete, a 2xx whose retrieve
 * after proved nothing) is retrieved with its account's token: 404 or 410 proves it gone; the
 * widget shown with the marker is deleted again; anything else is a leftover with the reason.
 */
export async function proveAllGone(accounts: readonly WidgetApi[]): Promise<void> {
  const byName = new Map(accounts.map((api) => [api.account, api]));
  const ownership = accounts[0]?.ownership;
  if (!ownership) return;
  const unproven = ownership.allClaims().filter((c) => c.gone !== true).filter((c) => c.deleted && byName.has(c.account));
  await inBatches(unproven, DELETES_AT_ONCE, async (claim) => {
    const api = byName.get(claim.account)!;
    try {
      if ((await settle(api, claim.id, 'deleted earlier in the run', false)) === 'left' && !claim.deleted) await deleteHeld(api, claim.id);
    } catch (error) {
      if (error instanceof UnsafeIdError) return ownership.failed(claim.account, claim.id, error.reason);
      if (error instanceof TokenRejectedError) return ownership.failed(claim.account, claim.id, `not proven gone, nothing claimed: the target refuses the ${claim.account} account's token`);
      if (!isSuiteError(error)) throw error;
      ownership.failed(claim.account, claim.id, `not proven gone: ${(error as Error).message}`);
    }
  });
}

/**
 * Walks the account: a journalled id listed with the marker is tried again (the delete rule
 * decides, after its own retrieve); a marked id no create answered is only reported; a journalled
 * id recorded deleted or gone that the list still shows is not proven gone. Never throws a SuiteError.
 */
export async function sweep(api: WidgetApi, maxPages: number): Promise<SweepResult> {
  const result = { account: api.account, deleted: [] as string[], found: 0, unjournalled: [] as string[], unretrievable: [] as Array<{ id: string; status: number }>, complete: false, problems: [] as string[] };
  const { ownership, account } = api;
  try {
    const walk = await walkAll(api, maxPages);
    result.complete = walk.end.kind === 'complete';
    if (!result.complete) result.problems.push(`the list walk ${describeEnd(walk)}; marked widgets beyond it were not seen`);
    // Listed twice in one walk: which entry is the widget at the id is unknown.
    for (const id of walk.duplicates.keys()) ownership.listedTwice(account, id);
    const held: string[] = [];
    for (const [id, widget] of walk.widgets) {
      const claim = ownership.get(account, id);
      if (ownership.isOurs(widget) && idOf(widget) === id) {
        // Kept by --keep-failing: listed on purpose, and reported as kept, not as found.
        if (claim?.kept !== undefined) continue;
        if (claim) held.push(id);
        // A marker in a list is the server's word only: a lost create's widget, or a lie about the user's.
        else result.unjournalled.push(id);
      } else if (claim?.deleted) {
        // Listed without the marker after its delete: gone is not proven (the marker may be what the list hides).
        ownership.notGone(account, id, 'recorded deleted, yet the list still shows a widget at this id (without the run marker): not proven gone');
      }
    }
    await inBatches(held, DELETES_AT_ONCE, async (id) => {
      const outcome = await deleteHeld(api, id, true);
      if (typeof outcome === 'object') result.unretrievable.push({ id, status: outcome.unretrievable });
      else result.found += 1;
      if (outcome === 'gone') result.deleted.push(id);
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

/** Every held id not proven gone, with the reason, for the reports. */
export function leftovers(ownership: Ownership): Leftover[] {
  return ownership.allClaims().filter((c) => c.gone !== true).map((c) => ({
    account: c.account,
    id: c.id,
    reason:
      c.kept ??
      c.problem ??
      (c.deleted
        ? 'a delete answered 2xx, but no retrieve since answered 404 or 410: not proven gone'
        : c.sighting === 'unmarked'
          ? 'a retrieve shows a widget without the run marker at this id: not proven the suite\'s own, not deleted'
          : 'not deleted: no delete was attempted before the run ended'),
  }));
}
