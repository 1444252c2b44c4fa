/**
 * `widget-conformance serve`'s shapes, in process: the flags (every mistake a one-line
 * ConfigError), the gateway's two refusal forms (429 with Retry-After; nginx's 503 without) and
 * the added latency (on a timer: many requests wait at once, each at least the latency late).
 */
import { request } from 'undici';
import { afterEach, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { ConfigError } from '../../../src/errors.ts';
import { DelayedHandler } from '../../../src/reference/latency.ts';
import { NGINX_503_PAGE, RateLimitedHandler } from '../../../src/reference/rate-limited.ts';
import { MAX_LATENCY_MS, parseServeOptions, SERVE_DEFAULTS } from '../../../src/reference/serve-options.ts';
import { startServer, type RunningServer } from '../../../src/reference/server.ts';
import { DEFAULT_TOKENS, ReferenceService } from '../../../src/reference/service.ts';

const TOKEN = Object.keys(DEFAULT_TOKENS)[0]!;

describe('serve flags', () => {
  test('defaults: loopback, port 8080, no latency, no rate limit', () => {
    expect(parseServeOptions([])).toEqual({ host: '127.0.0.1', port: 8080, latencyMs: 0, help: false });
    expect(SERVE_DEFAULTS.host).toBe('127.0.0.1');
  });

  test('every shaping flag is read', () => {
    expect(
      parseServeOptions(['--port', '0', '--host', '::1', '--latency', '250', '--rate-limit', '40/s', '--rate-limit-burst', '3', '--rate-limit-status', '503', '--rate-limit-headers']),
    ).toEqual({ host: '::1', port: 0, latencyMs: 250, rateLimit: { rate: 40, burst: 3, status: 503, headers: true }, help: false });
  });

  test('--rate-limit alone: 429, a burst of a quarter of the rate (at least 1), no RateLimit fields; decimals allowed', () => {
    expect(parseServeOptions(['--rate-limit', '40/s']).rateLimit).toEqual({ rate: 40, burst: 10, status: 429, headers: false });
    expect(parseServeOptions(['--rate-limit', '0.5/s']).rateLimit).toEqual({ rate: 0.5, burst: 1, status: 429, headers: false });
  });

  test.each([
    [['--port', '65536'], '--port must be an integer from 0 to 65535'],
    [['--port', '-1'], '--port'],
    [['--port', 'http'], '--port must be an integer'],
    [['--host', ' '], '--host must not be empty'],
    [['--latency', '1.5'], '--latency must be an integer from 0 to 60000'],
    [['--latency', String(MAX_LATENCY_MS + 1)], '--latency must be an integer'],
    [['--rate-limit', '40'], '--rate-limit must be requests per second as N/s'],
    [['--rate-limit', '40/m'], '--rate-limit must be requests per second'],
    [['--rate-limit', '0/s'], '--rate-limit must be requests per second'],
    [['--rate-limit', '40/s', '--rate-limit-status', '502'], '--rate-limit-status must be 429 or 503, got "502"'],
    [['--rate-limit', '40/s', '--rate-limit-burst', '0'], '--rate-limit-burst must be an integer from 1'],
    [['--rate-limit-status', '503'], '--rate-limit-status needs --rate-limit N/s'],
    [['--rate-limit-headers'], '--rate-limit-headers needs --rate-limit N/s'],
    [['--latency'], "Option '--latency <value>' argument missing"],
    [['--verbose'], "Unknown option '--verbose'"],
    [['serve'], 'Unexpected argument'],
  ])('%j: one line naming the mistake', (argv, message) => {
    let thrown: unknown;
    try {
      parseServeOptions(argv);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toContain(message);
    expect((thrown as Error).message).not.toContain('\n');
  });

  test('any argument list either parses or throws a one-line ConfigError, never anything else', () => {
    const word = fc.oneof(
      fc.constantFrom('--port', '--host', '--latency', '--rate-limit', '--rate-limit-burst', '--rate-limit-status', '--rate-limit-headers', '-h', '--help'),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(word, { maxLength: 8 }), (argv) => {
        try {
          const options = parseServeOptions(argv);
          expect(options.port).toBeGreaterThanOrEqual(0);
          expect(options.port).toBeLessThanOrEqual(65535);
          expect(options.latencyMs).toBeLessThanOrEqual(MAX_LATENCY_MS);
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigError);
          expect((error as Error).message).not.toContain('\n');
        }
      }),
    );
  });
});

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function get(server: RunningServer): Promise<{ status: number; headers: Record<string, unknown>; body: string; ms: number }> {
  const started = performance.now();
  const res = await request(`${server.baseUrl}/widgets`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const body = await res.body.text();
  return { status: res.statusCode, headers: res.headers, body, ms: performance.now() - started };
}

describe('the gateway', () => {
  test('429 form: a burst of 2 at a low rate lets two through, then answers 429 with Retry-After: 1 and a JSON Error', async () => {
    const handler = new RateLimitedHandler(new ReferenceService(), { rate: 0.01, burst: 2, retryAfterSeconds: 1 });
    running = await startServer(handler);
    const answers = [await get(running), await get(running), await get(running)];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
    expect(answers[2]!.headers['retry-after']).toBe('1');
    expect(JSON.parse(answers[2]!.body)).toMatchObject({ code: 'rate_limited' });
    expect(handler.counts).toEqual({ accepted: 2, refused: 1 });
  });

  test("503 form: answered as nginx's default limit_req does, with an HTML page and no Retry-After", async () => {
    const handler = new RateLimitedHandler(new ReferenceService(), { rate: 0.01, burst: 1, retryAfterSeconds: 1, status: 503 });
    running = await startServer(handler);
    const answers = [await get(running), await get(running)];
    expect(answers.map((a) => a.status)).toEqual([200, 503]);
    expect(answers[1]!.headers['retry-after']).toBeUndefined();
    expect(answers[1]!.headers['content-type']).toBe('text/html');
    expect(answers[1]!.body).toBe(NGINX_503_PAGE);
    expect(answers[1]!.body).toContain('<center>nginx</center>');
  });

  test('RateLimit fields on every answer when asked, refusals included', async () => {
    running = await startServer(new RateLimitedHandler(new ReferenceService(), { rate: 0.01, burst: 1, retryAfterSeconds: 1, headers: true }));
    const answers = [await get(running), await get(running)];
    for (const answer of answers) {
      expect(answer.headers['ratelimit-policy']).toBe('"gateway";q=0.01;w=1');
      expect(answer.headers.ratelimit).toMatch(/^"gateway";r=0;t=\d+$/);
    }
  });
});

describe('added latency', () => {
  test('every answer is at least the latency late, and twenty at once wait together (timers, not one after another)', async () => {
    const LATENCY_MS = 150;
    running = await startServer(new DelayedHandler(new ReferenceService(), LATENCY_MS));
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 20 }, () => get(running!)));
    const wall = performance.now() - started;
    expect(answers.every((a) => a.status === 200)).toBe(true);
    // Timer resolution allows a millisecond early at most.
    expect(Math.min(...answers.map((a) => a.ms))).toBeGreaterThanOrEqual(LATENCY_MS - 1);
    // In series they would take 20 × 150 ms = 3 s; together about one latency (a loaded machine adds to it, never 2 s).
    expect(wall).toBeLessThan(2000);
  });

  test('a refusal behind the latency is late too: the request crosses the network before the gateway sees it', async () => {
    const LATENCY_MS = 100;
    running = await startServer(new DelayedHandler(new RateLimitedHandler(new ReferenceService(), { rate: 0.01, burst: 1, retryAfterSeconds: 1 }), LATENCY_MS));
    const answers = [await get(running), await get(running)];
    expect(answers.map((a) => a.status)).toEqual([200, 429]);
    expect(answers[1]!.ms).toBeGreaterThanOrEqual(LATENCY_MS - 1);
  });
});
