/**
 * A run killed before its cleanup, and `cleanup` run in-process against it: the shared steps of
 * the cleanup tests (journal.test.ts, adversary.test.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAccounts } from '../../../../src/client/accounts.ts';
import { Journal, targetOf } from '../../../../src/client/ledger.ts';
import { Ownership } from '../../../../src/client/ownership.ts';
import { takeInventory } from '../../../../src/client/sweep.ts';
import { cleanJournal } from '../../../../src/cli/cleanup/journal.ts';
import { carriesMarker, newMarker } from '../../../../src/harness/marker.ts';
import { HttpClient } from '../../../../src/http/client.ts';
import { Redactor } from '../../../../src/shared/redact.ts';
import type { RunningServer } from '../../../../src/reference/server.ts';
import { StoreServer } from './store-server.ts';

/** Closes every client and server the helpers opened (call in afterEach). */
export async function closeAll(): Promise<void> {
  await Promise.all(open.splice(0).map((o) => o.close()));
}

export const TOKENS = ['cleanup-token-alice', 'cleanup-token-bob'] as const;
const open: Array<{ close(): Promise<void> }> = [];

export function client(baseUrl: string, secrets: readonly string[] = TOKENS): HttpClient {
  const http = new HttpClient({ baseUrl, timeoutMs: 5_000, concurrency: 4, maxRetries: 0, maxRetryWaitMs: 0, secrets: [...secrets] });
  open.push(http);
  return http;
}

export interface Ran {
  readonly store: StoreServer;
  readonly server: RunningServer;
  readonly file: string;
  readonly marker: string;
  /** Ids the run's creates got, by account. */
  readonly made: Array<{ account: string; id: string }>;
  /** Ids of widgets that are not the run's (someone else's), by account. */
  readonly others: Array<{ account: string; id: string }>;
}

/**
 * A run killed before its cleanup: the journal's 'run' entry (with the target, unless
 * `target: null`), the inventories, `creates` creates per account, nothing deleted.
 */
export async function killedRun(opts: { tokens?: readonly [string, string]; ids?: (n: number) => string; creates?: number; target?: string | null; others?: number } = {}): Promise<Ran> {
  const tokens = opts.tokens ?? TOKENS;
  const store = new StoreServer({ [tokens[0]]: 'primary', [tokens[1]]: 'second' }, opts.ids);
  for (let i = 0; i < (opts.others ?? 1); i += 1) {
    store.put('primary', { id: `user-a-${i}`, name: 'the user\'s own' });
    store.put('second', { id: `user-b-${i}`, name: 'the user\'s own' });
  }
  const server = await store.start();
  open.push(server);
  const dir = mkdtempSync(join(tmpdir(), 'cleanup-'));
  const file = join(dir, 'widget-journal-x.jsonl');
  const marker = newMarker();
  const redactor = new Redactor([...tokens]);
  const journal = new Journal(file, (text) => redactor.text(text));
  journal.append({ kind: 'run', marker, at: new Date().toISOString(), ...(opts.target === null ? {} : { target: opts.target ?? targetOf(server.baseUrl) }) });
  const ownership = new Ownership((w) => carriesMarker(w, marker), journal);
  const http = client(server.baseUrl, tokens);
  const apis = openAccounts(http, ownership, [{ name: 'primary', token: tokens[0] }, { name: 'second', token: tokens[1] }]);
  const made: Ran['made'] = [];
  for (const api of apis) {
    await takeInventory(api, 20);
    for (let i = 0; i < (opts.creates ?? 2); i += 1) {
      const res = await api.create({ name: `${marker} CRUD-1 ${i}` });
      made.push({ account: api.account, id: (res.json as { id: string }).id });
    }
  }
  const others = [...store.widgets].flatMap(([account, m]) => [...m.keys()].filter((id) => !made.some((x) => x.id === id && x.account === account)).map((id) => ({ account, id })));
  return { store, server, file, marker, made, others };
}

/** Runs cleanup against the store; the lines it said and its code. */
export async function cleanup(ran: Ran, opts: { baseUrl?: string; tokens?: readonly [string, string | undefined]; target?: string; trustBaseUrl?: boolean; file?: string } = {}): Promise<{ code: number; said: string }> {
  const baseUrl = opts.baseUrl ?? ran.server.baseUrl;
  const tokens = opts.tokens ?? TOKENS;
  const lines: string[] = [];
  const code = await cleanJournal(client(baseUrl, tokens.filter((t): t is string => t !== undefined)), tokens[0], tokens[1], opts.file ?? ran.file, (l) => lines.push(l), {
    target: opts.target ?? targetOf(baseUrl),
    ...(opts.trustBaseUrl ? { trustBaseUrl: true } : {}),
  });
  return { code, said: lines.join('\n') };
}

/** The run's widgets still on the server. */
export function remaining(ran: Ran): Array<{ account: string; id: string }> {
  return ran.made.filter(({ account, id }) => ran.store.widgets.get(account)!.has(id));
}

