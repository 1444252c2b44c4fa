/**
 * --keep-failing, from the failing test to `cleanup`, against the reference server in process:
 * the widgets a failure's exchanges name are kept only when the ledger holds them (never a
 * widget that existed before the run), the worker's and the runner's cleanups leave them, the
 * cleanup line lists them by id with the command that deletes them (never "nothing left
 * behind"), and `cleanup` deletes them later from the journal under the usual proof.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WidgetApi } from '../../../../src/client/api.ts';
import { Journal, readJournal } from '../../../../src/client/ledger.ts';
import { Ownership } from '../../../../src/client/ownership.ts';
import { deleteAllHeld, takeInventory } from '../../../../src/client/sweep.ts';
import { cleanJournal } from '../../../../src/cli/cleanup/journal.ts';
import { describeCleanup, finalCleanup } from '../../../../src/cli/run/final-cleanup.ts';
import type { RunContext } from '../../../../src/harness/context.ts';
import { CreateLog } from '../../../../src/harness/create-log.ts';
import { onBrokenTest } from '../../../../src/harness/failing-widgets.ts';
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

function accounts(http: HttpClient, ownership: Ownership, creates?: CreateLog): [WidgetApi, WidgetApi] {
  const peers = new Map<string, WidgetApi>();
  const hooks = creates ? { observe: (o: { op: string; exchange: Parameters<CreateLog['record']>[0] }) => { if (o.op === 'create') creates.record(o.exchange); } } : {};
  return [new WidgetApi(http, server.tokens[0], 'primary', ownership, hooks as never, peers), new WidgetApi(http, server.tokens[1], 'second', ownership, hooks as never, peers)];
}

async function scenario(keepFailing: boolean): Promise<{ kept: string; other: string; before: string; said: string; verified: boolean; replay: string | undefined; file: string; http: HttpClient[] }> {
  const http = [client(), client(), client(), client()];
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
  const creates = new CreateLog();
  const [primary, second] = accounts(http[1]!, worker, creates);
  const kept = ((await primary.create({ name: `${marker} ISO-2 1` })).json as { id: string }).id;
  const other = ((await primary.create({ name: `${marker} ISO-2 2` })).json as { id: string }).id;
  // The failing test's exchanges: another account's retrieve of the run's widget, and one of the user's widget.
  const failing = await second.retrieve(kept);
  const theirs = await primary.retrieve(before.id);
  const run = { settings: { keepFailing }, primary, second, ownership: worker, creates, http: http[1] } as unknown as RunContext;
  const detail = onBrokenTest(run, 'ISO-2 the second account cannot retrieve the first account\'s widget', { expected: 'x', received: 'y', exchanges: [theirs.exchange, failing.exchange] });
  // The worker's per-file cleanup, then the runner's, from the journal and what the worker held.
  await deleteAllHeld([primary, second]);
  const outcome = await finalCleanup(accounts(http[2]!, new Ownership(isOurs, new Journal(file))), worker.outstanding(), { maxPages: 20, minSweeps: 1, journal: readJournal(file) });
  return { kept, other, before: before.id, said: describeCleanup(outcome, 'reports/widget-journal.jsonl'), verified: outcome.verified, replay: detail.replay, file, http };
}

async function status(id: string): Promise<number> {
  return (await fetch(`${server.baseUrl}/widgets/${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${server.tokens[0]}` } })).status;
}

describe('--keep-failing', () => {
  it('keeps the failing test\'s widget (and only it) past both cleanups, lists it by id with the cleanup command, and cleanup deletes it later', async () => {
    const s = await scenario(true);
    try {
      expect(await status(s.kept), 'the failing test\'s widget is still there').toBe(200);
      expect(await status(s.other), 'a widget the failure does not name is deleted as usual').toBe(404);
      expect(await status(s.before), 'the user\'s widget is untouched').toBe(200);
      expect(s.verified).toBe(false);
      expect(s.said).not.toContain('nothing left behind');
      expect(s.said).toMatch(/^KEPT \(--keep-failing\): 1 widget\(s\)/);
      expect(s.said).toContain(JSON.stringify(s.kept));
      expect(s.said).not.toContain(JSON.stringify(s.before));
      expect(s.said).toContain('widget-conformance cleanup');
      expect(s.replay).toMatch(/kept by --keep-failing/);
      const said: string[] = [];
      expect(await cleanJournal(s.http[3]!, server.tokens[0], server.tokens[1], s.file, (l) => said.push(l)), said.join('\n')).toBe(0);
      expect(await status(s.kept), 'cleanup deleted the kept widget').toBe(404);
      expect(await status(s.before)).toBe(200);
    } finally {
      await Promise.all(s.http.map((h) => h.close()));
    }
  });

  it('without it, nothing is kept: the run deletes every widget it made, and the replay recreates the widget instead', async () => {
    const s = await scenario(false);
    try {
      expect(await status(s.kept)).toBe(404);
      expect(s.verified, s.said).toBe(true);
      expect(s.said).toContain('nothing left behind');
      expect(s.replay).toMatch(/were deleted at cleanup: this replay creates each again/);
    } finally {
      await Promise.all(s.http.map((h) => h.close()));
    }
  });
});
