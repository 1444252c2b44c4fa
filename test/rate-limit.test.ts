/**
 * A conformant server behind a gateway's rate limit (40 requests per second, burst 10, 429 with
 * Retry-After: 1) is judged conformant, paced, with few requests refused: the suite slows down
 * before the limit instead of being refused into an incomplete run. Counts come from the report
 * and the gateway, not wall time (timing is the bench's: `npm run bench`).
 */
import { describe, expect, test } from 'vitest';
import { RateLimitedHandler } from '../src/reference/rate-limited.ts';
import { ReferenceService, DEFAULT_TOKENS } from '../src/reference/service.ts';
import { runAgainst } from './servers/serve.ts';
import { explain, type SuiteRun } from './support/suite-runner.ts';

/** Fewer property runs than the default: the pace, not the properties, is under test, and every request costs 25 ms here. */
const ARGS = ['--runs', '10'];

function gateway(headers: boolean): { handler: RateLimitedHandler; tokens: [string, string] } {
  const service = new ReferenceService();
  const tokens = Object.entries(DEFAULT_TOKENS);
  const first = tokens[0]!;
  const second = tokens.find(([, account]) => account !== first[1])!;
  return { handler: new RateLimitedHandler(service, { rate: 40, burst: 10, retryAfterSeconds: 1, headers }), tokens: [first[0], second[0]] };
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
