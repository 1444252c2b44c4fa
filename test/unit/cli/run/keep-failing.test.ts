/**
 * --keep-failing, from the failing test to `cleanup`, against the reference server in process:
 * the widgets a failure's exchanges name, and those its test said it used (a walk's), are kept only when the ledger holds them (never a
 * widget that existed before the run), the worker's and the runner's cleanups leave them, the
 * cleanup line lists them by id with the command that deletes them (never "nothing left
 * behind"), and `cleanup` deletes them later from the journal under the usual proof.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WidgetApi } from '../../../../src/client/api.ts';
import { openAccounts } from '../../../../src/client/accounts.ts';
import { Journal, readJournal } from '../../../../src/client/ledger.ts';
import { Ownership } from '../../../../src/client/ownership.ts';
import { deleteAllHeld, takeInventory } from '../../../../src/client/sweep.ts';
import { cleanJournal } from '../../../../src/cli/cleanup/journal.ts';
import { describeCleanup, finalCleanup } from '../../../../src/cli/run/final-cleanup.ts';
import type { RunContext } from '../../../../src/harness/context.ts';
import { onBrokenTest } from '../../../../src/harness/failing-widgets.ts';
import { localSuiteCommand } from '../../../../src/report/rerun.ts';
import { carriesMarker, newMarker } from '../../../../src/harness/marker.ts';
import { HttpClient } from '../../../../src/http/client.ts';
import { startReferenceServer, type RunningReferenceServer } from '../../../../src/reference/server.ts';

let server: RunningReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(async () => {
  await server.close();
});

function client(): HttpClient {
  return new HttpClient({ baseUrl: server.baseUrl, timeoutMs: 5_000, concurrency: 4, maxRetries: 0, maxRetryWaitMs: 0, secrets: [...server.tokens] });
}

function accounts(http: HttpClient, ownership: Ownership): [WidgetApi, WidgetApi] {
  return openAccounts(http, ownership, [{ name: 'primary', token: server.tokens[0] }, { name: 'second', token: server.tokens[1] }]) as [WidgetApi, WidgetApi];
}

interface Scenario {
  readonly kept: string;
  /** A widget of the run the failure does not name, but the test said it used (a walk's). */
  readonly walked: string;
  readonly other: string;
  readonly before: string;
  readonly said: string;
  readonly verified: boolean;
  readonly runWidgets: readonly string[] | undefined;
  readonly file: string;
  readonly http: HttpClient[];
}

async function scenario(keepFailing: boolean): Promise<Scenario> {
  // One client per set of accounts, and one for `cleanup`: a client's writer goes to the door of the accounts opened on it.
  const http = [client(), client(), client(), client(), client()];
  const [setup] = accounts(http[3]!, new Ownership(() => false));
  // A widget of the user's, there before the run: a failure may name it; it is never kept or deleted.
  const before = (await setup.create({ name: 'the user\'s own widget' })).json as { id: string };
  const file = join(mkdtempSync(join(tmpdir(), 'keep-failing-')), 'widget-journal.jsonl');
  const marker = newMarker();
  const isOurs = (w: unknown): boolean => carriesMarker(w, marker);
  new Journal(file).append({ kind: 'run', marker, at: new Date().toISOString() });
  for (const api of accounts(http[0]!, new Ownership(isOurs, new Journal(file)))) await takeInventory(api, 20);
  const worker = new Ownership(isOurs, new Journal(file));
  worker.loadEntries(readJournal(file).filter((e) => e.kind === 'inventory'));
  const [primary, second] = accounts(http[1]!, worker);
  const kept = ((await primary.create({ name: `${marker} ISO-2 1` })).json as { id: string }).id;
  const other = ((await primary.create({ name: `${marker} ISO-2 2` })).json as { id: string }).id;
  const walked = ((await primary.create({ name: `${marker} PAGE-3 3` })).json as { id: string }).id;
  // The failing test's exchanges: another account's retrieve of the run's widget, and one of the user's widget.
  const failing = await second.retrieve(kept);
  const theirs = await primary.retrieve(before.id);
  const run = { settings: { keepFailing }, primary, second, ownership: worker, http: http[1] } as unknown as RunContext;
  // The test said it relied on a walk that showed the user's widget and one of the run's.
  const detail = onBrokenTest(run, 'ISO-2 the second account cannot retrieve the first account\'s widget', { expected: 'x', received: 'y', exchanges: [theirs.exchange, failing.exchange] }, [walked, before.id]);
  // The worker's per-file cleanup, then the runner's, from the journal and what the worker held.
  await deleteAllHeld([primary, second]);
  const outcome = await finalCleanup(accounts(http[2]!, new Ownership(isOurs, new Journal(file))), worker.outstanding(), { maxPages: 20, minSweeps: 1, journal: readJournal(file) });
  return { kept, walked, other, before: before.id, said: describeCleanup(outcome, 'reports/widget-journal.jsonl'), verified: outcome.verified, runWidgets: detail.runWidgets, file, http };
}

async function status(id: string): Promise<number> {
  return (await fetch(`${server.baseUrl}/widgets/${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${server.tokens[0]}` } })).status;
}

describe('--keep-failing', () => {
  it('keeps the failing test\'s widgets (those it names and those its walk showed, and only them) past both cleanups, lists them by id with the cleanup command, and cleanup deletes them later', async () => {
    const s = await scenario(true);
    try {
      expect(await status(s.kept), 'the failing test\'s widget is still there').toBe(200);
      expect(await status(s.walked), 'a widget of the run the test\'s walk showed is still there').toBe(200);
      expect(await status(s.other), 'a widget the failure does not name is deleted as usual').toBe(404);
      expect(await status(s.before), 'the user\'s widget is untouched').toBe(200);
      expect(s.verified).toBe(false);
      expect(s.said).not.toContain('nothing left behind');
      expect(s.said).toMatch(/^KEPT \(--keep-failing\): 2 widget\(s\)/);
      expect(s.said).toContain(JSON.stringify(s.kept));
      expect(s.said).toContain(JSON.stringify(s.walked));
      expect(s.said).not.toContain(JSON.stringify(s.before));
      expect(s.said).toContain(`${localSuiteCommand()} cleanup --base-url`);
      // The run's widgets the failure names, never the user's: what the console says became of each is from these.
      expect(s.runWidgets).toEqual([s.kept]);
      const said: string[] = [];
      expect(await cleanJournal(s.http[4]!, server.tokens[0], server.tokens[1], s.file, (l) => said.push(l)), said.join('\n')).toBe(0);
      expect(await status(s.kept), 'cleanup deleted the kept widget').toBe(404);
      expect(await status(s.walked), 'and the walk\'s').toBe(404);
      expect(await status(s.before)).toBe(200);
    } finally {
      await Promise.all(s.http.map((h) => h.close()));
    }
  });

  it('without it, nothing is kept: the run deletes every widget it made, and the failure still names the run\'s widget it shows', async () => {
    const s = await scenario(false);
    try {
      expect(await status(s.kept)).toBe(404);
      expect(await status(s.walked)).toBe(404);
      expect(s.verified, s.said).toBe(true);
      expect(s.said).toContain('nothing left behind');
      expect(s.runWidgets).toEqual([s.kept]);
    } finally {
      await Promise.all(s.http.map((h) => h.close()));
    }
  });
});
