/**
 * Cleanup: delete what the run holds, and sweep each account for widgets carrying a marker.
 * Every delete goes through WidgetApi.remove, so nothing is deleted without the server's own
 * proof that it is the suite's widget (see ownership.ts); what cannot be deleted is recorded
 * in the ledger and reported by id.
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
  /** Marked widgets the walk found (deleted or not). */
  readonly found: number;
  /** True when the walk reached the end of the list. */
  readonly complete: boolean;
  /** Why the account could not be walked to the end. */
  readonly problems: string[];
}


async function inBatches<T>(items: readonly T[], size: number, each: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(each));
}

/** Deletes one held id with its account's own token (proof first), recording the outcome. Never throws a SuiteError. */
export async function deleteHeld(api: WidgetApi, id: string): Promise<void> {
  const { ownership, account } = api;
  if (ownership.get(account, id)?.problem?.startsWith('never sent')) return;
  try {
    const res = await api.remove(id);
    if (res.status >= 200 && res.status < 300) return;
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
 * Walks the account and deletes every widget the ledger's marker test picks: the list entry
 * showing the marker is the proof. Never throws a SuiteError.
 */
export async function sweep(api: WidgetApi, maxPages: number): Promise<SweepResult> {
  const result = { account: api.account, deleted: [] as string[], found: 0, complete: false, problems: [] as string[] };
  try {
    const walk = await walkAll(api, maxPages);
    result.complete = walk.end.kind === 'complete';
    if (!result.complete) result.problems.push(`the list walk ${describeEnd(walk)}; marked widgets beyond it were not seen`);
    const marked = [...walk.widgets.values()].filter((w) => api.ownership.isOurs(w));
    result.found = marked.length;
    await inBatches(marked, DELETES_AT_ONCE, async (widget) => {
      const id = idOf(widget);
      if (id === undefined) return;
      // Held from here on: if it will not go, it is reported by id like any other.
      api.ownership.claim(api.account, id);
      api.ownership.saw(api.account, id, widget);
      await deleteHeld(api, id);
      if (api.ownership.get(api.account, id)?.deleted) result.deleted.push(id);
    });
  } catch (error) {
    if (!isSuiteError(error)) throw error;
    result.problems.push((error as Error).message);
  }
  return result;
}

/** Every held id not deleted, with the reason, for the reports. */
export function leftovers(ownership: Ownership): Leftover[] {
  return ownership.outstanding().map((c) => ({
    account: c.account,
    id: c.id,
    reason: c.problem ?? (c.sighting === 'unmarked' ? 'a retrieve shows a widget without the run marker at this id: not proven the suite\'s own, not deleted' : 'not deleted: no delete was attempted before the run ended'),
  }));
}
