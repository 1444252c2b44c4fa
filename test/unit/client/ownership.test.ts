/**
 * Proof of ownership (src/ownership.ts, WidgetApi.remove) and run markers: against a scripted
 * server that records every request, a DELETE goes out only after the server showed the run
 * marker at that id, an id that is not one safe path segment is never sent, and names that
 * merely resemble a marker are not taken for one.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { WidgetApi } from '../../../src/client/api.ts';
import { openAccounts } from '../../../src/client/accounts.ts';
import { UnprovenDeleteError, UnsafeIdError } from '../../../src/errors.ts';
import { carriesAnyMarker, carriesMarker, markersIn, newMarker } from '../../../src/harness/marker.ts';
import { HttpClient } from '../../../src/http/client.ts';
import { Ownership, unsafeSegment } from '../../../src/client/ownership.ts';
import { startServer, type RunningServer } from '../../../src/reference/server.ts';

const TOKEN = 'ownership-token-1';
const MARKER = newMarker();

const running: RunningServer[] = [];
const clients: HttpClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** What the scripted server holds: widgets by id, as it shows them on retrieve. */
type Shown = Record<string, Record<string, unknown>>;

async function scripted(shown: Shown, createAnswer: Record<string, unknown>): Promise<{ api: WidgetApi; requests: string[] }> {
  const requests: string[] = [];
  const server = await startServer({
    handle(req: IncomingMessage, res: ServerResponse) {
      requests.push(`${req.method} ${req.url}`);
      const json = (status: number, body?: unknown): void => void res.writeHead(status, { 'content-type': 'application/json' }).end(body === undefined ? '' : JSON.stringify(body));
      const id = decodeURIComponent((req.url ?? '').replace(/^\/v1\/widgets\/?/, ''));
      if (req.method === 'POST') return json(201, createAnswer);
      if (req.method === 'GET' && shown[id]) return json(200, shown[id]);
      if (req.method === 'DELETE' && shown[id]) return json(204);
      return json(404, { code: 'not_found', message: 'no such widget' });
    },
  });
  running.push(server);
  const http = new HttpClient({ baseUrl: server.baseUrl, timeoutMs: 5_000, concurrency: 2, maxRetries: 0, maxRetryWaitMs: 0, secrets: [TOKEN] });
  clients.push(http);
  return { api: openAccounts(http, new Ownership((w) => carriesMarker(w, MARKER)), [{ name: 'primary', token: TOKEN }])[0]!, requests };
}

const deletes = (requests: readonly string[]): string[] => requests.filter((r) => r.startsWith('DELETE'));

describe('a delete is sent only with proof from the server', () => {
  it('refuses to delete an id the create answered when a retrieve there shows a widget without the marker', async () => {
    // The faulty server answers the create with the id of a widget the user already had.
    const { api, requests } = await scripted({ w1: { id: 'w1', name: 'the user\'s production widget' } }, { id: 'w1', name: `${MARKER} CRUD-1 1` });
    await api.create({ name: `${MARKER} CRUD-1 1` });
    await expect(api.remove('w1')).rejects.toBeInstanceOf(UnprovenDeleteError);
    expect(deletes(requests)).toEqual([]);
    expect(api.ownership.outstanding().map((c) => [c.id, c.sighting])).toEqual([['w1', 'unmarked']]);
  });

  it('deletes an id whose retrieve shows the run marker', async () => {
    const { api, requests } = await scripted({ w2: { id: 'w2', name: `${MARKER} CRUD-1 2` } }, { id: 'w2', name: `${MARKER} CRUD-1 2` });
    await api.create({ name: `${MARKER} CRUD-1 2` });
    expect((await api.remove('w2')).status).toBe(204);
    expect(requests.slice(-2)).toEqual(['GET /v1/widgets/w2', 'DELETE /v1/widgets/w2']);
    expect(api.ownership.outstanding()).toEqual([]);
  });

  it('an id a create answers again after its delete needs fresh proof', async () => {
    const shown: Shown = { w6: { id: 'w6', name: `${MARKER} CRUD-1 6` } };
    const { api, requests } = await scripted(shown, { id: 'w6', name: `${MARKER} CRUD-1 6` });
    await api.create({ name: `${MARKER} CRUD-1 6` });
    expect((await api.remove('w6')).status).toBe(204);
    // The server now shows a widget of the user's at the id, and answers the next create with it.
    shown.w6 = { id: 'w6', name: 'the user\'s widget' };
    await api.create({ name: `${MARKER} CRUD-1 7` });
    await expect(api.remove('w6')).rejects.toBeInstanceOf(UnprovenDeleteError);
    expect(deletes(requests)).toEqual(['DELETE /v1/widgets/w6']);
  });

  it('a marker of another run is no proof', async () => {
    const { api, requests } = await scripted({ w3: { id: 'w3', name: `${newMarker()} CRUD-1 3` } }, { id: 'w3', name: 'x' });
    await api.create({ name: 'x' });
    await expect(api.remove('w3')).rejects.toBeInstanceOf(UnprovenDeleteError);
    expect(deletes(requests)).toEqual([]);
  });

  it('a retrieve that answers another id is no proof', async () => {
    const { api, requests } = await scripted({ w4: { id: 'w5', name: `${MARKER} CRUD-1 4` } }, { id: 'w4', name: `${MARKER} CRUD-1 4` });
    await api.create({ name: `${MARKER} CRUD-1 4` });
    await expect(api.remove('w4')).rejects.toBeInstanceOf(UnprovenDeleteError);
    expect(deletes(requests)).toEqual([]);
  });

  it('an id the suite made up is deleted only while the server answers it as absent', async () => {
    const { api, requests } = await scripted({ taken: { id: 'taken', name: 'the user\'s' } }, {});
    api.ownership.addMadeUp('free');
    api.ownership.addMadeUp('taken');
    expect((await api.remove('free')).status).toBe(404);
    await expect(api.remove('taken')).rejects.toBeInstanceOf(UnprovenDeleteError);
    expect(deletes(requests)).toEqual(['DELETE /v1/widgets/free']);
  });

  it('an id that is not one safe path segment is never sent, and stays held with the reason', async () => {
    const { api, requests } = await scripted({}, { id: '.', name: `${MARKER} CRUD-1 5` });
    await api.create({ name: `${MARKER} CRUD-1 5` });
    await expect(api.retrieve('.')).rejects.toBeInstanceOf(UnsafeIdError);
    await expect(api.remove('.')).rejects.toBeInstanceOf(UnsafeIdError);
    expect(requests).toEqual(['POST /v1/widgets']);
    expect(api.ownership.outstanding()[0]?.problem).toMatch(/never sent in a path/);
  });

  it('an id the inventory holds is never deleted, even when a create answered it and a retrieve shows the marker there', async () => {
    const { api, requests } = await scripted({ u1: { id: 'u1', name: `${MARKER} CRUD-1 8` } }, { id: 'u1', name: `${MARKER} CRUD-1 8` });
    api.ownership.setInventory('primary', ['u1'], true);
    await api.create({ name: `${MARKER} CRUD-1 8` });
    const refused = await api.remove('u1').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UnprovenDeleteError);
    expect((refused as UnprovenDeleteError).broken).toBe('CRUD-3');
    expect(api.ownership.answeredPreExisting).toEqual([{ account: 'primary', id: 'u1' }]);
    expect(deletes(requests)).toEqual([]);
  });

  it('a list entry showing the marker is no proof: the delete waits for a retrieve, which decides', async () => {
    const { api, requests } = await scripted({ w9: { id: 'w9', name: 'the user\'s' } }, { id: 'w9', name: `${MARKER} CRUD-1 9` });
    await api.create({ name: `${MARKER} CRUD-1 9` });
    api.ownership.saw('primary', 'w9', { id: 'w9', name: `${MARKER} CRUD-1 9` }, 'list');
    await expect(api.remove('w9')).rejects.toBeInstanceOf(UnprovenDeleteError);
    expect(requests.filter((r) => r.startsWith('GET /v1/widgets/w9'))).toHaveLength(1);
    expect(deletes(requests)).toEqual([]);
  });

  it('a DELETE cannot be sent around the ledger\'s door', async () => {
    const { api, requests } = await scripted({}, {});
    await expect(api.http.request('DELETE', '/widgets/x')).rejects.toThrow(/only through the ownership ledger's door/);
    expect(requests).toEqual([]);
  });
});

describe('ids as path segments', () => {
  it.each([
    ['', 'the id is empty'],
    ['.', 'URL normalisation'],
    ['..', 'URL normalisation'],
    ['...', '"." or ".." segment'],
    ['\uD800', 'lone surrogate'],
    ['x'.repeat(2000), 'longer than'],
  ])('%j is refused (%s)', (id, why) => {
    expect(unsafeSegment(id)).toContain(why);
  });

  it.each(['w1', 'a.b', 'ünï', '😀', 'a b', '50%', 'x%zz', 'a/b', 'x?y'])('%j is sent as one segment', (id) => {
    expect(unsafeSegment(id)).toBeUndefined();
  });
});

describe('run markers', () => {
  it('a fresh marker is found as a whole word, in either field', () => {
    expect(markersIn(`${MARKER} CRUD-1 7`)).toEqual([MARKER]);
    expect(carriesMarker({ name: 'x', description: `made by ${MARKER} today` }, MARKER)).toBe(true);
    expect(carriesAnyMarker({ name: `${MARKER}` })).toBe(true);
  });

  it.each([
    ['upper-cased', MARKER.toUpperCase()],
    ['title-cased in a trimmed name', `  Widget ${MARKER[0]!.toUpperCase()}${MARKER.slice(1)}  `.trim()],
    ['in full-width letters (NFKC folds them)', [...MARKER].map((c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0)).join('')],
  ])('a marker %s is still read as the marker', (_what, text) => {
    expect(carriesMarker({ name: text }, MARKER)).toBe(true);
    expect(markersIn(text)).toEqual([MARKER]);
  });

  it.each([
    ['inside a word', `x${MARKER}`],
    ['with a trailing dot', `${MARKER}.`],
    ['shortened', MARKER.slice(0, -1)],
    ['a fourteen-letter word', 'wcs-configurations'],
    ['a twelve-letter word (the old marker shape)', 'team wcs-integrations'],
    ['a wrong checksum', `${MARKER.slice(0, -1)}${MARKER.endsWith('a') ? 'b' : 'a'}`],
  ])('a marker %s is not one', (_what, text) => {
    expect(carriesAnyMarker({ name: text })).toBe(false);
    expect(carriesMarker({ name: text }, MARKER)).toBe(false);
  });
});

describe('an id given again while its DELETE is on the wire', () => {
  const make = () => new Ownership((w) => carriesMarker(w, MARKER));

  it('CRUD-3 a create answered with a live id is two widgets at one id: collided, and the run has repeated ids', () => {
    const o = make();
    o.claim('primary', 'w1');
    expect(o.claim('primary', 'w1').collided).toBe(true);
    expect(o.repeated).toBe(true);
  });

  it('DEL-2 a create answered with the id while its DELETE is sent and unanswered may follow the delete: reused, not collided', () => {
    const o = make();
    o.claim('primary', 'w1');
    o.deleteSent('primary', 'w1');
    expect(o.claim('primary', 'w1').collided).toBeUndefined();
    expect(o.repeated).toBe(false);
    o.deleteSettled('primary', 'w1');
    expect(o.deleteOnWire('primary', 'w1')).toBe(false);
    // Once the DELETE is settled, a third create answered with the id while it stands is a collision again.
    expect(o.claim('primary', 'w1').collided).toBe(true);
  });
});
