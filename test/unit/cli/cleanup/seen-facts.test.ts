/**
 * Every identifying fact the run saw of its widget is journalled and proves with it: a create
 * answered without created_at (an FMT-3 fault), a later retrieve that showed it, then the id given
 * to another client's widget with the same name. The run's proofs and `cleanup`'s both hold the
 * widget to the created_at the retrieve showed, so the other client's widget is never deleted.
 */
import { mkdtempSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAccounts } from '../../../../src/client/accounts.ts';
import type { WidgetApi } from '../../../../src/client/api.ts';
import { Journal, readJournal, targetOf } from '../../../../src/client/ledger.ts';
import { Ownership } from '../../../../src/client/ownership.ts';
import { takeInventory } from '../../../../src/client/sweep.ts';
import { cleanJournal } from '../../../../src/cli/cleanup/journal.ts';
import { carriesMarker, newMarker } from '../../../../src/harness/marker.ts';
import { client, closeAll } from './killed-run.ts';
import { startServer } from '../../../../src/reference/server.ts';

afterEach(closeAll);

const TOKEN = 'seen-token-alice';

interface Held {
  id: string;
  name: string;
  created_at: string;
}

/** A store whose create answers leave created_at out (retrieves and lists show it), and a hand to give an id to another client's widget. */
async function withoutCreatedAt(): Promise<{ baseUrl: string; widgets: Map<string, Held>; deletes: string[]; close(): Promise<void> }> {
  const widgets = new Map<string, Held>();
  const deletes: string[] = [];
  let n = 0;
  const server = await startServer({
    async handle(req: IncomingMessage, res: ServerResponse) {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const json = (status: number, body?: unknown): void => void res.writeHead(status, { 'content-type': 'application/json' }).end(body === undefined ? '' : JSON.stringify(body));
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return json(401, { code: 'unauthorized', message: 'no' });
      const path = (req.url ?? '').replace(/^\/v1/, '').replace(/\?.*$/, '');
      if (path === '/widgets' && req.method === 'GET') return json(200, { data: [...widgets.values()], has_more: false });
      if (path === '/widgets' && req.method === 'POST') {
        n += 1;
        const w = { id: `w${n}`, name: (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { name: string }).name, created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString() };
        widgets.set(w.id, w);
        return json(201, { id: w.id, name: w.name });
      }
      const id = decodeURIComponent(path.replace(/^\/widgets\//, ''));
      const w = widgets.get(id);
      if (req.method === 'GET') return w ? json(200, w) : json(404, { code: 'not_found', message: 'no' });
      if (req.method === 'DELETE' && w) {
        widgets.delete(id);
        deletes.push(id);
        return json(204);
      }
      json(404, { code: 'not_found', message: 'no' });
    },
  });
  return { baseUrl: server.baseUrl, widgets, deletes, close: () => server.close() };
}

/** A run that created one widget, retrieved it once, and was killed before any delete. */
async function killedAfterARetrieve(): Promise<{ store: Awaited<ReturnType<typeof withoutCreatedAt>>; file: string; id: string; api: WidgetApi }> {
  const store = await withoutCreatedAt();
  const file = join(mkdtempSync(join(tmpdir(), 'seen-')), 'widget-journal-x.jsonl');
  const marker = newMarker();
  const journal = new Journal(file);
  journal.append({ kind: 'run', marker, at: new Date().toISOString(), target: targetOf(store.baseUrl) });
  const [api] = openAccounts(client(store.baseUrl, [TOKEN]), new Ownership((w) => carriesMarker(w, marker), journal), [{ name: 'primary', token: TOKEN }]) as [WidgetApi];
  await takeInventory(api, 5);
  const id = ((await api.create({ name: `${marker} CRUD-1 1` })).json as { id: string }).id;
  expect((await api.retrieve(id)).status).toBe(200);
  return { store, file, id, api };
}

describe('identifying facts the run saw, journalled and proven with', () => {
  it('CRUD-4 a created_at a retrieve showed, where the create\'s answer had none, is journalled once', async () => {
    const { store, file, id, api } = await killedAfterARetrieve();
    try {
      await api.retrieve(id);
      const seen = readJournal(file).filter((e) => e.kind === 'seen');
      expect(seen).toEqual([{ kind: 'seen', account: 'primary', id, created_at: store.widgets.get(id)!.created_at }]);
    } finally {
      await store.close();
    }
  });

  it('CRUD-4 cleanup does not delete another client\'s widget given the id with the same name: the created_at the run saw tells them apart', async () => {
    const { store, file, id } = await killedAfterARetrieve();
    try {
      // The run's widget expires; the store gives its id to another client's widget, a copy of the name.
      const mine = store.widgets.get(id)!;
      store.widgets.set(id, { ...mine, created_at: '2026-02-02T00:00:00.000Z' });
      const said: string[] = [];
      const code = await cleanJournal(client(store.baseUrl, [TOKEN]), TOKEN, undefined, file, (l) => said.push(l));
      expect(store.deletes, said.join('\n')).toEqual([]);
      expect(code).toBe(3);
      expect(said.join('\n')).toContain(`not proven gone: primary account, id ${JSON.stringify(id)}`);
    } finally {
      await store.close();
    }
  });

  it('CRUD-1 the run\'s own widget, still there, is deleted by cleanup as usual', async () => {
    const { store, file, id } = await killedAfterARetrieve();
    try {
      const said: string[] = [];
      const code = await cleanJournal(client(store.baseUrl, [TOKEN]), TOKEN, undefined, file, (l) => said.push(l));
      expect(store.deletes, said.join('\n')).toEqual([id]);
      expect(code).toBe(0);
    } finally {
      await store.close();
    }
  });
});
