/**
 * Large bodies one at a time (src/http/large-bodies.ts): the passes themselves, and the client
 * against loopback servers whose bodies are large, so that a pass is always given back and a body
 * waiting for one is not timed out by the wait.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { TransportError } from '../../../src/errors.ts';
import { HttpClient, type ApiResponse } from '../../../src/http/client.ts';
import { LARGE_BODY_BYTES, LargeBodies } from '../../../src/http/large-bodies.ts';

/** Whether a promise has settled, after the microtasks queued so far have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true), () => (done = true));
  await new Promise<void>((resolve) => setImmediate(resolve));
  return done;
}

describe('LargeBodies', () => {
  it('one pass at a time, in the order asked; a claim never entered gives nothing back, and one left twice gives back once', async () => {
    const passes = new LargeBodies(1);
    const [a, b, c, unused] = [passes.claim(), passes.claim(), passes.claim(), passes.claim()];
    const entered = [a.enter(), b.enter(), c.enter()];
    expect(await Promise.all(entered.map(settled))).toEqual([true, false, false]);
    unused.leave(0);
    a.leave(0);
    a.leave(0);
    expect(await Promise.all(entered.map(settled)), 'b next, and only b').toEqual([true, true, false]);
    b.leave(0);
    expect(await settled(entered[2]!)).toBe(true);
    c.leave(0);
    const d = passes.claim();
    expect(await settled(d.enter()), 'every pass given back: the next is granted at once').toBe(true);
  });
});

/** A loopback server; closed when the test ends. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function client(baseUrl: string, timeoutMs: number, maxResponseBytes?: number): HttpClient {
  const c = new HttpClient({ baseUrl, timeoutMs, concurrency: 4, maxRetries: 0, maxRetryWaitMs: 1_000, secrets: [], ...(maxResponseBytes === undefined ? {} : { maxResponseBytes }) });
  onTestFinished(() => c.close().catch(() => {}));
  return c;
}

const LARGE = 2 * LARGE_BODY_BYTES;
const bodyOf = (size: number, fill: string): Buffer => Buffer.alloc(size, fill);

describe.concurrent('HttpClient with large bodies', () => {
  it('large bodies at once are each answered whole, declared or chunked, and one over the cap gives its pass back', async () => {
    const url = await serve((req, res) => {
      if (req.url === '/over') return res.writeHead(200, { 'content-length': String(3 * LARGE) }).end(bodyOf(3 * LARGE, 'o'));
      if (req.url === '/chunked') return res.writeHead(200).end(bodyOf(LARGE, 'c'));
      res.writeHead(200, { 'content-length': String(LARGE) }).end(bodyOf(LARGE, 'd'));
    });
    const c = client(url, 5_000, 2 * LARGE);
    const over = await c.request('GET', '/over').catch((error: unknown) => error);
    expect(over, 'a body over the cap, read past the large threshold first').toBeInstanceOf(TransportError);
    const answers = await Promise.all(['/declared', '/chunked', '/declared', '/chunked'].map((path) => c.request('GET', path)));
    expect(answers.map((a: ApiResponse) => [a.status, a.text.length, a.text[0], a.text.at(-1)])).toEqual([
      [200, LARGE, 'd', 'd'],
      [200, LARGE, 'c', 'c'],
      [200, LARGE, 'd', 'd'],
      [200, LARGE, 'c', 'c'],
    ]);
  });

});

describe('HttpClient with a large body waiting for its pass', () => {
  it('a large body waiting behind slower ones is not timed out by the wait', async () => {
    // Two slow bodies hold the pass in turn (the second's end comes 1.5 s after the first
    // began), each within --timeout on its own clock; the third, sent whole at once, waits behind
    // both, longer than --timeout. Every one is answered: the wait is the suite's, not the server's.
    const TIMEOUT_MS = 1_200;
    const half = bodyOf(LARGE / 2 + LARGE_BODY_BYTES / 2, 'h');
    const rest = bodyOf(LARGE - half.length, 'r');
    let firstAt = 0;
    const url = await serve((req, res) => {
      res.writeHead(200, { 'content-length': String(LARGE) });
      if (req.url === '/fast') return res.end(Buffer.concat([half, rest]));
      firstAt ||= performance.now();
      res.write(half);
      const endAt = req.url === '/slow-first' ? 700 : 1_500;
      setTimeout(() => res.end(rest), firstAt + endAt - performance.now());
    });
    // Each request is sent once the one before has asked for its pass, so the line is in this order.
    const asked: Array<() => void> = [];
    const take = LargeBodies.prototype.take;
    const spy = vi.spyOn(LargeBodies.prototype, 'take').mockImplementation(function (this: LargeBodies) {
      asked.shift()?.();
      return take.call(this);
    });
    onTestFinished(() => spy.mockRestore());
    const inLine = (): Promise<void> => new Promise((resolve) => asked.push(resolve));
    const c = client(url, TIMEOUT_MS);
    const firstInLine = inLine();
    const first = c.request('GET', '/slow-first');
    await firstInLine;
    const secondInLine = inLine();
    const second = c.request('GET', '/slow-second');
    await secondInLine;
    const third = c.request('GET', '/fast');
    const answers = await Promise.all([first, second, third]);
    expect(answers.map((a) => [a.status, a.text.length])).toEqual([
      [200, LARGE],
      [200, LARGE],
      [200, LARGE],
    ]);
  });
});
