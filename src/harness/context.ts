/**
 * The worker-side state of a run: one HTTP client shared by every test (so --concurrency
 * holds across them), the two accounts, and the register of widgets created, for cleanup.
 */
import { randomUUID } from 'node:crypto';
import { SuiteError } from '../errors.ts';
import { isCancelled } from './cancel.ts';
import { WidgetApi } from '../api.ts';
import { HttpClient } from '../http/client.ts';
import { settings, type SuiteSettings } from './settings.ts';
import { QuietGate } from './quiet.ts';
import { Snapshots } from './snapshots.ts';

export interface RunContext {
  /** Unique per worker: names the worker's stats file. */
  readonly id: string;
  readonly settings: SuiteSettings;
  readonly http: HttpClient;
  readonly primary: WidgetApi;
  readonly second?: WidgetApi;
  /** Shared full walks of each account (see snapshots.ts). */
  readonly snapshots: Snapshots;
  /** Keeps the suite's own writes out of walks that must see every widget (see quiet.ts). */
  readonly gate: QuietGate;
  /** Widgets created and not yet known to be deleted, per account. */
  readonly created: Map<WidgetApi, Set<string>>;
}

const KEY = Symbol.for('widget-conformance.run-context');
type Holder = { [KEY]?: RunContext };

/** The run context of this worker, made on first use. Kept on globalThis so every test file in the worker shares it. */
export function runContext(): RunContext {
  const holder = globalThis as Holder;
  const existing = holder[KEY];
  if (existing) return existing;
  const s = settings();
  const http = new HttpClient({
    baseUrl: s.baseUrl,
    timeoutMs: s.timeoutMs,
    concurrency: s.concurrency,
    maxRetries: s.maxRetries,
    maxRetryWaitMs: s.maxRetryWaitMs,
    secrets: [s.token, ...(s.secondToken ? [s.secondToken] : [])],
  });
  const created = new Map<WidgetApi, Set<string>>();
  const register = (api: WidgetApi, id: string): void => {
    let ids = created.get(api);
    if (!ids) created.set(api, (ids = new Set()));
    ids.add(id);
  };
  const unregister = (api: WidgetApi, id: string): void => void created.get(api)?.delete(id);
  // Once the run is interrupted nothing new is created, so what the final sweep finds is all there is.
  const beforeCreate = (): void => {
    if (isCancelled(s.statsDir)) throw new SuiteError('the run was interrupted: no more widgets are created', 'ERR_CANCELLED');
  };
  const gate = new QuietGate();
  const hooks = { onCreated: register, onDeleted: unregister, beforeCreate, write: <T>(send: () => Promise<T>) => gate.write(send) };
  const primary = new WidgetApi(http, s.token, 'primary', hooks);
  const second = s.secondToken ? new WidgetApi(http, s.secondToken, 'second', hooks) : undefined;
  const ctx: RunContext = { id: randomUUID(), settings: s, http, primary, ...(second ? { second } : {}), snapshots: new Snapshots(s.maxWidgets, gate), gate, created };
  holder[KEY] = ctx;
  return ctx;
}

/** Deletes every widget this worker created and has not yet seen deleted; returns the ids that would not go. */
export async function deleteCreated(ctx: RunContext): Promise<string[]> {
  const stuck: string[] = [];
  await Promise.all(
    [...ctx.created].flatMap(([api, ids]) =>
      [...ids].map(async (id) => {
        try {
          const res = await api.remove(id);
          // A 4xx means it is already gone (deleted by its test); anything else is left for the sweep.
          if (res.status < 500) ids.delete(id);
          else stuck.push(id);
        } catch {
          stuck.push(id);
        }
      }),
    ),
  );
  return stuck;
}
