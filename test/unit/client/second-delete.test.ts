/**
 * The second delete of the same id (WidgetApi.removeAgain, ledger.ts secondDeleteVerdict): the
 * profile's "second delete of the same id". A server may give a freed id to another widget, so
 * the DELETE goes out only in an account whose complete inventory was empty, inside a window with
 * no write of the suite in flight (WalkGate.quiet), after a retrieve in that window answered 404
 * or 410, and never once the server gave an id twice or contradicted itself. Against a scripted
 * server that records every request, and can give the freed id to the next create, hold a create
 * open, or answer a retrieve of a deleted id otherwise than 404.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiHooks, WidgetApi } from '../../../src/client/api.ts';
import { openAccounts } from '../../../src/client/accounts.ts';
import { Ownership } from '../../../src/client/ownership.ts';
import { takeInventory } from '../../../src/client/sweep.ts';
import { WalkGate } from '../../../src/harness/walk-gate.ts';
import { carriesMarker, newMarker } from '../../../src/harness/marker.ts';
import { HttpClient } from '../../../src/http/client.ts';
import { startServer, type RunningServer } from '../../../src/reference/server.ts';
import { ProfileTally } from '../../../src/report/profile-facts.ts';
import { deferred, settled, type Deferred } from '../support/deferred.ts';

const TOKEN = 'second-delete-token';
const MARKER = newMarker();
const name = (n: number): string => `${MARKER} DEL-3 ${n}`;

const running: RunningServer[] = [];
const clients: HttpClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(running.splice(0).map((s) => s.close()));
});

interface Script {
  /** Widgets the account holds before the run. */
  readonly preExisting?: number;
  /** The next create is given the id freed last (a server that reuses ids). */
  readonly reuse?: boolean;
  /** The status of a retrieve of an id that names nothing (404 by default). */
  readonly absentStatus?: number;
  /** Holds each create, once it reached the server, until the test lets it go. */
  readonly holdCreates?: { arrived: Deferred<void>; release: Deferred<void> };
  /** The inventory walk is taken as stopped before the end of the list. */
  readonly inventoryIncomplete?: boolean;
}

interface Scripted {
  readonly api: WidgetApi;
  readonly requests: string[];
  readonly widgets: Map<string, { id: string; name: string }>;
  readonly tally: ProfileTally;
}

async function scripted(script: Script = {}, hooks: Partial<ApiHooks> = {}): Promise<Scripted> {
  const requests: string[] = [];
  const widgets = new Map<string, { id: string; name: string }>();
  let next = 1;
  const freed: string[] = [];
  for (let i = 0; i < (script.preExisting ?? 0); i += 1) widgets.set(`u${i}`, { id: `u${i}`, name: `the user's widget ${i}` });
  const server = await startServer({
    async handle(req: IncomingMessage, res: ServerResponse) {
      requests.push(`${req.method} ${req.url}`);
      const json = (status: number, body?: unknown): void => void res.writeHead(status, { 'content-type': 'application/json' }).end(body === undefined ? '' : JSON.stringify(body));
      const id = decodeURIComponent((req.url ?? '').replace(/^\/v1\/widgets\/?/, '').replace(/\?.*$/, ''));
      if (req.method === 'GET' && id === '') return json(200, { data: [...widgets.values()].map((w) => ({ ...w, created_at: '2026-01-01T00:00:00Z' })), has_more: false });
      if (req.method === 'POST') {
        let body = '';
        for await (const chunk of req) body += String(chunk);
        if (script.holdCreates) {
          script.holdCreates.arrived.resolve();
          await script.holdCreates.release.promise;
        }
        const given = script.reuse && freed.length ? freed.pop()! : `w${next++}`;
        // created_at is kept with the widget: a retrieve shows it as the create answered it (the door compares them).
        const w = { id: given, name: (JSON.parse(body) as { name: string }).name, created_at: new Date().toISOString() };
        widgets.set(given, w);
        return json(201, w);
      }
      const w = widgets.get(id);
      if (req.method === 'GET') return w ? json(200, { created_at: '2026-01-01T00:00:00Z', ...w }) : json(script.absentStatus ?? 404, { code: 'not_found', message: 'no such widget' });
      if (req.method === 'DELETE') {
        if (!w) return json(404, { code: 'not_found', message: 'no such widget' });
        widgets.delete(id);
        freed.push(id);
        return json(204);
      }
      return json(405, { code: 'method_not_allowed', message: 'no' });
    },
  });
  running.push(server);
  const http = new HttpClient({ baseUrl: server.baseUrl, timeoutMs: 5_000, concurrency: 4, maxRetries: 0, maxRetryWaitMs: 0, secrets: [TOKEN] });
  clients.push(http);
  const gate = new WalkGate();
  const tally = new ProfileTally();
  const [api] = openAccounts(http, new Ownership((w) => carriesMarker(w, MARKER)), [{ name: 'primary', token: TOKEN }], {
    write: (send) => gate.write(send),
    quiet: (run) => gate.quiet(run),
    observe: (o) => tally.observe(o),
    unsent: (u) => tally.unsent(u),
    ...hooks,
  }) as [WidgetApi];
  // The runner's inventory, before the first create (takeInventory records it in the ledger).
  if (script.inventoryIncomplete) api.ownership.setInventory('primary', [], false);
  else await takeInventory(api, 10);
  return { api, requests, widgets, tally };
}

/** Creates a marked widget and deletes it (with proof), returning its id. */
async function createdAndDeleted(api: WidgetApi, n: number): Promise<string> {
  const id = (await api.create({ name: name(n) })).json as { id: string };
  const del = await api.remove(id.id);
  expect(del.status).toBe(204);
  return id.id;
}

const deletesOf = (requests: readonly string[], id: string): string[] => requests.filter((r) => r === `DELETE /v1/widgets/${id}`);

describe('a second delete of the same id', () => {
  it('DEL-3 is sent in an account that held nothing before the run, after a retrieve in a quiet window found the id absent', async () => {
    const { api, requests, tally } = await scripted();
    const id = await createdAndDeleted(api, 1);
    const before = requests.length;
    const again = await api.removeAgain(id);
    expect('response' in again && again.response.status).toBe(404);
    expect(requests.slice(before)).toEqual([`GET /v1/widgets/${id}`, `DELETE /v1/widgets/${id}`]);
    expect(Object.keys(tally.data['status.delete.after-delete'] ?? {})).toEqual(['404']);
  });

  it('DEL-3 is never sent into an account that held widgets before the run; the profile says why, and the user\'s widgets are intact', async () => {
    const { api, requests, widgets, tally } = await scripted({ preExisting: 2 });
    const id = await createdAndDeleted(api, 1);
    const before = requests.length;
    const again = await api.removeAgain(id);
    expect(again).toEqual({ notSent: expect.stringMatching(/held widgets before the run/) });
    // Not even the retrieve: the ledger's facts decide before any request.
    expect(requests.slice(before)).toEqual([]);
    expect([...widgets.keys()].sort()).toEqual(['u0', 'u1']);
    expect(Object.keys(tally.data['note:status.delete.after-delete'] ?? {})).toEqual([expect.stringMatching(/^not sent: the account held widgets before the run/)]);
  });

  it('DEL-3 is never sent when the inventory walk did not reach the end', async () => {
    const { api, requests } = await scripted({ inventoryIncomplete: true });
    const id = await createdAndDeleted(api, 1);
    const before = requests.length;
    expect(await api.removeAgain(id)).toEqual({ notSent: expect.stringMatching(/inventory walk did not reach the end/) });
    expect(requests.slice(before)).toEqual([]);
  });

  it('DEL-3 is never sent without a window free of the suite\'s writes', async () => {
    const { api, requests } = await scripted({}, { quiet: undefined });
    const id = await createdAndDeleted(api, 1);
    expect(await api.removeAgain(id)).toEqual({ notSent: expect.stringMatching(/writes of the suite may be in flight/) });
    expect(deletesOf(requests, id)).toHaveLength(1);
  });

  it('DEL-3 is never sent for an id the run did not delete, nor for one it never created', async () => {
    const { api, requests } = await scripted();
    const live = ((await api.create({ name: name(1) })).json as { id: string }).id;
    expect(await api.removeAgain(live)).toEqual({ notSent: expect.stringMatching(/no delete of this run removed/) });
    expect(await api.removeAgain('w999')).toEqual({ notSent: expect.stringMatching(/no delete of this run removed/) });
    expect(requests.filter((r) => r.startsWith('DELETE'))).toEqual([]);
  });

  it('DEL-3 is never sent once the server gave a freed id to another widget; that widget is intact', async () => {
    const { api, requests, widgets } = await scripted({ reuse: true });
    const first = ((await api.create({ name: name(1) })).json as { id: string }).id;
    const id = await createdAndDeleted(api, 2);
    // Given the freed id again: the widget at it now is another one, and the run knows the server reuses ids.
    expect(((await api.create({ name: name(3) })).json as { id: string }).id).toBe(id);
    expect(await api.removeAgain(id)).toEqual({ notSent: expect.stringMatching(/no delete of this run removed/) });
    expect(widgets.get(id)?.name).toBe(name(3));
    // Any other id deleted since is not deleted twice either.
    expect((await api.remove(first)).status).toBe(204);
    expect(await api.removeAgain(first)).toEqual({ notSent: expect.stringMatching(/gave an id twice/) });
    expect(requests.filter((r) => r.startsWith('DELETE'))).toEqual([`DELETE /v1/widgets/${id}`, `DELETE /v1/widgets/${first}`]);
  });

  it('DEL-3 waits for a create in flight, and sends nothing when that create was given the freed id', async () => {
    const holdCreates = { arrived: deferred(), release: deferred() };
    const { api, requests, widgets } = await scripted({ reuse: true, holdCreates });
    holdCreates.release.resolve();
    const id = await createdAndDeleted(api, 1);
    // The next create reaches the server and is held there, before it is given an id.
    holdCreates.arrived = deferred();
    holdCreates.release = deferred();
    const creating = api.create({ name: name(2) });
    await holdCreates.arrived.promise;
    const again = api.removeAgain(id);
    await settled();
    // The window waits for the create: no retrieve, no DELETE meanwhile.
    expect(requests.filter((r) => r.endsWith(`/widgets/${id}`)).slice(-1)).toEqual([`DELETE /v1/widgets/${id}`]);
    holdCreates.release.resolve();
    expect(((await creating).json as { id: string }).id).toBe(id);
    expect(await again).toEqual({ notSent: expect.any(String) });
    // The window opens once the create's exchange is over, maybe before its answer reached the
    // ledger: the retrieve in the window shows the widget now at the id, and nothing is deleted.
    expect(requests.filter((r) => r.endsWith(`/widgets/${id}`)).slice(2)).toEqual([`GET /v1/widgets/${id}`]);
    expect(deletesOf(requests, id)).toHaveLength(1);
    expect(widgets.get(id)?.name).toBe(name(2));
  });

  it('DEL-3 is never sent when the retrieve just before answers anything but 404 or 410', async () => {
    const { api, requests } = await scripted({ absentStatus: 400 });
    const id = await createdAndDeleted(api, 1);
    expect(await api.removeAgain(id)).toEqual({ notSent: expect.stringMatching(/did not answer 404 or 410/) });
    expect(deletesOf(requests, id)).toHaveLength(1);
  });

  it('DEL-3 is never sent once the server contradicted itself about an id of the account', async () => {
    const { api, requests } = await scripted();
    const id = await createdAndDeleted(api, 1);
    api.ownership.contradict('primary', 'w42', 'listed twice');
    expect(await api.removeAgain(id)).toEqual({ notSent: expect.stringMatching(/contradicted itself/) });
    expect(deletesOf(requests, id)).toHaveLength(1);
  });
});
