/**
 * The ledger's one door for writes (src/client/door.ts): against a loopback server that records
 * every request, a write sent any other way is refused before anything leaves; no module but the
 * door installs the gate or can mint a pass; every create is journalled before it is sent,
 * whatever its body; a write to a widget goes out only right after a retrieve of that id that
 * shows the widget as its create answered it, with nothing between them; a write whose answer
 * was lost is never sent again.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WidgetApi } from '../../../src/client/api.ts';
import { openCreate } from '../../../src/client/door.ts';
import { Journal, readJournal } from '../../../src/client/ledger.ts';
import { Ownership } from '../../../src/client/ownership.ts';
import { leftovers } from '../../../src/client/sweep.ts';
import { TransportError, UnprovenDeleteError } from '../../../src/errors.ts';
import { carriesMarker, newMarker } from '../../../src/harness/marker.ts';
import { HttpClient, installWriteGate, type WritePass } from '../../../src/http/client.ts';
import { startServer, type RunningServer } from '../../../src/reference/server.ts';
import { deferred } from '../support/deferred.ts';

const TOKEN = 'door-token-1';
const MARKER = newMarker();
const ROOT = new URL('../../../', import.meta.url).pathname;

const running: RunningServer[] = [];
const clients: HttpClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(running.splice(0).map((s) => s.close()));
});

interface Widget {
  id: string;
  name: string;
  created_at: string;
}

/** A small Widget server: `widgets` is its truth; `on` lets a test act on each request before it is answered. */
async function recorded(on: (req: IncomingMessage, res: ServerResponse, body: Buffer) => boolean | void = () => undefined): Promise<{ api: WidgetApi; requests: string[]; widgets: Map<string, Widget>; journal: string }> {
  const requests: string[] = [];
  const widgets = new Map<string, Widget>();
  let next = 1;
  const server = await startServer({
    async handle(req: IncomingMessage, res: ServerResponse) {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      requests.push(`${req.method} ${req.url}`);
      if (on(req, res, body) === true) return;
      const json = (status: number, answer?: unknown): void => void res.writeHead(status, { 'content-type': 'application/json' }).end(answer === undefined ? '' : JSON.stringify(answer));
      const id = decodeURIComponent((req.url ?? '').replace(/^\/v1\/widgets\/?/, ''));
      if (req.method === 'POST' && id === '') {
        const w = { id: `w${next++}`, name: (JSON.parse(body.toString('utf8')) as { name: string }).name, created_at: new Date(Date.now() + next).toISOString() };
        widgets.set(w.id, w);
        return json(201, w);
      }
      const w = widgets.get(id);
      if (req.method === 'GET') return w ? json(200, w) : json(404, { code: 'not_found', message: 'no' });
      if (req.method === 'DELETE' && w) {
        widgets.delete(id);
        return json(204);
      }
      return json(404, { code: 'not_found', message: 'no' });
    },
  });
  running.push(server);
  const http = new HttpClient({ baseUrl: server.baseUrl, timeoutMs: 5_000, concurrency: 4, maxRetries: 0, maxRetryWaitMs: 0, secrets: [TOKEN] });
  clients.push(http);
  const journal = join(mkdtempSync(join(tmpdir(), 'door-')), 'journal.jsonl');
  return { api: new WidgetApi(http, TOKEN, 'primary', new Ownership((w) => carriesMarker(w, MARKER), new Journal(journal))), requests, widgets, journal };
}

describe('one door for writes', () => {
  it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND'])('a %s without a pass, or with a forged one, is refused before anything leaves', async (method) => {
    const { api, requests } = await recorded();
    await expect(api.http.request(method, '/widgets', { body: '{}' })).rejects.toThrow(/only through the ownership ledger's door/);
    await expect(api.http.request(method, '/widgets', { body: '{}', pass: {} as WritePass })).rejects.toThrow(/only through the ownership ledger's door/);
    await expect(api.http.request(method, '/widgets', { body: '{}', pass: Object.freeze(Object.create(null)) as WritePass })).rejects.toThrow(/door/);
    expect(requests).toEqual([]);
  });

  it('a pass lets out one request, for the method and path it was minted for, and nothing else', async () => {
    const { api, requests } = await recorded();
    let kept: WritePass | undefined;
    const ticket = openCreate(api.ownership, 'primary', `${MARKER} CRUD-1 1`);
    await ticket.send('POST', '/widgets', (pass) => {
      kept = pass;
      return api.http.request('POST', '/widgets', { body: JSON.stringify({ name: `${MARKER} CRUD-1 1` }), headers: { authorization: `Bearer ${TOKEN}` }, pass });
    });
    await expect(api.http.request('POST', '/widgets', { body: '{}', pass: kept! })).rejects.toThrow(/door/);
    // Minted for POST /widgets: not a DELETE, not another path.
    await ticket.send('POST', '/widgets', async (pass) => {
      await expect(api.http.request('DELETE', '/widgets/w1', { pass })).rejects.toThrow(/door/);
      await expect(api.http.request('POST', '/widgets/w1', { pass })).rejects.toThrow(/door/);
      return api.http.request('GET', '/widgets');
    });
    expect(requests).toEqual(['POST /v1/widgets', 'GET /v1/widgets']);
  });

  it('the gate is installed once: no module can replace the door\'s check', () => {
    expect(() => installWriteGate(() => true)).toThrow(/installed once/);
  });

  it('no module of src/ or suites/ but the door installs the gate, and only WidgetApi reaches the door', () => {
    const files = (dir: string): string[] => readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
    });
    const gate: string[] = [];
    const door: string[] = [];
    const passes: string[] = [];
    for (const file of [...files(join(ROOT, 'src')), ...files(join(ROOT, 'suites'))]) {
      const text = readFileSync(file, 'utf8');
      const at = relative(ROOT, file);
      if (/installWriteGate\s*\(/.test(text)) gate.push(at);
      if (/from\s+['"][^'"]*\/door(\.ts|\.js)?['"]/.test(text) || /import\(\s*['"][^'"]*door/.test(text)) door.push(at);
      // A pass is typed WritePass wherever one is taken, handed on or made.
      if (/\bWritePass\b/.test(text)) passes.push(at);
    }
    expect(gate.sort()).toEqual(['src/client/door.ts', 'src/http/client.ts']);
    expect(door).toEqual(['src/client/api.ts']);
    expect(passes.sort()).toEqual(['src/client/api.ts', 'src/client/door.ts', 'src/http/client.ts']);
  });
});

describe('every create is journalled before it is sent', () => {
  it('FMT-4 a create of raw bytes that are not UTF-8 is journalled with its name before the server sees it, and deleted under the usual proof', async () => {
    const seen: string[][] = [];
    const { api, widgets, journal } = await recorded((req, res, body) => {
      seen.push(readJournal(journal).map((e) => e.kind));
      if (req.method !== 'POST') return;
      // As Express does: the bytes become U+FFFD and the widget is stored.
      const w = { id: 'w-fffd', name: (JSON.parse(body.toString('utf8')) as { name: string }).name, created_at: new Date().toISOString() };
      widgets.set(w.id, w);
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(w));
      return true;
    });
    const name = `${MARKER} FMT-4 1`;
    const res = await api.create({ name }, { raw: Buffer.concat([Buffer.from(`{"name":"${name}`), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]) });
    expect(res.status).toBe(201);
    expect(seen[0]).toEqual(['sent']);
    expect(readJournal(journal)).toMatchObject([{ kind: 'sent', tag: name }, { kind: 'created', id: 'w-fffd', name: `${name}\ufffd\ufffd` }]);
    expect((await api.remove('w-fffd')).status).toBe(204);
    expect(widgets.size).toBe(0);
  });
});

describe('proof at the moment of the write', () => {
  it('CRUD-4 a DELETE goes out right after its own retrieve, never on an earlier proof: an id given to another client\'s widget in between is not deleted', async () => {
    let reassign = false;
    const { api, requests, widgets } = await recorded((req) => {
      // Between the suite's retrieve and its DELETE: nothing is sent, so the only place a race
      // can strike is before the door's retrieve.
      if (reassign && req.method === 'GET') {
        widgets.set('w1', { id: 'w1', name: 'another client\'s widget', created_at: new Date().toISOString() });
        reassign = false;
      }
    });
    await api.create({ name: `${MARKER} CRUD-4 1` });
    expect((await api.retrieve('w1')).status).toBe(200);
    reassign = true;
    await expect(api.remove('w1')).rejects.toBeInstanceOf(UnprovenDeleteError);
    expect(widgets.get('w1')?.name).toBe('another client\'s widget');
    expect(requests).toEqual(['POST /v1/widgets', 'GET /v1/widgets/w1', 'GET /v1/widgets/w1']);
  });

  it('CRUD-4 a widget with the run marker but another created_at than the create answered is not the suite\'s widget: not deleted', async () => {
    const { api, requests, widgets } = await recorded();
    await api.create({ name: `${MARKER} CRUD-4 2` });
    // Another widget of the run (or a copy of its name) now stands at the id.
    widgets.set('w1', { ...widgets.get('w1')!, created_at: '2001-01-01T00:00:00Z' });
    const refused = await api.remove('w1').catch((e: unknown) => e);
    expect((refused as UnprovenDeleteError).reason).toMatch(/a retrieve showed another widget at this id than its create answered \(another created_at or name\)/);
    expect(requests.filter((r) => r.startsWith('DELETE'))).toEqual([]);
  });

  it('ISO a delete from another account that rests on the owner\'s proof, refused there, says the owner\'s reason, not only that no create answered', async () => {
    // The server ignores accounts on retrieve (the second token sees w1), and shows the owner w1 without the marker.
    const { api, requests, widgets } = await recorded((req, res) => {
      if (req.method !== 'GET' || req.url !== '/v1/widgets/w1' || req.headers.authorization !== `Bearer ${TOKEN}` || !widgets.has('w1')) return;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...widgets.get('w1')!, name: 'unmarked' }));
      return true;
    });
    const peers = new Map<string, WidgetApi>();
    const primary = new WidgetApi(api.http, TOKEN, 'primary', api.ownership, {}, peers);
    const second = new WidgetApi(api.http, 'door-token-2', 'second', api.ownership, {}, peers);
    await primary.create({ name: `${MARKER} ISO 1` });
    const refused = await second.remove('w1').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UnprovenDeleteError);
    expect((refused as UnprovenDeleteError).reason).toMatch(/^no create of this run answered this id in this account, and in the primary account, whose create did: a retrieve shows a widget without the run marker at this id/);
    expect(requests.filter((r) => r.startsWith('DELETE'))).toEqual([]);
  });

  it('CRUD-4 a created_at written with another precision or offset is the same instant: deleted', async () => {
    const { api, widgets } = await recorded();
    await api.create({ name: `${MARKER} CRUD-4 3` });
    const w = widgets.get('w1')!;
    const ms = Date.parse(w.created_at);
    // The same instant at +02:00, with microseconds.
    widgets.set('w1', { ...w, created_at: new Date(ms + 2 * 3_600_000).toISOString().replace(/\.(\d{3})Z$/, '.$1000+02:00') });
    expect((await api.remove('w1')).status).toBe(204);
  });

  it('CRUD-4 two deletes of one id at once are taken in turn: the second one\'s retrieve comes after the first DELETE', async () => {
    const { api, requests } = await recorded();
    await api.create({ name: `${MARKER} CRUD-4 4` });
    const outcomes = await Promise.allSettled([api.remove('w1'), api.remove('w1')]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected']);
    expect(requests).toEqual(['POST /v1/widgets', 'GET /v1/widgets/w1', 'DELETE /v1/widgets/w1', 'GET /v1/widgets/w1']);
  });

  it('CRUD-4 a DELETE whose answer was lost is never sent again, even when a retrieve shows the marker there; the id is listed with the reason', async () => {
    const dropped = deferred<void>();
    const { api, requests, widgets, journal } = await recorded((req, res) => {
      if (req.method !== 'DELETE') return;
      // The server deletes, gives the id at once to another widget (copying the name), and the connection drops.
      const w = widgets.get('w1')!;
      widgets.set('w1', { ...w });
      res.destroy();
      dropped.resolve();
      return true;
    });
    await api.create({ name: `${MARKER} CRUD-4 5` });
    await expect(api.remove('w1')).rejects.toBeInstanceOf(TransportError);
    await dropped.promise;
    await expect(api.remove('w1')).rejects.toBeInstanceOf(UnprovenDeleteError);
    expect(requests.filter((r) => r.startsWith('DELETE'))).toHaveLength(1);
    expect(leftovers(api.ownership)).toEqual([{ account: 'primary', id: 'w1', reason: expect.stringMatching(/^DELETE was sent and its answer lost/) }]);
    // A cleanup reading the journal sends nothing to it either.
    const later = new Ownership((w) => carriesMarker(w, MARKER));
    later.loadEntries(readJournal(journal));
    expect(later.lostWrite('w1')).toMatch(/^DELETE was sent and its answer lost/);
  });
});
