/**
 * `widget-conformance serve` (`npm run serve`): the reference server on its own, for people
 * writing an implementation, optionally slow or rate-limited. What it prints is copied into
 * shells, so the command it suggests keeps the tokens in the environment (never `--token` flags,
 * which other processes and shell history see), and the tokens it prints are its own, generated
 * at start and named as test tokens. Behind `--rate-limit 40/s` (429 with Retry-After) the suite
 * judges it conformant; the nginx-like 503 form is checked here by the server's answers only.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { serve, stop, stopAllServers } from '../support/serve-process.ts';
import { explain, runSuite } from '../support/suite-runner.ts';

afterEach(stopAllServers);

test('npm run serve prints its base URL, its two generated test tokens by variable name, a run command that passes them in the environment, and stops on SIGTERM', async () => {
  const serving = await serve(['--port', '0'], 'widget-serve.mjs');
  const out = serving.output();
  const run = out.split('\n').find((line) => line.includes('npm test'));
  expect(run, out).toMatch(/^ {2}WIDGET_TOKEN=\S+ WIDGET_SECOND_TOKEN=\S+ npm test -- --base-url http:\/\/127\.0\.0\.1:\d+\/v1$/);
  expect(out, 'no token flag is suggested').not.toMatch(/--(second-)?token\b/);
  for (const token of serving.tokens) expect(token, 'named as a test token of this server').toMatch(/^local-test-token-(alice|bob)-[0-9a-f]{24}$/);
  expect(out).toContain('generated at start (they open this test server only)');
  expect(out).toContain('Shape: no added latency; no rate limit.');
  expect(await stop(serving, 'SIGTERM'), 'exit code').toBe(0);
  expect(serving.output()).toContain('Widget reference server stopped.');
});

test('widget-conformance serve: tokens differ from one start to the next, and SIGINT stops it cleanly', async () => {
  const [first, second] = await Promise.all([serve(['--port', '0']), serve(['--port', '0'])]);
  expect(first.tokens[0]).not.toBe(second.tokens[0]);
  expect(first.tokens[0]).not.toBe(first.tokens[1]);
  expect(await stop(first, 'SIGINT')).toBe(0);
  expect(await stop(second, 'SIGTERM')).toBe(0);
});

test('a bad serve flag: one line on stderr and exit 2', async () => {
  for (const args of [['--rate-limit', 'fast'], ['--latency', '-5'], ['--nope']]) {
    const child = spawn(process.execPath, [join(PROJECT_ROOT, 'bin/widget-conformance.mjs'), 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code, err).toBe(2);
    expect(err.trimEnd().split('\n'), err).toHaveLength(1);
    expect(err).toMatch(/^serve: .* \(usage: widget-conformance serve /);
  }
});

test('serve --rate-limit 40/s (429 with Retry-After): the suite, paced by it, judges it conformant, and its refusals are counted', { timeout: 240_000 }, async () => {
  // A burst of 2 makes refusals certain on loopback, so the limit is shown to be live.
  const serving = await serve(['--port', '0', '--rate-limit', '40/s', '--rate-limit-burst', '2', '--latency', '5']);
  expect(serving.output()).toContain('Shape: every answer 5 ms late; rate limit 40/s (burst 2), beyond it 429 with Retry-After: 1.');
  try {
    const run = await runSuite(['--base-url', serving.baseUrl, '--only', 'CRUD,AUTH,ISO'], { env: { WIDGET_TOKEN: serving.tokens[0], WIDGET_SECOND_TOKEN: serving.tokens[1] } });
    expect(run.exitCode, explain(run)).toBe(0);
    // A selection may be worded as a partial verdict (the verdict's words are the report's to choose): never a failing one.
    expect(run.report!.verdict, explain(run)).toMatch(/conformant|partial/);
    expect(run.report!.verdict, explain(run)).not.toMatch(/not-conformant|error|incomplete|interrupted/);
    expect(run.report!.refused, 'requests the gateway refused').toBeGreaterThan(0);
    // The report lists the selected rules only.
    const ran = run.report!.rules;
    expect(ran.length, explain(run)).toBeGreaterThan(0);
    expect(ran.filter((r) => r.level === 'MUST' && r.outcome !== 'pass').map((r) => r.id), explain(run)).toEqual([]);
  } finally {
    expect(await stop(serving, 'SIGTERM')).toBe(0);
  }
});

test("serve --rate-limit … --rate-limit-status 503 --latency 30: answers as nginx's default limit_req (503, HTML, no Retry-After), every answer late", async () => {
  const serving = await serve(['--port', '0', '--rate-limit', '0.5/s', '--rate-limit-burst', '1', '--rate-limit-status', '503', '--latency', '30']);
  const answers: Array<{ status: number; retryAfter: unknown; type: unknown; body: string; ms: number }> = [];
  for (let i = 0; i < 2; i++) {
    const started = performance.now();
    const res = await request(`${serving.baseUrl}/widgets`, { headers: { authorization: `Bearer ${serving.tokens[0]}` } });
    const body = await res.body.text();
    answers.push({ status: res.statusCode, retryAfter: res.headers['retry-after'], type: res.headers['content-type'], body, ms: performance.now() - started });
  }
  expect(answers.map((a) => a.status)).toEqual([200, 503]);
  expect(answers[1]!.retryAfter).toBeUndefined();
  expect(answers[1]!.type).toBe('text/html');
  expect(answers[1]!.body).toContain('<center>nginx</center>');
  for (const answer of answers) expect(answer.ms).toBeGreaterThanOrEqual(29);
  expect(await stop(serving, 'SIGTERM')).toBe(0);
});
