/**
 * The runner's own view of the accounts, apart from the workers': the probe, the inventory and
 * the final cleanup go through it, each account with the run's marker as proof of ownership.
 */
import type { ApiHooks, WidgetApi } from '../../client/api.ts';
import { openAccounts } from '../../client/accounts.ts';
import type { Journal } from '../../client/ledger.ts';
import { Ownership } from '../../client/ownership.ts';
import { carriesMarker } from '../../harness/marker.ts';
import type { HttpClient } from '../../http/client.ts';
import type { Target } from './target.ts';

/**
 * The primary account, and the second one when the target has a second token; one ownership and
 * journal for both. `observe` receives their answers for the profile (the first contact's).
 */
export function runnerAccounts(client: HttpClient, target: Target, marker: string, journal: Journal, observe?: ApiHooks['observe']): WidgetApi[] {
  const ownership = new Ownership((widget) => carriesMarker(widget, marker), journal);
  const hooks: ApiHooks = observe ? { observe } : {};
  return openAccounts(client, ownership, [{ name: 'primary', token: target.token }, ...(target.secondToken ? [{ name: 'second', token: target.secondToken }] : [])], hooks);
}
