/**
 * A conformant server behind a gateway's rate limit (40 requests per second, burst 10, 429 with
 * Retry-After: 1) is judged conformant, paced, with few requests refused: the suite slows down
 * before the limit instead of being refused into an incomplete run. Counts come from the report
 * and the gateway, not wall time (timing is the bench's: `npm run bench`).
 */
import { describe, expect, test } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RateLimitedHandler } from '../../src/reference/rate-limited.ts';
import { ReferenceService, DEFAULT_TOKENS } from '../../src/reference/service.ts';
import { runAgainst } from '../servers/serve.ts';
import { explain, type SuiteRun } from '../support/suite-runner.ts';

/** Fewer property runs than the default: the pace, not the properties, is under test, and every request costs 25 ms here. */
const ARGS = ['--runs', '10'];

function gateway(headers: boolean, style?: 'nginx'): { handler: RateLimitedHandler; tokens: [string, string] } {
  const service = new ReferenceService();
  const tokens = Object.entries(DEFAULT_TOKENS);
  const first = tokens[0]!;
  const second = tokens.find(([, account]) => account !== first[1])!;
  return { handler: new RateLimitedHandler(service, { rate: 40, burst: 10, retryAfterSeconds: 1, headers, ...(style ? { status: 503 as const } : {}) }), tokens: [first[0], second[0]] };
}

function expectConformant(run: SuiteRun): void {
  expect(run.exitCode, explain(run)).toBe(0);
  const mustNotPassed = (run.report?.rules ?? []).filter((r) => r.level === 'MUST' && r.outcome !== 'pass');
  expect(mustNotPassed.map((r) => r.id), explain(run)).toEqual([]);
}

describe.concurrent('a conformant server behind a 40/s rate limit', { timeout: 240_000 }, () => {
  test('429 with Retry-After: 1 only: judged conformant, paced at a learned rate, at most 10% of requests refused, and the report counts every refusal', async () => {
    const server = gateway(false);
    const run = await runAgainst(server, ARGS);
    expectConformant(run);
    const report = run.report!;
    expect(report.refused, explain(run)).toBe(server.handler.counts.refused);
    expect(report.refused, explain(run)).toBeLessThanOrEqual(0.1 * report.requests);
    expect(report.pacedRate, explain(run)).not.toBeNull();
    expect(report.pacedRate!, explain(run)).toBeLessThanOrEqual(60);
    expect(run.stdout).toMatch(new RegExp(`Pace: [\\d.]+ requests/s at the end \\(learned from the server's rate-limit answers\\); ${report.refused} of ${report.requests} requests refused`));
  });

  test("nginx's limit_req (503 with an HTML page, no Retry-After): every refusal retried and counted, none blamed on a rule, judged conformant", async () => {
    const server = gateway(false, 'nginx');
    const run = await runAgainst(server, ARGS);
    expectConformant(run);
    const report = run.report!;
    expect(server.handler.counts.refused, 'the gateway refused some').toBeGreaterThan(0);
    expect(report.refused, explain(run)).toBe(server.handler.counts.refused);
    expect(report.pacedRate, explain(run)).not.toBeNull();
    expect(run.stdout).toMatch(new RegExp(`Pace: [\\d.]+ requests/s at the end \\(learned from the server's rate-limit answers\\); ${report.refused} of ${report.requests} requests refused \\(429/503\\)`));
  });

  test('with RateLimit-Policy and RateLimit fields too: paced at the stated rate, almost nothing refused', async () => {
    const server = gateway(true);
    const run = await runAgainst(server, ARGS);
    expectConformant(run);
    const report = run.report!;
    expect(report.refused, explain(run)).toBe(server.handler.counts.refused);
    // Only what was already in flight when the first answer stated the policy can be refused.
    expect(report.refused, explain(run)).toBeLessThanOrEqual(0.01 * report.requests);
    expect(report.pacedRate, explain(run)).toBeLessThanOrEqual(40);
  });
});

describe('--max-rate', { timeout: 240_000 }, () => {
  // Unpaced, this selection sends about 190 requests, up to 130 in one second here: either bound below catches a run that ignores the flag.
  test('caps the load of a run against an unlimited server: on average at most n requests per second, and the report says it was paced at n', async () => {
    const MAX_RATE = 20;
    const service = new ReferenceService();
    const arrivals: number[] = [];
    const handler = { handle: (req: IncomingMessage, res: ServerResponse) => (arrivals.push(performance.now()), service.handle(req, res)) };
    const { tokens } = gateway(false);
    const run = await runAgainst({ handler, tokens }, ['--only', 'CRUD,FMT,PAGE,MAL', '--max-rate', String(MAX_RATE)]);
    expectConformant(run);
    expect(run.report!.pacedRate, explain(run)).toBe(MAX_RATE);
    expect(run.report!.refused).toBe(0);
    // Each client (the probe's, the tests', the cleanup's) spaces its requests at 1/n s; they run one after another.
    const spanS = (arrivals.at(-1)! - arrivals[0]!) / 1000;
    expect(arrivals.length / spanS, `${arrivals.length} requests in ${spanS.toFixed(2)} s`).toBeLessThanOrEqual(MAX_RATE * 1.05);
    // In any one second: at most n from one client, plus at most n from the next one where two meet (the tests' end, the cleanup's start).
    let busiest = 0;
    for (let i = 0, j = 0; i < arrivals.length; i++) {
      while (arrivals[i]! - arrivals[j]! > 1000) j++;
      busiest = Math.max(busiest, i - j + 1);
    }
    expect(busiest, 'the most requests in any one second').toBeLessThanOrEqual(2 * MAX_RATE + 2);
    expect(run.stdout).toContain(`Pace: ${MAX_RATE} requests/s at the end (--max-rate ${MAX_RATE})`);
  });
});
