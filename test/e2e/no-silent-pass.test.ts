/**
 * Never a silent pass, end to end: a real process whose main step never settles exits 3 with
 * one line (not 0 once Node's event loop empties), and a run in which every selected rule was
 * skipped exits 3 saying that no rule was executed.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/server.ts';
import { explain, runSuite } from '../support/suite-runner.ts';

let server: RunningReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(async () => {
  await server.close();
});

test('a process whose main promise never settles exits 3 with one line saying there is no verdict', () => {
  // The compiled guard, as the CLI loads it (the e2e tier builds dist/ first).
  const guard = pathToFileURL(join(PROJECT_ROOT, 'dist/src/cli/run/verdict-guard.js')).href;
  const script = `const { guardVerdict } = await import(${JSON.stringify(guard)}); guardVerdict('widget-conformance'); await new Promise(() => {});`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  expect(child.status, child.stderr).toBe(3);
  expect(child.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^widget-conformance: the run ended without a verdict: .*never/)]);
});

test('a run in which every selected rule is skipped (ISO-1 without a second token, run anyway) exits 3: no rule was executed', async () => {
  // Without --without-second-token the run would stop before any request (exit 2, test/gate.test.ts).
  const run = await runSuite(['--base-url', server.baseUrl, '--token', server.tokens[0], '--only', 'ISO-1', '--without-second-token']);
  expect(run.exitCode, explain(run)).toBe(3);
  expect(run.stderr).toMatch(/^widget-conformance: no rule was executed/m);
});
