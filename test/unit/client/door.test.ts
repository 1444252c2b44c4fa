/**
 * The ledger's one door for writes (src/client/door.ts): against a loopback server that records
 * every request, a write sent any other way is refused before anything leaves, and holding a
 * client or an account gives no way to write around the door; every create is journalled before
 * it is sent, whatever its body; a write to a widget goes out only right after a retrieve of that
 * id that shows the widget as its create answered it, with nothing between them; a write whose
 * answer was lost is never sent again. (That no module reaches the network any other way is
 * test/unit/network.test.ts.)
 */
import { mkdtempSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAccounts } from '../../../src/client/accounts.ts';
import type { WidgetApi } from '../../../src/client/api.ts';
import { openDoor, type Door, type DoorSettings } from '../../../src/client/door.ts';
import { Journal, readJournal } from '../../../src/client/ledger.ts';
import { Ownership } from '../../../src/client/ownership.ts';
import { leftovers } from '../../../src/client/sweep.ts';
import { CollectionWriteRefused, TransportError, UnprovenDeleteError } from '../../../src/errors.ts';
import { carriesMarker, newMarker } from '../../../src/harness/marker.ts';
import { HttpClient, takeWriter } from '../../../src/http/client.ts';
import { startServer, type RunningServer } from '../../../src/reference/server.ts';
import { deferred } from '../support/deferred.ts';

const TOKEN = 'door-token-1';
const SECOND_TOKEN = 'door-token-2';
const MARKER = newMarker();

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

/** A small Widget server: `widgets` is its truth; `on` lets a test act on each request before it is answered; ids from w<from>. */
async function recorded(on: (req: IncomingMessage, res: ServerResponse, body: Buffer) => boolean | void = () => undefined, from = 1): Promise<{ api: WidgetApi; second: WidgetApi; requests: string[]; widgets: Map<string, Widget>; journal: string }> {
  const requests: string[] = [];
  const widgets = new Map<string, Widget>();
  let next = from;
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
  const [api, second] = openAccounts(http, new Ownership((w) => carriesMarker(w, MARKER), new Journal(journal)), [{ name: 'primary', token: TOKEN }, { name: 'second', token: SECOND_TOKEN }]) as [WidgetApi, WidgetApi];
  return { api, second, requests, widgets, journal };
}

/** A door over a fresh client of the last server, with no account (its creates need none). */
function standaloneDoor(settings: DoorSettings): Door {
  const http = new HttpClient({ baseUrl: running.at(-1)!.baseUrl, timeoutMs: 5_000, concurrency: 1, maxRetries: 0, maxRetryWaitMs: 0, secrets: [TOKEN] });
  clients.push(http);
  return openDoor(http, new Ownership((w) => carriesMarker(w, MARKER)), settings, { names: () => [], credential: () => '', retrieve: () => Promise.reject(new Error('no account')) });
}

/** The accounts of a per-account store (ids numbered per account, w1, w2 …) and the requests it saw, each with the account it was sent as ("-" for none). */
async function perAccount(settings: DoorSettings = { allowCollectionWrites: false }) {
  const requests: string[] = [];
  const store = new Map<string, Map<string, Widget>>([['alice', new Map()], ['bob', new Map()]]);
  const accounts: Record<string, string> = { [`Bearer ${TOKEN}`]: 'alice', [`Bearer ${SECOND_TOKEN}`]: 'bob' };
  const server = await startServer({
    async handle(req: IncomingMessage, res: ServerResponse) {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const account = accounts[req.headers.authorization ?? ''];
      requests.push(`${req.method} ${req.url} ${account ?? '-'}`);
      const json = (status: number, answer?: unknown): void => void res.writeHead(status, { 'content-type': 'application/json' }).end(answer === undefined ? '' : JSON.stringify(answer));
      if (account === undefined) return json(401, { code: 'unauthorized', message: 'no' });
      const widgets = store.get(account)!;
      const id = decodeURIComponent((req.url ?? '').replace(/^\/v1\/widgets\/?/, '').replace(/\?.*$/, ''));
      if ((req.method === 'POST' || req.method === 'PUT') && id === '') {
        const w = { id: `w${widgets.size + 1}`, name: (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { name: string }).name, created_at: new Date().toISOString() };
        widgets.set(w.id, w);
        return json(201, w);
      }
      const w = widgets.get(id);
      if (req.method === 'GET' && w) return json(200, w);
      if (req.method === 'DELETE' && w) return void (widgets.delete(id), json(204));
      return json(404, { code: 'not_found', message: 'no' });
    },
  });
  running.push(server);
  const http = new HttpClient({ baseUrl: server.baseUrl, timeoutMs: 5_000, concurrency: 2, maxRetries: 0, maxRetryWaitMs: 0, secrets: [TOKEN, SECOND_TOKEN] });
  clients.push(http);
  const [primary, second] = openAccounts(http, new Ownership((w) => carriesMarker(w, MARKER)), [{ name: 'primary', token: TOKEN }, { name: 'second', token: SECOND_TOKEN }], {}, settings) as [WidgetApi, WidgetApi];
  return {
    primary,
    second,
    requests,
    widget: (account: string, id: string) => store.get(account)!.get(id),
    own: (account: string, id: string, name: string) => void store.get(account)!.set(id, { id, name, created_at: '2020-01-01T00:00:00Z' }),
    forget: (account: string, id: string) => void store.get(account)!.delete(id),
  };
}

describe('one door for writes', () => {
  it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND', 'delete', 'Get'])('a %s through the client\'s request() is refused before anything leaves', async (method) => {
    const { api, requests } = await recorded();
    await expect(api.http.request(method, '/widgets')).rejects.toThrow(/only through the ownership ledger's door/);
    await expect(api.http.request(method, '/widgets/w1', { headers: { authorization: `Bearer ${TOKEN}` } })).rejects.toThrow(/only through the ownership ledger's door/);
    expect(requests).toEqual([]);
  });

  it('a client\'s writer is taken once, by the door opened with it: holding the client gives no writer, and no second door opens over it', async () => {
    const { api, requests } = await recorded();
    expect(() => takeWriter(api.http)).toThrow(/already taken/);
    expect(() => openDoor(api.http, api.ownership, { allowCollectionWrites: true }, { names: () => [], credential: () => '', retrieve: () => Promise.reject(new Error('none')) })).toThrow(/already taken/);
    expect(() => openAccounts(api.http, api.ownership, [{ name: 'primary', token: TOKEN }])).toThrow(/already taken/);
    expect(requests).toEqual([]);
  });

  it('CRUD-3 holding an account (as a test holds t.api) lets no one write to a widget the run did not create, by any of its methods', async () => {
    const { api, requests, widgets } = await recorded();
    widgets.set('p_a0', { id: 'p_a0', name: 'the user\'s widget', created_at: '2020-01-01T00:00:00Z' });
    const before = JSON.stringify([...widgets]);
    const attempts: Array<() => Promise<unknown>> = [
      () => api.remove('p_a0'),
      () => api.remove('p_a0', { authorization: null }),
      () => api.remove('p_a0', { authorization: `Bearer ${SECOND_TOKEN}` }),
      () => api.sendUndefinedMethod('PUT', 'p_a0', { name: 'x' }),
      () => api.sendUndefinedMethod('PATCH', 'p_a0', { name: 'x' }),
      () => api.sendUndefinedMethod('POST', 'p_a0', { name: 'x' }),
      () => api.sendUndefinedMethod('PUT', undefined, { name: 'x' }),
      () => api.removeAgain('p_a0'),
      () => api.http.request('DELETE', '/widgets/p_a0'),
    ];
    for (const attempt of attempts) await attempt().catch(() => undefined);
    // No write but GETs (the proofs, which found the user's widget without the marker) reached the server.
    expect(requests.filter((r) => !r.startsWith('GET '))).toEqual([]);
    expect(JSON.stringify([...widgets])).toBe(before);
  });

  it('a create ticket sends POST /widgets and nothing else (PUT and PATCH there only when the run allows collection writes)', async () => {
    const { requests } = await recorded();
    const door = standaloneDoor({ allowCollectionWrites: false });
    const ticket = door.openCreate('primary', `${MARKER} CRUD-1 1`);
    const credential = { authorization: `Bearer ${TOKEN}` };
    // A caller that gets round the types: the ticket still sends nothing but a create.
    await expect(ticket.send({ method: 'DELETE' as 'POST', credential, contentType: 'application/json' })).rejects.toThrow(/POST \/widgets only/);
    // PUT and PATCH on the collection only when the run's settings (read by the door when it opened) allow them.
    await expect(ticket.send({ method: 'PUT', credential, contentType: 'application/json' })).rejects.toThrow(/with --allow-collection-writes/);
    expect(requests).toEqual([]);
    expect((await ticket.send({ credential, contentType: 'application/json', body: JSON.stringify({ name: `${MARKER} CRUD-1 1` }) })).status).toBe(201);
    expect(requests).toEqual(['POST /v1/widgets']);
  });
});

describe('a write is bound whole: method, target with its query, credential and media type', () => {
  it.each(['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'Application/X-WWW-Form-Urlencoded;charset=utf-8', 'application/xml'])('CRUD-7 a create sent as %s is refused before anything leaves: a server reads fields (_method among them) from a form', async (contentType) => {
    const { requests } = await recorded();
    const ticket = standaloneDoor({ allowCollectionWrites: true }).openCreate('primary', 'x');
    await expect(ticket.send({ credential: { authorization: `Bearer ${TOKEN}` }, contentType, body: 'name=x' })).rejects.toThrow(/is sent as JSON, text\/plain or with no Content-Type/);
    expect(requests).toEqual([]);
  });

  it.each(['application/json', 'Application/JSON', 'application/json;charset=utf-8', 'application/json ; charset=UTF-8', 'application/json; charset="utf-8"', 'text/plain', null])('CRUD-7 a create sent as %s (as the suite sends one) goes out', async (contentType) => {
    const { requests } = await recorded();
    const ticket = standaloneDoor({ allowCollectionWrites: false }).openCreate('primary', 'x');
    await ticket.send({ credential: { authorization: `Bearer ${TOKEN}` }, contentType, body: JSON.stringify({ name: `${MARKER} CRUD-7 1` }) });
    expect(requests).toEqual(['POST /v1/widgets']);
  });

  it('MAL-5 a write carries no query but a credential parameter: a create with ?_method=PUT or any other parameter is refused, access_token is sent', async () => {
    const { requests } = await recorded();
    const ticket = standaloneDoor({ allowCollectionWrites: false }).openCreate('primary', 'x');
    const body = JSON.stringify({ name: `${MARKER} AUTH-1 1` });
    await expect(ticket.send({ credential: { authorization: null, query: { _method: 'PUT' } }, contentType: 'application/json', body })).rejects.toThrow(/no query but a credential parameter/);
    await expect(ticket.send({ credential: { authorization: null, query: { limit: '1' } }, contentType: 'application/json', body })).rejects.toThrow(/no query but a credential parameter/);
    expect(requests).toEqual([]);
    await ticket.send({ credential: { authorization: null, query: { access_token: TOKEN } }, contentType: 'application/json', body });
    expect(requests).toEqual([`POST /v1/widgets?access_token=${TOKEN}`]);
  });

  it('MAL-5 a create whose body asks for another method (a JSON member or a form field _method) is refused by the client before anything leaves', async () => {
    const { api, requests } = await recorded();
    await expect(api.create({ name: `${MARKER} MAL-5 1`, _method: 'PUT' })).rejects.toThrow(/asks for another method .*body field "_method"/);
    await expect(api.create(undefined, { raw: '_method=PUT&name=x', contentType: 'text/plain' })).rejects.toThrow(/body field "_method"/);
    expect(requests).toEqual([]);
  });

  it('MAL-5 PUT and PATCH on the collection follow the run\'s settings, read by the door when it was opened: no caller\'s argument can allow them', async () => {
    const { api, requests } = await recorded();
    await expect(api.sendUndefinedMethod('PUT', undefined, { name: 'x' })).rejects.toBeInstanceOf(CollectionWriteRefused);
    // An argument the method no longer has changes nothing (a caller that gets round the types).
    await expect((api.sendUndefinedMethod as (...args: unknown[]) => Promise<unknown>).call(api, 'PATCH', undefined, { name: 'x' }, true)).rejects.toBeInstanceOf(CollectionWriteRefused);
    expect(requests).toEqual([]);
    const allowed = await perAccount({ allowCollectionWrites: true });
    await allowed.primary.sendUndefinedMethod('PUT', undefined, { name: `${MARKER} MAL-5 1` });
    expect(allowed.requests).toEqual(['PUT /v1/widgets alice']);
  });

  it('ISO-3 a delete proven with the primary account\'s token is not sent with the second\'s where the ids are numbered per account: the second account\'s own w1 is never reached', async () => {
    const s = await perAccount();
    await s.primary.create({ name: `${MARKER} ISO-3 1` });
    s.own('bob', 'w1', 'bob\'s own widget');
    await expect(s.primary.remove('w1', { authorization: `Bearer ${SECOND_TOKEN}` })).rejects.toBeInstanceOf(UnprovenDeleteError);
    await expect(s.second.remove('w1')).rejects.toBeInstanceOf(UnprovenDeleteError);
    expect(s.requests.filter((r) => r.startsWith('DELETE'))).toEqual([]);
    expect(s.widget('bob', 'w1')?.name).toBe('bob\'s own widget');
  });

  it('ISO-3 where the second account shows nothing at the id, its delete of the primary\'s proven widget goes out (and a conformant server refuses it)', async () => {
    const s = await perAccount();
    await s.primary.create({ name: `${MARKER} ISO-3 2` });
    expect((await s.second.remove('w1')).status).toBe(404);
    expect(s.requests.slice(-1)).toEqual(['DELETE /v1/widgets/w1 bob']);
    expect(s.widget('alice', 'w1')).toBeDefined();
  });

  it.each([
    ['no Authorization header', { authorization: null }],
    ['an unknown token', { authorization: 'Bearer wcs-unknown-0123' }],
    ['the token under the Basic scheme', { authorization: `Basic ${TOKEN}` }],
    ['the token only as an access_token parameter', { authorization: null, query: { access_token: TOKEN } }],
  ])('AUTH-4 a delete with %s is sent only when every account the run holds shows the suite\'s widget or nothing at the id', async (_label, auth) => {
    const s = await perAccount();
    await s.primary.create({ name: `${MARKER} AUTH-4 1` });
    // The second account has a widget of its own at the same id: a server that took the credential for it would delete that.
    s.own('bob', 'w1', 'bob\'s own widget');
    const refused = await s.primary.remove('w1', auth).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UnprovenDeleteError);
    expect((refused as UnprovenDeleteError).reason).toMatch(/no account's own .* in the second account: no create of this run answered this id/);
    expect((refused as UnprovenDeleteError).why, 'nothing about the widget: the credential could reach another account\'s').toBe('credential');
    expect(s.requests.filter((r) => r.startsWith('DELETE'))).toEqual([]);
    s.forget('bob', 'w1');
    // Nothing at the id in the second account: the delete goes out with the credential under test, and the server refuses it.
    expect((await s.primary.remove('w1', auth)).status).toBe(401);
    const query = 'query' in auth ? `?access_token=${TOKEN}` : '';
    expect(s.requests.slice(-3)).toEqual(['GET /v1/widgets/w1 bob', 'GET /v1/widgets/w1 alice', `DELETE /v1/widgets/w1${query} -`]);
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

describe('a test\'s own retrieve as the proof (retrieve, judge, then delete on this proof)', () => {
  it('CRUD-4 the retrieve is judged as soon as it is answered, and the DELETE follows it on the same proof: one retrieve, not two', async () => {
    const { api, requests } = await recorded();
    await api.create({ name: `${MARKER} CRUD-4 6` });
    const seen: number[] = [];
    const { retrieved, removed } = await api.retrieveThenRemove('w1', (res) => void seen.push(res.status));
    expect(seen).toEqual([200]);
    expect(retrieved.status).toBe(200);
    expect((removed as { status: number }).status).toBe(204);
    expect(requests).toEqual(['POST /v1/widgets', 'GET /v1/widgets/w1', 'DELETE /v1/widgets/w1']);
  });

  it('CRUD-4 what the judge throws ends the write unsent and reaches the caller: a failing test\'s widget stays (for --keep-failing, or the cleanup)', async () => {
    const { api, requests, widgets } = await recorded();
    await api.create({ name: `${MARKER} CRUD-4 7` });
    await expect(api.retrieveThenRemove('w1', () => { throw new Error('not as created'); })).rejects.toThrow('not as created');
    expect(widgets.has('w1')).toBe(true);
    expect(requests).toEqual(['POST /v1/widgets', 'GET /v1/widgets/w1']);
  });

  it('CRUD-4 the judged retrieve is still the proof: an id given to another client\'s widget is judged, and not deleted', async () => {
    const { api, requests, widgets } = await recorded();
    await api.create({ name: `${MARKER} CRUD-4 8` });
    widgets.set('w1', { id: 'w1', name: 'another client\'s widget', created_at: new Date().toISOString() });
    const { retrieved, removed } = await api.retrieveThenRemove('w1', () => undefined);
    expect((retrieved.json as Widget).name).toBe('another client\'s widget');
    expect(removed).toBeInstanceOf(UnprovenDeleteError);
    expect(widgets.get('w1')?.name).toBe('another client\'s widget');
    expect(requests.filter((r) => r.startsWith('DELETE'))).toEqual([]);
  });

  it('CRUD-4 a delete with a credential no account owns reads the owner\'s proof last, right before the write', async () => {
    const { primary, requests } = await perAccount();
    await primary.create({ name: `${MARKER} AUTH-4 1` });
    const judged: string[] = [];
    await primary.remove('w1', { authorization: null }, () => void judged.push(requests.at(-1)!));
    // The second account's proof, then the owner's (judged), then the DELETE without credentials.
    expect(requests).toEqual(['POST /v1/widgets alice', 'GET /v1/widgets/w1 bob', 'GET /v1/widgets/w1 alice', 'DELETE /v1/widgets/w1 -']);
    expect(judged).toEqual(['GET /v1/widgets/w1 alice']);
  });

  it('DEL-1 a retrieve with the owner\'s token sent after its DELETE answered 2xx, answered 404, proves the widget gone: the cleanup sends nothing more for it', async () => {
    const { api, requests } = await recorded();
    await api.create({ name: `${MARKER} DEL-1 1` });
    await api.remove('w1');
    expect(api.ownership.get('primary', 'w1')?.gone).toBeUndefined();
    expect((await api.retrieve('w1')).status).toBe(404);
    expect(api.ownership.get('primary', 'w1')?.gone).toBe(true);
    expect(leftovers(api.ownership)).toEqual([]);
    expect(requests).toEqual(['POST /v1/widgets', 'GET /v1/widgets/w1', 'DELETE /v1/widgets/w1', 'GET /v1/widgets/w1']);
  });

  it('DEL-1 a retrieve without the owner\'s token, or one sent before the DELETE was answered, proves nothing gone', async () => {
    const { api } = await recorded();
    await api.create({ name: `${MARKER} DEL-1 2` });
    await api.retrieve('w9');
    const before = api.retrieve('w1');
    await api.remove('w1');
    await before;
    expect((await api.retrieve('w1', { authorization: null })).status).toBe(404);
    expect(api.ownership.get('primary', 'w1')?.gone).toBeUndefined();
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
    const { api: primary, second, requests, widgets } = await recorded((req, res) => {
      if (req.method !== 'GET' || req.url !== '/v1/widgets/w1' || req.headers.authorization !== `Bearer ${TOKEN}` || !widgets.has('w1')) return;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...widgets.get('w1')!, name: 'unmarked' }));
      return true;
    });
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

describe('a DELETE of an id extending the run\'s widget (DEL-4)', () => {
  /** The widget the user held before the run, at the start of the run's ids: a lenient lookup's victim. */
  const USERS = { id: 'w1', name: 'the user\'s widget', created_at: '2020-01-01T00:00:00Z' };

  /** A server that reads ids leniently (`on`: which methods): the widget at the exact id, else the first whose id begins it; ids from w<from>. */
  async function lenient(on: { retrieve: boolean; delete: boolean }, from = 1) {
    const s = await recorded((req, res) => {
      const id = decodeURIComponent((req.url ?? '').replace(/^\/v1\/widgets\/?/, ''));
      if (id === '' || s.widgets.has(id)) return;
      const reached = [...s.widgets.keys()].find((k) => id.startsWith(k));
      if (reached === undefined) return;
      if (req.method === 'GET' && on.retrieve) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(s.widgets.get(reached)));
        return true;
      }
      if (req.method === 'DELETE' && on.delete) {
        s.widgets.delete(reached);
        res.writeHead(204).end();
        return true;
      }
    }, from);
    return s;
  }

  it('DEL-4 goes out on the proof\'s slot right after fresh retrieves of the run\'s widget and of the exact id, and a conformant server deletes nothing', async () => {
    const { api, requests, widgets } = await recorded();
    await api.create({ name: `${MARKER} DEL-4 1` });
    expect((await api.removeExtension('w1', 'w1-wcsabcde')).status).toBe(404);
    expect(requests.slice(1)).toEqual(['GET /v1/widgets/w1', 'GET /v1/widgets/w1-wcsabcde', 'DELETE /v1/widgets/w1-wcsabcde']);
    expect(widgets.has('w1')).toBe(true);
  });

  it('DEL-4 on a server whose retrieve and delete read ids leniently, the DELETE goes out when the exact id shows the run\'s own widget, and reaches only it', async () => {
    const { api, requests, widgets } = await lenient({ retrieve: true, delete: true });
    await api.create({ name: `${MARKER} DEL-4 2` });
    expect((await api.removeExtension('w1', 'w1wcsabcde')).status).toBe(204);
    expect(requests.filter((r) => r.startsWith('DELETE'))).toEqual(['DELETE /v1/widgets/w1wcsabcde']);
    expect(widgets.has('w1')).toBe(false);
  });

  it.each([
    ['both methods', { retrieve: true, delete: true }, /a retrieve of this very id answered neither an error \(4xx\) nor the widget it extends/],
    ['DELETE alone', { retrieve: false, delete: true }, /the run knows the id "w1" in this account, which a lookup that reads ids leniently could take this one for/],
  ])('CRUD-3 on a server that reads ids leniently on %s, a DELETE aimed at the run\'s widget w12 is never sent where the user\'s w1 begins it too', async (_label, on, reason) => {
    // The run's widget at w12: its id begins with the user's w1, which the inventory walk listed.
    const s = await lenient(on, 12);
    s.widgets.set(USERS.id, USERS);
    s.api.ownership.setInventory('primary', [USERS.id], true);
    await s.api.create({ name: `${MARKER} DEL-4 12` });
    const refused = await s.api.removeExtension('w12', 'w12-wcsabcde').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UnprovenDeleteError);
    expect(refused).toMatchObject({ why: 'extension', reason: expect.stringMatching(reason) });
    expect(s.widgets.get(USERS.id)).toEqual(USERS);
    expect(s.requests.filter((r) => r.startsWith('DELETE /v1/widgets/w12'))).toEqual([]);
  });

  it('CRUD-3 never for an id that does not extend the widget, one a create answered, or with another credential: nothing is retrieved or deleted', async () => {
    const { api, requests } = await recorded();
    await api.create({ name: `${MARKER} DEL-4 3` });
    await api.create({ name: `${MARKER} DEL-4 4` });
    const before = requests.length;
    await expect(api.removeExtension('w1', 'w2wcsabcde')).rejects.toMatchObject({ why: 'extension', reason: expect.stringMatching(/does not extend the run's widget/) });
    await expect(api.removeExtension('w1', 'w1')).rejects.toMatchObject({ why: 'extension' });
    // `w1.`, `W1`, `w1/`: the same id to a server that normalises ids, not an extension.
    for (const lookalike of ['w1.', 'w1/', 'w1 ']) await expect(api.removeExtension('w1', lookalike)).rejects.toMatchObject({ why: 'extension' });
    expect(requests.slice(before)).toEqual([]);
    // w1 extends nothing of w1's, and w12 would be deleted as the run's own widget, never as an extension.
    await expect(api.removeExtension('w1', 'w2')).rejects.toMatchObject({ why: 'extension' });
    expect(requests.filter((r) => r.startsWith('DELETE'))).toEqual([]);
  });

  it('CRUD-4 the widget it extends must be the run\'s own, live, as its create answered it: a widget without the marker there stops it, said as CRUD-4\'s', async () => {
    const { api, requests, widgets } = await recorded();
    await api.create({ name: `${MARKER} DEL-4 5` });
    widgets.set('w1', { ...widgets.get('w1')!, name: 'renamed' });
    await expect(api.removeExtension('w1', 'w1-wcsabcde')).rejects.toMatchObject({ why: 'extension', broken: 'CRUD-4' });
    expect(requests.filter((r) => r.startsWith('DELETE'))).toEqual([]);
  });

  it('CRUD-4 a DELETE of an extension whose answer was lost is never sent again, nor any write to the widget it extends', async () => {
    const { api, requests } = await recorded((req, res) => {
      if (req.method !== 'DELETE') return;
      res.destroy();
      return true;
    });
    await api.create({ name: `${MARKER} DEL-4 6` });
    await expect(api.removeExtension('w1', 'w1-wcsabcde')).rejects.toBeInstanceOf(TransportError);
    expect(api.ownership.lostWrite('w1')).toMatch(/to an extension of this id$/);
    await expect(api.remove('w1')).rejects.toMatchObject({ why: 'lost-write' });
    expect(requests.filter((r) => r.startsWith('DELETE'))).toEqual(['DELETE /v1/widgets/w1-wcsabcde']);
  });
});
