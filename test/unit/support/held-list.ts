/**
 * A loopback server whose list requests wait until the test answers them, one by one: a test
 * decides when each walk ends, and counts the walks from the requests the server received.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { openAccounts } from '../../../src/client/accounts.ts';
import type { WidgetApi } from '../../../src/client/api.ts';
import { Ownership } from '../../../src/client/ownership.ts';
import { HttpClient } from '../../../src/http/client.ts';
import { startServer, type RunningServer } from '../../../src/reference/server.ts';
import { deferred, type Deferred } from './deferred.ts';

export const TOKEN = 'held-list-token';
/** Generous: every request here is answered by the test, never by a deadline. */
const TIMEOUT_MS = 10_000;
const CONCURRENCY = 4;

/** One list request, waiting for its answer. */
export interface HeldRequest {
  /** Answers with a one-page list holding these widget ids. */
  page(ids: readonly string[]): void;
  /**
   * Breaks off the answer after its headers: the client's request (and so the walk) throws a
   * TransportError, and the client goes on (a refusal past the budget would stop it for good).
   */
  breakOff(): void;
}

export interface HeldList {
  readonly api: WidgetApi;
  /** The next list request the server receives (already received ones first, in order). */
  next(): Promise<HeldRequest>;
  /** How many list requests the server has received. */
  received(): number;
  close(): Promise<void>;
}

export async function startHeldList(): Promise<HeldList> {
  const arrived: HeldRequest[] = [];
  const waiting: Array<Deferred<HeldRequest>> = [];
  let count = 0;
  const server: RunningServer = await startServer({
    handle(req: IncomingMessage, res: ServerResponse) {
      const json = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
      };
      const held: HeldRequest = {
        page: (ids) => json(200, { data: ids.map((id) => ({ id, name: `widget ${id}`, created_at: '2026-01-02T03:04:05Z' })), has_more: false, next_cursor: null }),
        breakOff: () => {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
          // The headers and a first chunk are out before the connection goes: an answer begun
          // and cut, which the client does not send again (it sends a GET again only when no answer began).
          res.write('{"data":[', () => setImmediate(() => res.destroy()));
        },
      };
      count += 1;
      const taker = waiting.shift();
      if (taker) taker.resolve(held);
      else arrived.push(held);
    },
  });
  const http = new HttpClient({ baseUrl: server.baseUrl, timeoutMs: TIMEOUT_MS, concurrency: CONCURRENCY, maxRetries: 0, maxRetryWaitMs: 0, secrets: [TOKEN] });
  return {
    api: openAccounts(http, new Ownership(() => false), [{ name: 'primary', token: TOKEN }])[0]!,
    next() {
      const ready = arrived.shift();
      if (ready) return Promise.resolve(ready);
      const d = deferred<HeldRequest>();
      waiting.push(d);
      return d.promise;
    },
    received: () => count,
    async close() {
      await http.close();
      await server.close();
    },
  };
}
