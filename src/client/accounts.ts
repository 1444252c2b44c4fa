/**
 * The accounts of a run and the door they share, built together: the door takes the client's
 * writer as it is opened (door.ts openDoor), so no account, and no code holding one, can reach a
 * writer of its own. Only the modules that set a run up call this (test/unit/network.test.ts
 * holds them to it): a worker's context, the runner's accounts and `cleanup`.
 */
import type { HttpClient } from '../http/client.ts';
import { WidgetApi } from './api.ts';
import type { ApiHooks } from './api-options.ts';
import { openDoor, type DoorSettings } from './door.ts';
import type { Ownership } from './ownership.ts';
import type { TokenSource } from './token-source.ts';

/** One account of the run: its role ("primary" or "second") and its token (fixed, or renewed by a command). */
export interface AccountSpec {
  readonly name: string;
  readonly token: string | TokenSource;
}

/** A run that sends no write to the collection (the runner's and `cleanup`'s accounts). */
const NO_COLLECTION_WRITES: DoorSettings = { allowCollectionWrites: false };

/**
 * The run's accounts over one client and one ledger, sharing the one door opened here with the
 * run's settings. The door proves writes with the accounts' own retrieves and credentials, as
 * this factory hands them over: a caller of the door cannot add an account or stand in for one.
 */
export function openAccounts(http: HttpClient, ownership: Ownership, accounts: readonly AccountSpec[], hooks: ApiHooks = {}, settings: DoorSettings = NO_COLLECTION_WRITES): WidgetApi[] {
  const apis = new Map<string, WidgetApi>();
  const account = (name: string): WidgetApi => {
    const api = apis.get(name);
    if (!api) throw new Error(`no ${name} account in this run`);
    return api;
  };
  const door = openDoor(http, ownership, settings, {
    names: () => [...apis.keys()],
    credential: (name) => account(name).bearer,
    retrieve: (name, id, via) => account(name).retrieve(id, undefined, via),
  });
  for (const a of accounts) apis.set(a.name, new WidgetApi(http, a.token, a.name, ownership, door, hooks));
  return [...apis.values()];
}
