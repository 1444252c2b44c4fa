/**
 * HttpClient against real HTTP servers on loopback: deadlines, size caps, compressed bodies,
 * lost keep-alive connections, redirects, rate limits, concurrency and redaction of the
 * recorded exchange.
 */
import { EventEmitter, once } from 'node:events';
import { createServer, request as nodeRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { RateLimitError, TransportError } from '../../../src/errors.ts';
import { formatExchange, RECORDED_BODY_LIMIT } from '../../../src/shared/exchange.ts';
import { oneWorker } from '../../servers/deployments.ts';
import { ADAPTIVE_MAX_SLOTS, HttpClient, IDLE_KEEP_ALIVE_MS, parseJsonBody, parseRetryAfter, takeWriter, type ApiResponse, type ClientOptions, type Writer } from '../../../src/http/client.ts';

// The HTTP layer is tested here without the ownership ledger's door (client/door.ts, which takes
// the writer in a run): this file takes each client's writer itself.
const writers = new WeakMap<HttpClient, Writer>();

/** A write sent with the client's own writer, as the door sends one. */
function write(c: HttpClient, method: string, path: string, opts: { query?: Record<string, string>; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<ApiResponse> {
  let writer = writers.get(c);
  if (!writer) writers.set(c, (writer = takeWriter(c)));
  return writer.send({ method, path, headers: opts.headers ?? {}, ...(opts.query ? { query: opts.query } : {}), ...(opts.body === undefined ? {} : { body: opts.body }) });
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

interface Loopback {
  readonly url: string;
  readonly server: Server;
  /** Every request received, in arrival order. */
  readonly received: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }>;
}

/** Registers a cleanup. */
type Cleanup = (fn: () => Promise<void> | void) => void;

/**
 * The tests of this file run side by side (each describe is concurrent): most wait on a loopback
 * server's timers, and one after another they took 13 s. So servers and clients are closed when
 * the file ends, never while another test may still use its own; a test that must stop something
 * sooner passes its context's onTestFinished.
 */
const atTheEnd: Array<() => Promise<void> | void> = [];
const afterThisFile: Cleanup = (fn) => void atTheEnd.push(fn);

afterAll(async () => {
  await Promise.all(atTheEnd.splice(0).map((fn) => fn()));
});

/** A real HTTP server on 127.0.0.1 and a free port; the handler sees the whole request body. */
async function serve(handler: Handler, cleanup: Cleanup = afterThisFile): Promise<Loopback> {
  const received: Loopback['received'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: body.toString('utf8') });
      handler(req, res, body);
    });
  });
  cleanup(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server, received };
}

function client(baseUrl: string, overrides: Partial<ClientOptions> = {}, cleanup: Cleanup = afterThisFile): HttpClient {
  const c = new HttpClient({
    baseUrl,
    timeoutMs: 5_000,
    concurrency: 4,
    maxRetries: 3,
    maxRetryWaitMs: 5_000,
    secrets: [],
    ...overrides,
  });
  cleanup(() => c.close().catch(() => {}));
  return c;
}

/** A loopback URL where nothing listens: a port just freed. */
async function refusedUrl(): Promise<string> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** The error a promise rejects with; fails the test when it fulfils. */
async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the request to fail');
}

describe.concurrent('HttpClient: ordinary exchanges', () => {
  it('returns the status, lower-cased headers, the text and the parsed JSON of a response', async () => {
    const srv = await serve((_req, res) => {
      res.writeHead(201, { 'Content-Type': 'application/json', 'X-Widget-Count': '3' });
      res.end('{"id":"w1","tags":["a"]}');
    });
    const res = await write(client(srv.url + '/v1'), 'POST', '/widgets', {
      query: { a: '1', b: 'two' },
      headers: { 'content-type': 'application/json' },
      body: '{"name":"n"}',
    });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['x-widget-count']).toBe('3');
    expect(Object.keys(res.headers).every((k) => k === k.toLowerCase())).toBe(true);
    expect(res.text).toBe('{"id":"w1","tags":["a"]}');
    expect(res.json).toEqual({ id: 'w1', tags: ['a'] });
    expect(res.jsonError).toBeUndefined();
    expect(res.exchange.response?.status).toBe(201);
    expect(srv.received).toHaveLength(1);
    expect(srv.received[0]).toMatchObject({ method: 'POST', url: '/v1/widgets?a=1&b=two', body: '{"name":"n"}' });
    expect(srv.received[0]?.headers.accept).toBe('application/json');
    expect(srv.received[0]?.headers['user-agent']).toBe('widget-conformance');
  });

  it('reports an empty body as jsonError "the body is empty" with json undefined', async () => {
    const srv = await serve((_req, res) => res.writeHead(204).end());
    const res = await client(srv.url).request('GET', '/widgets/x');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.json).toBeUndefined();
    expect(res.jsonError).toBe('the body is empty');
  });

  it('reports a body that is not JSON with a jsonError naming the parse failure', async () => {
    const srv = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"id": '));
    const res = await client(srv.url).request('GET', '/widgets');
    expect(res.json).toBeUndefined();
    expect(res.text).toBe('{"id": ');
    expect(res.jsonError).toMatch(/^the body is not valid JSON \(.+\)$/);
  });

  it('reports a body with invalid UTF-8 bytes as not valid UTF-8, even when it would parse leniently', async () => {
    const srv = await serve((_req, res) => res.writeHead(200).end(Buffer.from([0x22, 0xff, 0xfe, 0x22])));
    const res = await client(srv.url).request('GET', '/widgets');
    expect(res.json).toBeUndefined();
    expect(res.jsonError).toBe('the body is not valid UTF-8');
  });

  it('joins repeated response headers with ", "', async () => {
    const srv = await serve((_req, res) => {
      res.setHeader('x-multi', ['one', 'two']);
      res.end('{}');
    });
    const res = await client(srv.url).request('GET', '/');
    expect(res.headers['x-multi']).toBe('one, two');
  });
});

// A client whose deadline or size cap broke would hang here; fail fast instead.
describe.concurrent('HttpClient: deadlines and size caps', { timeout: 5_000 }, () => {
  // The two deadline tests close their servers as soon as they end: one never answers, one drips forever.
  it('a server that never answers times out with a TransportError within the deadline', async ({ onTestFinished }) => {
    const srv = await serve(() => {
      /* never answers */
    }, onTestFinished);
    const started = performance.now();
    const error = await rejectionOf(client(srv.url, { timeoutMs: 300 }, onTestFinished).request('GET', '/widgets'));
    const took = performance.now() - started;
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/widgets: no complete response within --timeout 300 ms after \d+ ms$/);
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(2_000);
  });

  it('a server that drips its body a byte every 100 ms still times out: the deadline bounds the whole exchange', async ({ onTestFinished }) => {
    const srv = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
      res.write('[');
      const timer = setInterval(() => res.write('1'), 100);
      res.on('close', () => clearInterval(timer));
      onTestFinished(() => clearInterval(timer));
    }, onTestFinished);
    const started = performance.now();
    // Each gap (100 ms) is far below the timeout, so only a deadline on the whole exchange fires.
    const error = await rejectionOf(client(srv.url, { timeoutMs: 300 }, onTestFinished).request('GET', '/widgets'));
    const took = performance.now() - started;
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toContain('no complete response within --timeout 300 ms');
    expect(took).toBeLessThan(2_000);
  });

  it('a response larger than maxResponseBytes with a Content-Length is refused with a TransportError naming the size', async () => {
    const srv = await serve((_req, res) => {
      const body = Buffer.alloc(256 * 1024, 0x61);
      res.writeHead(200, { 'content-length': String(body.length) }).end(body);
    });
    const error = await rejectionOf(client(srv.url, { maxResponseBytes: 1024, timeoutMs: 2_000 }).request('GET', '/widgets'));
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toContain('response body larger than 1024 bytes');
  });

  it('answers over the cap are answers: however many in a row, the client does not give the target up', async () => {
    const srv = await serve((req, res) => {
      if (req.url === '/small') return res.writeHead(200).end('{}');
      const body = Buffer.alloc(4 * 1024, 0x61);
      res.writeHead(200, { 'content-length': String(body.length) }).end(body);
    });
    const c = client(srv.url, { maxResponseBytes: 1024, timeoutMs: 2_000 });
    for (let i = 0; i < 7; i++) expect((await rejectionOf(c.request('GET', '/widgets'))).message).toContain('response body larger than 1024 bytes');
    expect((await c.request('GET', '/small')).status).toBe(200);
  });

  it('an endless chunked response (no Content-Length) is cut off with a TransportError naming the size', async () => {
    const srv = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(16 * 1024, 0x61);
      let open = true;
      res.on('close', () => (open = false));
      const pump = (): void => {
        while (open && res.write(chunk));
        if (open) res.once('drain', pump);
      };
      pump();
    });
    const started = performance.now();
    const error = await rejectionOf(client(srv.url, { maxResponseBytes: 1024, timeoutMs: 2_000 }).request('GET', '/widgets'));
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toContain('response body larger than 1024 bytes');
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('an https URL aimed at a plain-HTTP server names the TLS failure and asks whether the server speaks plain HTTP', async () => {
    const srv = await serve((_req, res) => res.end('{}'));
    const error = await rejectionOf(client(srv.url.replace('http:', 'https:')).request('GET', '/widgets'));
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toMatch(/TLS failure \([A-Z_]+\): the server did not answer in TLS; does it speak plain HTTP \(an http:\/\/ base URL\)\?/);
  });

  it('a port nobody listens on fails with a TransportError saying the connection was refused', async () => {
    const error = await rejectionOf(client(await refusedUrl()).request('GET', '/widgets'));
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/widgets: connection refused after \d+ ms$/);
  });
});

describe.concurrent('HttpClient: compressed bodies', () => {
  const JSON_BODY = '{"id":"w1","name":"compressed"}';
  const ENCODERS: ReadonlyArray<[string, (b: Buffer) => Buffer]> = [
    ['gzip', gzipSync],
    ['x-gzip', gzipSync],
    ['deflate', deflateSync],
    ['deflate', deflateRawSync],
    ['br', brotliCompressSync],
  ];

  it('asks for identity on every request', async () => {
    const srv = await serve((_req, res) => res.end('{}'));
    await client(srv.url).request('GET', '/widgets');
    expect(srv.received[0]?.headers['accept-encoding']).toBe('identity');
  });

  it.each(ENCODERS.map(([coding, encode], i) => [coding, encode, i] as const))(
    'decodes a body sent with Content-Encoding %s anyway (case %#)',
    async (coding, encode) => {
      const srv = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding }).end(encode(Buffer.from(JSON_BODY))));
      const res = await client(srv.url).request('GET', '/widgets/w1');
      expect(res.text).toBe(JSON_BODY);
      expect(res.json).toEqual({ id: 'w1', name: 'compressed' });
      expect(res.jsonError).toBeUndefined();
      // The recording shows the headers as received and the body as decoded.
      expect(res.exchange.response?.headers['content-encoding']).toBe(coding);
      expect(res.exchange.response?.body).toBe(JSON_BODY);
    },
  );

  it('undoes stacked codings last applied first ("gzip, br" is brotli over gzip)', async () => {
    const srv = await serve((_req, res) => res.writeHead(200, { 'content-encoding': 'gzip, br' }).end(brotliCompressSync(gzipSync(Buffer.from(JSON_BODY)))));
    const res = await client(srv.url).request('GET', '/widgets/w1');
    expect(res.json).toEqual({ id: 'w1', name: 'compressed' });
  });

  it('returns a body in a coding the suite cannot decode with a jsonError naming it, not a transport error', async () => {
    const srv = await serve((_req, res) => res.writeHead(200, { 'content-encoding': 'zstd' }).end(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00])));
    const res = await client(srv.url).request('GET', '/widgets/w1');
    expect(res.status).toBe(200);
    expect(res.json).toBeUndefined();
    expect(res.jsonError).toBe('the body is encoded with "zstd", which the suite did not ask for and cannot decode');
    expect(res.exchange.response?.headers['content-encoding']).toBe('zstd');
    expect(res.exchange.response?.body).toContain('not shown: the body is encoded with "zstd"');
  });

  it('returns corrupt gzip data with a jsonError saying it does not decode', async () => {
    const srv = await serve((_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end('{"not":"gzip"}'));
    const res = await client(srv.url).request('GET', '/widgets/w1');
    expect(res.json).toBeUndefined();
    expect(res.jsonError).toMatch(/^the body is labelled Content-Encoding "gzip" but does not decode as it \(.+\)$/);
  });

  it('takes an empty body labelled gzip (a 204) as empty, not as corrupt', async () => {
    const srv = await serve((_req, res) => res.writeHead(204, { 'content-encoding': 'gzip' }).end());
    const res = await write(client(srv.url), 'DELETE', '/widgets/w1');
    expect(res.status).toBe(204);
    expect(res.jsonError).toBe('the body is empty');
  });

  it('refuses a compression bomb: the size cap applies to the decoded bytes', async () => {
    const bomb = gzipSync(Buffer.alloc(1024 * 1024, 0x20));
    const srv = await serve((_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(bomb));
    const maxResponseBytes = 64 * 1024;
    expect(bomb.length).toBeLessThan(maxResponseBytes);
    const error = await rejectionOf(client(srv.url, { maxResponseBytes }).request('GET', '/widgets'));
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/widgets: response body larger than 65536 bytes \(after decoding gzip\) after \d+ ms$/);
  });
});

describe.concurrent('HttpClient: lost keep-alive connections', { timeout: 10_000 }, () => {
  /** Idle time after which the test servers close a keep-alive connection. */
  const SERVER_IDLE_MS = 50;
  /** Sequential requests in the spacing test: enough to hit the close race several times without the fix. */
  const SPACED_REQUESTS = 60;
  /** How far the gaps between the spaced requests stray from SERVER_IDLE_MS, either way. */
  const GAP_SPREAD_MS = 5;

  it('sequential GETs spaced just around the server closing idle connections all succeed', async () => {
    const srv = await serve((req, res) => {
      // Like uvicorn and gunicorn: an idle connection is closed after a fixed time, without a
      // Keep-Alive hint. Node's own keepAliveTimeout would not do: it closes a second later
      // than it says, and says it.
      req.socket.setTimeout(0);
      res.on('finish', () => req.socket.setTimeout(SERVER_IDLE_MS, () => req.socket.destroy()));
      res.end('{"ok":true}');
    });
    srv.server.keepAliveTimeout = 0;
    expect(SERVER_IDLE_MS).toBeLessThan(IDLE_KEEP_ALIVE_MS);
    const c = client(srv.url, { concurrency: 1 });
    for (let i = 0; i < SPACED_REQUESTS; i += 1) {
      // Gaps from 5 ms under to 5 ms over the server's idle timeout.
      await new Promise((resolve) => setTimeout(resolve, SERVER_IDLE_MS - GAP_SPREAD_MS + (i % (2 * GAP_SPREAD_MS + 1))));
      const res = await c.request('GET', `/widgets/${i}`);
      expect(res.status).toBe(200);
    }
  });

  /** A server that resets the connection of the first `resets` requests it receives, and answers the rest. */
  async function resetting(resets: number): Promise<Loopback & { ports: number[] }> {
    const ports: number[] = [];
    const srv = await serve((req, res) => {
      ports.push(req.socket.remotePort ?? 0);
      if (ports.length <= resets) req.socket.resetAndDestroy();
      else res.end('{"ok":true}');
    });
    return Object.assign(srv, { ports });
  }

  it('a GET whose connection is reset before any answer is sent once more, on a fresh connection, and succeeds', async () => {
    const srv = await resetting(1);
    const c = client(srv.url);
    const res = await c.request('GET', '/widgets');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true });
    expect(srv.received).toHaveLength(2);
    expect(srv.ports[1]).not.toBe(srv.ports[0]);
    expect(c.stats.requests).toBe(2);
  });

  it('a GET reset twice fails with a TransportError saying the retry was lost too', async () => {
    const srv = await resetting(2);
    const error = await rejectionOf(client(srv.url).request('GET', '/widgets'));
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/widgets: connection reset or closed before a complete response \(also on a retry over a fresh connection\) after \d+ ms$/);
    expect(srv.received).toHaveLength(2);
  });

  it.each(['POST', 'DELETE'])('a %s whose connection is reset is not sent again: it may have been applied', async (method) => {
    const srv = await resetting(1);
    const error = await rejectionOf(write(client(srv.url), method, '/widgets', { body: '{}' }));
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toContain(`connection reset or closed before a complete response (not retried: the ${method} may have been applied before the connection was lost)`);
    expect(srv.received).toHaveLength(1);
  });
});

describe.concurrent('HttpClient: redirects', () => {
  it('a 302 is returned as it is: the other server gets no request, so the Authorization header never follows', async () => {
    const other = await serve((_req, res) => res.end('{}'));
    const first = await serve((_req, res) => res.writeHead(302, { location: `${other.url}/stolen` }).end());
    const res = await client(first.url).request('GET', '/widgets', { headers: { authorization: 'Bearer tok-redirect-1' } });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`${other.url}/stolen`);
    expect(first.received).toHaveLength(1);
    expect(first.received[0]?.headers.authorization).toBe('Bearer tok-redirect-1');
    expect(other.received).toHaveLength(0);
  });
});

describe.concurrent('HttpClient: rate limits', () => {
  it('a 429 with Retry-After: 0 followed by a 200 returns the 200 after one retry', async () => {
    let calls = 0;
    const srv = await serve((_req, res) => {
      calls += 1;
      if (calls === 1) res.writeHead(429, { 'retry-after': '0' }).end('{"code":"rate_limited","message":"slow down"}');
      else res.writeHead(200).end('{"ok":true}');
    });
    const c = client(srv.url);
    const res = await c.request('GET', '/widgets');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true });
    expect(c.stats).toEqual({ requests: 2, retries: 1, rateLimitWaitMs: 0, refused: 1, slots: 4 });
    expect(srv.received).toHaveLength(2);
  });

  it('a gateway shedding every nth request of a token refuses one request more than --max-retries times in a row (the other callers fill the places between): not charged while the run is answered more than refused', async () => {
    // The client holds one request at a time; between its tries, other callers of the token take
    // the places in between, so its retries land on the refused place four times running.
    let calls = 0;
    const srv = await serve((_req, res) => {
      calls += 1;
      if (calls > 10 && calls <= 14) res.writeHead(429, { 'retry-after': '0' }).end();
      else res.writeHead(200).end('{"ok":true}');
    });
    const c = client(srv.url, { maxRetries: 2, concurrency: 1 });
    for (let i = 0; i < 10; i += 1) await c.request('GET', '/widgets');
    const res = await c.request('GET', '/widgets');
    expect(res.status).toBe(200);
    expect(c.stats).toMatchObject({ requests: 15, retries: 4, refused: 4 });
  });

  // The CI failure of the conformant variant rate-limited-ulid-whole-seconds: seven requests in
  // flight fill the gateway's rotation of seven exactly, so a retry sent at once took the refused
  // place every time (all 12 tries) and the run ended INCOMPLETE. Failing without the jitter.
  it.for([7, 14])('a gateway refusing every 7th request of a token, with %i requests in flight in lockstep: every request is answered, none given up', async (inFlight) => {
    let calls = 0;
    const srv = await serve((_req, res) => {
      calls += 1;
      if (calls % 7 === 0) res.writeHead(429, { 'retry-after': '0' }).end();
      else res.writeHead(200).end('{"ok":true}');
    });
    const c = client(srv.url, { maxRetries: 3, concurrency: inFlight });
    const statuses = await Promise.all(
      Array.from({ length: inFlight }, async () => {
        const seen: number[] = [];
        for (let i = 0; i < 40; i += 1) seen.push((await c.request('GET', '/widgets')).status);
        return seen;
      }),
    );
    expect(statuses.flat().filter((s) => s !== 200)).toEqual([]);
    expect(c.stats.refused, 'the gateway refused its share').toBeGreaterThan(0);
  });

  it('a request refused with Retry-After: 0 more often than maxRetries, by a server that answered this client before and nothing meanwhile (other workers take the places between), is not given up; bounded at four times maxRetries', async () => {
    let calls = 0;
    const srv = await serve((req, res) => {
      calls += 1;
      if (req.url === '/never' || (calls > 1 && calls <= 6)) res.writeHead(429, { 'retry-after': '0' }).end();
      else res.writeHead(200).end('{"ok":true}');
    });
    const c = client(srv.url, { maxRetries: 2, concurrency: 1 });
    await c.request('GET', '/widgets');
    expect((await c.request('GET', '/widgets')).status).toBe(200);
    expect(c.stats).toMatchObject({ requests: 7, retries: 5, refused: 5 });
    const error = await rejectionOf(c.request('GET', '/never'));
    expect(error.message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/never still answered 429 after 8 retries, 8 of them taken as load shed \(the server answered other requests meanwhile, or asked for no wait\) \(--max-retries 2\)/);
  });

  it('generated: a gateway refusing every nth request of a token (n 4-9), Retry-After: 0, with 1-16 callers spread over 1-3 clients (workers) of the token: every request is answered, none given up', async () => {
    // Clients of one token are the run's workers: each sees only its own answers. n from 4: a
    // request meets the refused place on all 11 jittered tries with a chance of n^-11, which at
    // n = 3 over these runs' refusals would fail about one self-test in 100; at 4, one in 3,000.
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 4, max: 9 }), fc.integer({ min: 1, max: 16 }), fc.integer({ min: 1, max: 3 }), async (n, callers, workers) => {
        let calls = 0;
        const cleanups: Array<() => Promise<void> | void> = [];
        try {
          const srv = await serve((_req, res) => {
            calls += 1;
            if (calls % n === 0) res.writeHead(429, { 'retry-after': '0' }).end();
            else res.writeHead(200).end('{"ok":true}');
          }, (fn) => void cleanups.push(fn));
          const clients = Array.from({ length: workers }, () => client(srv.url, { maxRetries: 3, concurrency: Math.ceil(callers / workers) }, (fn) => void cleanups.push(fn)));
          const statuses = await Promise.all(
            Array.from({ length: callers }, async (_, i) => {
              const seen: number[] = [];
              for (let r = 0; r < 20; r += 1) seen.push((await clients[i % workers]!.request('GET', '/widgets')).status);
              return seen;
            }),
          );
          expect(statuses.flat().filter((s) => s !== 200)).toEqual([]);
        } finally {
          await Promise.all(cleanups.map((fn) => fn()));
        }
      }),
      { numRuns: 15 },
    );
  });

  it('a server answering 429 forever ends in a RateLimitError after maxRetries retries, and the client stops sending', async () => {
    const srv = await serve((_req, res) => res.writeHead(429, { 'retry-after': '0' }).end());
    const stopped: string[] = [];
    const c = client(srv.url, { maxRetries: 2, onRefusedBeyondBudget: (m) => stopped.push(m) });
    const error = await rejectionOf(c.request('GET', '/widgets', { query: { limit: '5' } }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/widgets\?limit=5 still answered 429 after 2 retries \(--max-retries 2\): the target refused 3 request\(s\) \(3 with 429\) beyond the wait budget, and answered none$/);
    expect(srv.received).toHaveLength(3);
    expect(c.stats.retries).toBe(2);
    expect(stopped).toEqual([error.message]);
    const next = await rejectionOf(c.request('GET', '/widgets'));
    expect(next).toBeInstanceOf(RateLimitError);
    expect(next.message).toMatch(/: not sent, the target refused 3 request\(s\)/);
    expect(srv.received, 'nothing sent after the client stopped').toHaveLength(3);
    expect(stopped, 'the runner is told once').toHaveLength(1);
  });

  it('a request refused more often than maxRetries while the server answers other requests meanwhile (a gateway shedding a share) is not given up', async () => {
    // /slow is refused five times in a row; between its refusals the server answers /ok requests.
    let slowRefused = 0;
    const srv = await serve((req, res) => {
      if (req.url === '/slow' && slowRefused < 5) {
        slowRefused += 1;
        // Answered only once an /ok request has been answered since: the refusal comes amid progress.
        setTimeout(() => res.writeHead(429, { 'retry-after': '0' }).end(), 15);
        return;
      }
      res.writeHead(200).end('{"ok":true}');
    });
    const c = client(srv.url, { maxRetries: 2, concurrency: 2 });
    const slow = c.request('GET', '/slow');
    let stop = false;
    const others = (async () => {
      while (!stop) await c.request('GET', '/ok');
    })();
    const res = await slow;
    stop = true;
    await others;
    expect(res.status).toBe(200);
    expect(slowRefused).toBe(5);
  });

  it('a request refused every time while other requests are answered still ends, after four times maxRetries retries, naming the refusals amid answers', async () => {
    const srv = await serve((req, res) => {
      if (req.url === '/never') setTimeout(() => res.writeHead(429, { 'retry-after': '0' }).end(), 15);
      else res.writeHead(200).end('{"ok":true}');
    });
    const c = client(srv.url, { maxRetries: 2, concurrency: 2 });
    const never = rejectionOf(c.request('GET', '/never'));
    let stop = false;
    const others = (async () => {
      while (!stop) await c.request('GET', '/ok').catch(() => (stop = true));
    })();
    const error = await never;
    stop = true;
    await others;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/never still answered 429 after 8 retries, \d+ of them taken as load shed \(the server answered other requests meanwhile, or asked for no wait\) \(--max-retries 2\)/);
    expect(srv.received.filter((r) => r.url === '/never')).toHaveLength(9);
  });

  it('a 429 asking for a longer wait than maxRetryWaitMs fails at once with a RateLimitError, without waiting', async () => {
    const srv = await serve((_req, res) => res.writeHead(429, { 'retry-after': '3600' }).end());
    const c = client(srv.url, { maxRetryWaitMs: 1_000 });
    const started = performance.now();
    const error = await rejectionOf(c.request('GET', '/widgets'));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toContain('answered 429 with Retry-After of 3600 s, longer than --max-retry-wait 1000 ms');
    expect(performance.now() - started).toBeLessThan(900);
    expect(srv.received).toHaveLength(1);
    expect(c.stats.retries).toBe(0);
  });

  it('a burst refused 503 with an HTML page and no Retry-After (nginx limit_req): every request is answered in the end, each refusal counted, and the pace lowered', async () => {
    // nginx's limit_req: a bucket of RATE per second and BURST at once; past it, 503 and a page.
    const RATE = 20;
    const BURST = 3;
    let tokens = BURST;
    let at = performance.now();
    let refused = 0;
    const srv = await serve((_req, res) => {
      const now = performance.now();
      tokens = Math.min(BURST, tokens + ((now - at) / 1000) * RATE);
      at = now;
      if (tokens < 1) {
        refused += 1;
        res.writeHead(503, { 'content-type': 'text/html' }).end('<html><head><title>503 Service Temporarily Unavailable</title></head></html>');
        return;
      }
      tokens -= 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    const c = client(srv.url, { maxRetries: 5 });
    const answers = await Promise.all(Array.from({ length: 30 }, () => c.request('GET', '/widgets')));
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(200));
    expect(refused, 'the server refused some').toBeGreaterThan(0);
    expect(c.stats.refused, 'every refusal counted').toBe(refused);
    expect(c.stats.requests).toBe(30 + refused);
    expect(c.stats.pacedRate, 'paced after the refusals').toBeDefined();
  }, 15_000);

  it('503 without Retry-After forever: backoff, then a RateLimitError saying how many were refused with what, and nothing more is sent', async () => {
    const srv = await serve((_req, res) => res.writeHead(503, { 'content-type': 'text/html' }).end('<html>503</html>'));
    const stopped: string[] = [];
    const c = client(srv.url, { maxRetries: 2, onRefusedBeyondBudget: (m) => stopped.push(m) });
    const started = performance.now();
    const error = await rejectionOf(c.request('GET', '/widgets'));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).status).toBe(503);
    expect(error.message).toMatch(/still answered 503 after 2 retries \(--max-retries 2\): the target refused 3 request\(s\) \(3 with 503 \(no Retry-After\)\) beyond the wait budget, and answered none$/);
    // Backoff of 250 then 500 ms: bounded, and waited.
    expect(performance.now() - started).toBeGreaterThanOrEqual(700);
    expect(c.stats).toMatchObject({ requests: 3, retries: 2, refused: 3 });
    expect(stopped).toEqual([error.message]);
    expect(await rejectionOf(c.request('GET', '/widgets'))).toBeInstanceOf(RateLimitError);
    expect(srv.received).toHaveLength(3);
  });

  it('a target that answered, then refuses everything, is named a rate limit, with a --max-rate to try below the pace it refused', async () => {
    let calls = 0;
    const srv = await serve((_req, res) => ((calls += 1) <= 2 ? res.writeHead(200).end('{}') : res.writeHead(503).end()));
    const c = client(srv.url, { maxRetries: 1, maxRate: 40 });
    await c.request('GET', '/a');
    await c.request('GET', '/b');
    const error = await rejectionOf(c.request('GET', '/c'));
    expect(error.message).toMatch(/: the target refused 2 request\(s\) \(2 with 503 \(no Retry-After\)\) beyond the wait budget, after answering 2: it rate-limits; try --max-rate (\d+)$/);
    const suggested = Number(/--max-rate (\d+)$/.exec(error.message)![1]);
    expect(suggested).toBeGreaterThanOrEqual(1);
    expect(suggested).toBeLessThan(40);
  });

  it('a 503 with Retry-After: 0 is retried', async () => {
    let calls = 0;
    const srv = await serve((_req, res) => {
      calls += 1;
      res.writeHead(calls === 1 ? 503 : 200, calls === 1 ? { 'retry-after': '0' } : {}).end('{}');
    });
    const c = client(srv.url);
    expect((await c.request('GET', '/widgets')).status).toBe(200);
    expect(c.stats.retries).toBe(1);
  });
});

describe.concurrent('HttpClient: 502 and 504, reproduced once before a rule is blamed', () => {
  it('a GET answered 502 once, then 200: the rule sees the 200, the exchange shows the 502 before it', async () => {
    let calls = 0;
    const srv = await serve((_req, res) => ((calls += 1) === 1 ? res.writeHead(502, { 'content-type': 'text/html' }).end('<html>502 Bad Gateway</html>') : res.writeHead(200).end('{"ok":true}')));
    const c = client(srv.url);
    const res = await c.request('GET', '/widgets');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true });
    expect(res.exchange.response?.status).toBe(200);
    expect(res.exchange.earlier?.response?.status).toBe(502);
    expect(c.stats).toMatchObject({ requests: 2, retries: 1, refused: 0 });
    // A failure message shows the answer judged, and that a 502 came first.
    const shown = formatExchange(res.exchange);
    expect(shown).toContain('< HTTP 200');
    expect(shown).toMatch(/\(sent twice: the first answer was HTTP 502 \(\d+ ms\), and a 502 is sent once more before a rule judges it; the answer above is the second\)/);
  });

  it.each([502, 504])('a GET answered %i twice: the rule sees the second, with the first in its exchange, and no third is sent', async (status) => {
    const srv = await serve((_req, res) => res.writeHead(status).end(`{"n":${srv.received.length}}`));
    const c = client(srv.url);
    const res = await c.request('GET', '/widgets');
    expect(res.status).toBe(status);
    expect(res.json).toEqual({ n: 2 });
    expect(res.exchange.earlier?.response?.body).toBe('{"n":1}');
    expect(srv.received).toHaveLength(2);
  });

  it.each(['POST', 'PATCH'])('a %s answered 502 is not sent again (it may have been applied): the rule sees the 502, with a note', async (method) => {
    const srv = await serve((_req, res) => res.writeHead(502).end());
    const c = client(srv.url);
    const res = await write(c, method, '/widgets', { body: '{}' });
    expect(res.status).toBe(502);
    expect(res.exchange.note).toBe(`502 to a ${method}: not sent again, since the gateway may have passed it on and the server applied it`);
    expect(formatExchange(res.exchange)).toContain(`(502 to a ${method}: not sent again`);
    expect(res.exchange.earlier).toBeUndefined();
    expect(srv.received).toHaveLength(1);
  });

  it('a 500 is an answer: returned as it is, never sent again', async () => {
    const srv = await serve((_req, res) => res.writeHead(500).end());
    const c = client(srv.url);
    expect((await c.request('GET', '/widgets')).status).toBe(500);
    expect(srv.received).toHaveLength(1);
  });
});

describe.concurrent('HttpClient: rate-limit wait budget', () => {
  /** A budget that one 250 ms backoff spends exactly. */
  const SMALL_BUDGET_MS = 250;

  it('once the budget is spent, the request fails at once and no further request is sent', async () => {
    const srv = await serve((_req, res) => res.writeHead(429).end());
    const c = client(srv.url, { maxRetries: 5, maxRateLimitWaitMs: SMALL_BUDGET_MS });
    const error = await rejectionOf(c.request('GET', '/widgets'));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/widgets answered 429, the rate-limit wait budget of 250 ms \(--max-rate-limit-wait\) is spent; no further request is sent: the target refused 2 request\(s\) \(2 with 429 \(no Retry-After\)\) beyond the wait budget, and answered none$/,
    );
    expect(srv.received).toHaveLength(2);
    expect(c.stats.rateLimitWaitMs).toBe(SMALL_BUDGET_MS);

    const started = performance.now();
    const next = await rejectionOf(c.request('GET', '/other'));
    expect(next).toBeInstanceOf(RateLimitError);
    expect(next.message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/other: not sent, the target refused 2 request\(s\) \(2 with 429 \(no Retry-After\)\) beyond the wait budget, and answered none$/);
    expect(performance.now() - started).toBeLessThan(SMALL_BUDGET_MS);
    expect(srv.received).toHaveLength(2);
  });

  it('a Retry-After longer than what is left of the budget fails at once instead of waiting', async () => {
    const srv = await serve((_req, res) => res.writeHead(429, { 'retry-after': '1' }).end());
    const c = client(srv.url, { maxRateLimitWaitMs: 300 });
    const started = performance.now();
    const error = await rejectionOf(c.request('GET', '/widgets'));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toContain('answered 429, asking for a wait of 1000 ms, more than the 300 ms left: the rate-limit wait budget of 300 ms');
    expect(performance.now() - started).toBeLessThan(900);
    expect(srv.received).toHaveLength(1);
    expect(c.stats).toMatchObject({ retries: 0, rateLimitWaitMs: 0 });
    expect(await rejectionOf(c.request('GET', '/widgets'))).toBeInstanceOf(RateLimitError);
    expect(srv.received).toHaveLength(1);
  });

  it('the budget is wall-clock time blocked: four requests refused together with Retry-After: 1 cost about 1 s of it, not 4 s', async () => {
    let calls = 0;
    const srv = await serve((_req, res) => {
      calls += 1;
      if (calls <= 4) res.writeHead(429, { 'retry-after': '1' }).end();
      else res.writeHead(200).end('{}');
    });
    // 2.5 s: enough for the pauses' union (about 1 s), far short of their sum (4 s).
    const c = client(srv.url, { maxRateLimitWaitMs: 2_500 });
    const answers = await Promise.all([1, 2, 3, 4].map(() => c.request('GET', '/widgets')));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(c.stats.refused).toBe(4);
    expect(c.stats.rateLimitWaitMs).toBeGreaterThanOrEqual(1_000);
    expect(c.stats.rateLimitWaitMs).toBeLessThan(2_000);
  });

  it('a 503 with Retry-After is paid from the same budget', async () => {
    const srv = await serve((_req, res) => res.writeHead(503, { 'retry-after': '2' }).end());
    const error = await rejectionOf(client(srv.url, { maxRateLimitWaitMs: 300 }).request('GET', '/widgets'));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toContain('answered 503, asking for a wait of 2000 ms');
  });
});

describe.concurrent('HttpClient: pacing', () => {
  it('--max-rate spaces requests: 6 requests at 20 per second span at least 5 intervals of 50 ms, and the stats name the pace', async () => {
    const arrivals: number[] = [];
    const srv = await serve((_req, res) => {
      arrivals.push(performance.now());
      res.writeHead(200).end('{}');
    });
    const c = client(srv.url, { maxRate: 20 });
    await Promise.all([1, 2, 3, 4, 5, 6].map(() => c.request('GET', '/widgets')));
    // A lower bound only: a loaded machine makes it slower, never faster. 45 ms per gap for timer rounding.
    expect(arrivals.at(-1)! - arrivals[0]!).toBeGreaterThanOrEqual(5 * 45);
    expect(c.stats).toMatchObject({ refused: 0, pacedRate: 20 });
  });

  it('a RateLimit field saying nothing remains holds the next request until its reset, and nothing is refused', async () => {
    const arrivals: number[] = [];
    const srv = await serve((_req, res) => {
      arrivals.push(performance.now());
      res.writeHead(200, { 'ratelimit-policy': '"burst";q=2;w=1', ratelimit: `"burst";r=${arrivals.length === 1 ? 0 : 1};t=1` }).end('{}');
    });
    const c = client(srv.url);
    await c.request('GET', '/widgets');
    await c.request('GET', '/widgets');
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(950);
    expect(c.stats.refused).toBe(0);
    expect(c.stats.rateLimitWaitMs).toBeGreaterThanOrEqual(950);
    // The policy's 2 per second, less the margin for clocks that differ.
    expect(c.stats.pacedRate).toBeLessThanOrEqual(2);
  });

  it('a spent window whose reset is longer than --max-retry-wait is not waited for: the request goes, and a 429 is handled as any other', async () => {
    const srv = await serve((_req, res) => res.writeHead(200, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '3600' }).end('{}'));
    const c = client(srv.url, { maxRetryWaitMs: 1_000 });
    const started = performance.now();
    await c.request('GET', '/widgets');
    await c.request('GET', '/widgets');
    expect(performance.now() - started).toBeLessThan(900);
    expect(c.stats.rateLimitWaitMs).toBe(0);
  });
});

describe.concurrent('HttpClient: adaptive concurrency', () => {
  /** A server answering after `delayMs`, counting the most requests it held at once. */
  async function slowServer(delayMs: number): Promise<{ url: string; peak: () => number }> {
    let inFlight = 0;
    let peak = 0;
    const srv = await serve((_req, res) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        res.writeHead(200).end('{}');
      }, delayMs);
    });
    return { url: srv.url, peak: () => peak };
  }

  it(`without --concurrency, a far server that answers more with more slots gets them, up to ${ADAPTIVE_MAX_SLOTS}, and never more`, async () => {
    const srv = await slowServer(25);
    const c = client(srv.url, { concurrency: 4, adaptConcurrency: true });
    // Sixteen tests sending one request after another: more than the slots, all the time.
    await Promise.all(Array.from({ length: 16 }, async () => {
      for (let i = 0; i < 10; i++) await c.request('GET', '/widgets');
    }));
    // 25 ms and more per answer: ceil(320 x 0.025) = 8 slots allowed (the controller itself: concurrency.test.ts).
    expect(c.stats.slots).toBe(ADAPTIVE_MAX_SLOTS);
    expect(srv.peak()).toBe(ADAPTIVE_MAX_SLOTS);
  });

  it('n requests in flight use n connections: one request at a time goes on one connection however many the client may open', async () => {
    const sockets = new Set<unknown>();
    const srv = await serve((req, res) => {
      sockets.add(req.socket);
      res.writeHead(200).end('{}');
    });
    const c = client(srv.url, { concurrency: 3 });
    for (let i = 0; i < 5; i++) await c.request('GET', '/widgets');
    // A server that serves one connection at a time would otherwise leave a request waiting on a second one.
    expect(sockets.size).toBe(1);
    await Promise.all(Array.from({ length: 6 }, () => c.request('GET', '/widgets')));
    expect(sockets.size).toBe(3);
  });

  it('the connection freed last is taken first: after a wait, the next request goes where the server just answered', async () => {
    const socketOf = new Map<string, unknown>();
    let answerB!: () => void;
    const bMayGo = new Promise<void>((resolve) => (answerB = resolve));
    const srv = await serve((req, res) => {
      socketOf.set(req.url ?? '', req.socket);
      if (req.url === '/b') void bMayGo.then(() => res.writeHead(200).end('{}'));
      else res.writeHead(200).end('{}');
    });
    const c = client(srv.url, { concurrency: 2 });
    const a = c.request('GET', '/a');
    const b = c.request('GET', '/b');
    await a;
    answerB();
    await b;
    await c.request('GET', '/c');
    expect(socketOf.get('/a')).not.toBe(socketOf.get('/b'));
    // The lowest connection (a's) is free too, but b's was freed last.
    expect(socketOf.get('/c')).toBe(socketOf.get('/b'));
  });

  it('a server with one worker that serves one keep-alive connection at a time answers every request of sixteen tests, none waiting for an idle connection to close: the slots fall back at the stall, and the idle connections close while a request waits', async () => {
    const sockets = new Set<unknown>();
    const worker = oneWorker({ handle: async (_req, res) => void res.writeHead(200).end('{}') }, () => 1);
    const srv = await serve((req, res) => {
      sockets.add(req.socket);
      void worker.handle(req, res);
    });
    // A request left waiting until the served connection idles out would take longer than this.
    const c = client(srv.url, { concurrency: 4, adaptConcurrency: true, timeoutMs: IDLE_KEEP_ALIVE_MS });
    await Promise.all(Array.from({ length: 16 }, async () => {
      for (let i = 0; i < 20; i++) await c.request('GET', '/widgets');
    }));
    // More than one connection was tried, and taken back.
    expect(c.stats.slots).toBeGreaterThan(1);
    expect(sockets.size).toBeGreaterThan(1);
  });

  it('with --concurrency given, the slots stay as given however far the server', async () => {
    const srv = await slowServer(40);
    const c = client(srv.url, { concurrency: 4 });
    for (let i = 0; i < 25; i++) await c.request('GET', '/widgets');
    await Promise.all(Array.from({ length: 20 }, () => c.request('GET', '/widgets')));
    expect(c.stats.slots).toBe(4);
    expect(srv.peak()).toBe(4);
  });
});

describe.concurrent('HttpClient: the run deadline', { timeout: 5_000 }, () => {
  it('after the deadline no request is sent: each fails at once with a TransportError', async () => {
    const srv = await serve((_req, res) => res.end('{}'));
    const c = client(srv.url, { deadline: Date.now() - 1 });
    const error = await rejectionOf(c.request('GET', '/widgets'));
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/widgets: not sent: the run's time budget is spent$/);
    expect(srv.received).toHaveLength(0);
  });

  it('a request cannot run past the deadline: its timeout is shortened to what is left', async () => {
    const srv = await serve(() => {
      /* never answers */
    });
    const c = client(srv.url, { timeoutMs: 4_000, deadline: Date.now() + 300 });
    const started = performance.now();
    const error = await rejectionOf(c.request('GET', '/widgets'));
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toContain("no complete response before the run's time budget ran out");
    expect(performance.now() - started).toBeLessThan(2_000);
    expect((await rejectionOf(c.request('GET', '/widgets'))).message).toContain("not sent: the run's time budget is spent");
    expect(srv.received).toHaveLength(1);
  });

  it('a Retry-After that would end past the deadline fails at once', async () => {
    const srv = await serve((_req, res) => res.writeHead(429, { 'retry-after': '2' }).end());
    const started = performance.now();
    const error = await rejectionOf(client(srv.url, { deadline: Date.now() + 1_000 }).request('GET', '/widgets'));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toContain("would end past the run's time budget");
    expect(performance.now() - started).toBeLessThan(900);
  });
});

describe.concurrent('HttpClient: concurrency', () => {
  it('with concurrency 2, six parallel requests never put more than 2 in flight at the server', async () => {
    const events = new EventEmitter();
    const held: ServerResponse[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const srv = await serve((req, res) => {
      if (req.url === '/ping') {
        res.end('{}');
        return;
      }
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      held.push(res);
      events.emit('arrived');
    });
    /** Resolves once at least `n` requests are held by the server. */
    const held_ = async (n: number): Promise<void> => {
      while (held.length < n) await once(events, 'arrived');
    };
    /** A round trip on a separate connection: lets anything the client already sent arrive first. */
    const ping = async (): Promise<void> => {
      const req = nodeRequest(`${srv.url}/ping`, { agent: false });
      req.end();
      const [res] = (await once(req, 'response')) as [IncomingMessage];
      res.resume();
      await once(res, 'end');
    };

    const c = client(srv.url, { concurrency: 2 });
    const all = Promise.all(Array.from({ length: 6 }, (_, i) => c.request('GET', `/widgets/${i}`)));
    let released = 0;
    while (released < 6) {
      await held_(Math.min(2, 6 - released));
      await ping();
      expect(inFlight).toBeLessThanOrEqual(2);
      const res = held.shift() as ServerResponse;
      inFlight -= 1;
      res.end('{"ok":true}');
      released += 1;
    }
    const results = await all;
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(maxInFlight).toBe(2);
    expect(srv.received.filter((r) => r.url !== '/ping')).toHaveLength(6);
  });
});

describe.concurrent('HttpClient: recorded exchanges', () => {
  const SECRET = 'sk-live-7f3a9c0e51b24d86';

  it('redacts a secret in the URL query, request headers, request body and response body, and hides Authorization credentials', async () => {
    const srv = await serve((_req, res, body) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-echo': SECRET });
      res.end(JSON.stringify({ echoed: body.toString('utf8'), token: SECRET }));
    });
    const res = await write(client(srv.url, { secrets: [SECRET] }), 'POST', '/widgets', {
      query: { access_token: SECRET },
      headers: { authorization: `Bearer ${SECRET}`, 'x-api-key': SECRET, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `n ${SECRET}` }),
    });
    // The raw answer is untouched (checks need it); only the recording is redacted.
    expect(res.text).toContain(SECRET);
    expect(srv.received[0]?.url).toBe(`/widgets?access_token=${SECRET}`);

    const recorded = JSON.stringify(res.exchange);
    expect(recorded).not.toContain(SECRET);
    const { request, response } = res.exchange;
    expect(request.method).toBe('POST');
    expect(request.url).toBe(`${srv.url}/widgets?access_token=[REDACTED]`);
    expect(request.headers.authorization).toBe('Bearer [REDACTED]');
    expect(request.headers['x-api-key']).toBe('[REDACTED]');
    expect(request.body).toBe('{"name":"n [REDACTED]"}');
    expect(response?.headers['x-echo']).toBe('[REDACTED]');
    expect(response?.body).toContain('"token":"[REDACTED]"');
    expect(response?.body).toContain('n [REDACTED]');
    expect(res.exchange.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('keeps the Authorization scheme visible and hides an unknown bearer credential too', async () => {
    const srv = await serve((_req, res) => res.end('{}'));
    const res = await client(srv.url, { secrets: [SECRET] }).request('GET', '/widgets', {
      headers: { authorization: 'Bearer not-a-configured-secret' },
    });
    expect(res.exchange.request.headers.authorization).toBe('Bearer [REDACTED]');
    expect(JSON.stringify(res.exchange)).not.toContain('not-a-configured-secret');
  });

  it('records a transport failure message with the secret in the URL redacted', async () => {
    const error = await rejectionOf(client(await refusedUrl(), { secrets: [SECRET] }).request('GET', '/widgets', { query: { t: SECRET } }));
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toContain('/widgets?t=[REDACTED]');
    expect(error.message).not.toContain(SECRET);
  });

  it('cuts the recorded response body at 4096 bytes with a note of the total size, keeping the full text', async () => {
    const body = JSON.stringify({ data: 'x'.repeat(10_000) });
    const srv = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    const res = await client(srv.url).request('GET', '/widgets');
    expect(res.text).toBe(body);
    expect(res.json).toEqual({ data: 'x'.repeat(10_000) });
    const recorded = res.exchange.response?.body ?? '';
    expect(recorded.startsWith(body.slice(0, RECORDED_BODY_LIMIT))).toBe(true);
    expect(recorded).toBe(`${body.slice(0, 4096)}\n… [body cut at 4096 bytes of ${Buffer.byteLength(body)}]`);
  });

  it('cuts a long recorded request body the same way', async () => {
    const srv = await serve((_req, res) => res.end('{}'));
    const body = 'y'.repeat(5_000);
    const res = await write(client(srv.url), 'POST', '/widgets', { body });
    expect(srv.received[0]?.body).toBe(body);
    expect(res.exchange.request.body).toBe(`${'y'.repeat(4096)}\n… [body cut at 4096 bytes of 5000]`);
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds as milliseconds, ignoring surrounding spaces', () => {
    expect(parseRetryAfter('0')).toBe(0);
    expect(parseRetryAfter('120')).toBe(120_000);
    expect(parseRetryAfter(' 7 ')).toBe(7_000);
  });

  it('reads an HTTP-date as the time left until then, and a past date as 0', () => {
    const date = 'Wed, 21 Oct 2015 07:28:00 GMT';
    const at = Date.UTC(2015, 9, 21, 7, 28, 0);
    expect(parseRetryAfter(date, at - 30_000)).toBe(30_000);
    expect(parseRetryAfter(date, at)).toBe(0);
    expect(parseRetryAfter(date, at + 60_000)).toBe(0);
  });

  it('returns undefined for a value that is neither delta-seconds nor a date', () => {
    for (const garbage of ['', 'soon', '10s', 'Infinity', '0x10', '1e3', 'NaN', '1.5', '-1', 'May 5', '2026-11-21']) {
      expect(parseRetryAfter(garbage, 0), garbage).toBeUndefined();
    }
  });
});

describe('parseJsonBody', () => {
  it('parses any JSON value, null and false included, without a jsonError', () => {
    expect(parseJsonBody(Buffer.from('{"a":[1,2]}'))).toEqual({ json: { a: [1, 2] } });
    expect(parseJsonBody(Buffer.from('null'))).toEqual({ json: null });
    expect(parseJsonBody(Buffer.from(' false '))).toEqual({ json: false });
    expect(parseJsonBody(Buffer.from('"é✓"'))).toEqual({ json: 'é✓' });
  });

  it('says the body is empty for zero bytes', () => {
    expect(parseJsonBody(Buffer.alloc(0))).toEqual({ json: undefined, jsonError: 'the body is empty' });
  });

  it('says the body is not valid UTF-8 for a lone continuation byte or an overlong encoding', () => {
    expect(parseJsonBody(Buffer.from([0x22, 0x80, 0x22]))).toEqual({ json: undefined, jsonError: 'the body is not valid UTF-8' });
    expect(parseJsonBody(Buffer.from([0x22, 0xc0, 0xa2, 0x22]))).toEqual({ json: undefined, jsonError: 'the body is not valid UTF-8' });
  });

  it('says the body is not valid JSON, with the parser message, for malformed text', () => {
    const { json, jsonError } = parseJsonBody(Buffer.from("{'a':1}"));
    expect(json).toBeUndefined();
    expect(jsonError).toMatch(/^the body is not valid JSON \(.+\)$/);
    expect(parseJsonBody(Buffer.from('   ')).jsonError).toMatch(/^the body is not valid JSON/);
  });
});
