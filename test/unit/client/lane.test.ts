/**
 * The proof and the write leave as one (src/client/door.ts, http/client.ts Lane): a DELETE goes
 * out on its proof's slot, first in the pace, as soon as the proof's answer is read. Counted at
 * the server, under concurrency, with dozens of lists waiting for a slot: between a proof and its
 * write arrive at most the requests already in flight on the other slots, never one that was
 * waiting when the proof went out.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { openAccounts } from '../../../src/client/accounts.ts';
import type { WidgetApi } from '../../../src/client/api.ts';
import { Ownership } from '../../../src/client/ownership.ts';
import { carriesMarker, newMarker } from '../../../src/harness/marker.ts';
import { HttpClient } from '../../../src/http/client.ts';
import { startServer, type RunningServer } from '../../../src/reference/server.ts';

const TOKEN = 'lane-token-1';
const MARKER = newMarker();
/** Slots of the client: between a proof and its write, only what the other slots send in one round trip can arrive. */
const SLOTS = 4;
const WIDGETS = 24;
/** Lists in the client at once beside the deletes: far more than the slots, so dozens wait for one. */
const LISTERS = 8 * SLOTS;

const running: RunningServer[] = [];
const clients: HttpClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** A widget store that answers every request a few milliseconds late (a timer per request: a server's latency), logging arrivals in order. */
async function slowStore(): Promise<{ api: WidgetApi; arrivals: string[] }> {
  const arrivals: string[] = [];
  const widgets = new Map<string, { id: string; name: string; created_at: string }>();
  let next = 1;
  const server = await startServer({
    async handle(req: IncomingMessage, res: ServerResponse) {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      arrivals.push(`${req.method} ${req.url}`);
      const json = (status: number, answer?: unknown): void => void setTimeout(() => res.writeHead(status, { 'content-type': 'application/json' }).end(answer === undefined ? '' : JSON.stringify(answer)), 3);
      const path = (req.url ?? '').replace(/^\/v1/, '');
      if (req.method === 'GET' && path.startsWith('/widgets?')) return json(200, { data: [...widgets.values()].slice(0, 5), has_more: false });
      const id = decodeURIComponent(path.replace(/^\/widgets\/?/, ''));
      if (req.method === 'POST') {
        const w = { id: `w${next++}`, name: (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { name: string }).name, created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, next)).toISOString() };
        widgets.set(w.id, w);
        return json(201, w);
      }
      const w = widgets.get(id);
      if (req.method === 'GET') return w ? json(200, w) : json(404, { code: 'not_found', message: 'no' });
      if (req.method === 'DELETE' && w) return void (widgets.delete(id), json(204));
      json(404, { code: 'not_found', message: 'no' });
    },
  });
  running.push(server);
  const http = new HttpClient({ baseUrl: server.baseUrl, timeoutMs: 10_000, concurrency: SLOTS, maxRetries: 0, maxRetryWaitMs: 0, secrets: [TOKEN] });
  clients.push(http);
  const [api] = openAccounts(http, new Ownership((w) => carriesMarker(w, MARKER)), [{ name: 'primary', token: TOKEN }]) as [WidgetApi];
  return { api, arrivals };
}

describe('the proof and the write leave as one', () => {
  it(`CRUD-4 with ${SLOTS} slots and ${LISTERS - SLOTS} lists always waiting for one beside ${WIDGETS} deletes, only what the other slots send in one round trip arrives between a proof and its DELETE`, async () => {
    const { api, arrivals } = await slowStore();
    const ids: string[] = [];
    for (let i = 0; i < WIDGETS; i += 1) ids.push(((await api.create({ name: `${MARKER} CRUD-4 ${i}` })).json as { id: string }).id);
    const start = arrivals.length;
    // Lists kept queued the whole time (each one that ends sends another, from LISTERS at once,
    // far more than the slots), and the deletes in two chains beside them.
    let deleting = true;
    const lister = async (): Promise<void> => {
      while (deleting) await api.list({ limit: 5 });
    };
    const listers = Array.from({ length: LISTERS }, lister);
    const chains = [0, 1].map(async (chain) => {
      for (const id of ids.filter((_, i) => i % 2 === chain)) await api.remove(id);
    });
    await Promise.all(chains);
    deleting = false;
    await Promise.all(listers);
    const log = arrivals.slice(start);
    const between: number[] = [];
    const queuedAtProof: number[] = [];
    for (const id of ids) {
      const at = log.indexOf(`DELETE /v1/widgets/${id}`);
      const proof = log.lastIndexOf(`GET /v1/widgets/${id}`, at);
      expect(proof, `the proof of ${id} before its DELETE`).toBeGreaterThanOrEqual(0);
      between.push(at - proof - 1);
      // Lists that arrived after this proof: waiting for a slot when it went out, or sent later.
      queuedAtProof.push(log.slice(proof + 1).filter((r) => r.startsWith('GET /v1/widgets?')).length);
    }
    // Not vacuous: when each proof went out, lists were waiting for a slot (a write queued behind them would have waited for them all).
    expect(Math.min(...queuedAtProof), `lists after each proof: ${queuedAtProof.join(' ')}`).toBeGreaterThanOrEqual(LISTERS - SLOTS);
    // At most what the other slots send in one round trip: the request each had in flight, and
    // one more where its answer was read in the same turn of the event loop as the proof's.
    expect(Math.max(...between), `requests between each proof and its DELETE: ${between.join(' ')}`).toBeLessThanOrEqual(2 * (SLOTS - 1));
  });
});
