/**
 * Never a silent pass, end to end: a real process whose main step never settles exits 3 with
 * one line (not 0 once Node's event loop empties), a run in which every selected rule was
 * skipped exits 3 saying that no rule was executed, and a test that observed nothing of the
 * server is inconclusive, never passed.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/server.ts';
import { CRUD_FAULTS } from '../servers/faults/index.ts';
import { runAgainst } from '../servers/serve.ts';
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

describe('a test that observed nothing of the server is never a pass (harness/rule.ts counts the checks it evaluates)', () => {
  // This server answers a retrieve of an unknown id with a 500 (CRUD-5's fault): the first-contact
  // delete of a made-up id then goes out in no account (the door's proof never saw it absent), and
  // DEL-3's first-contact test has nothing to judge.
  const fault = CRUD_FAULTS.find((f) => f.name === 'unknown-id-500')!;
  const FIRST_CONTACT = 'DEL-3 delete of an unknown id in each account before the run created anything is not a 5xx';

  test('DEL-3 alone on its first-contact test: inconclusive, its note saying no check was evaluated, in every format; no verdict (exit 3)', async () => {
    const run = await runAgainst(fault.make(), ['--only', 'DEL-3', '--test', 'before the run created anything']);
    expect(run.exitCode, explain(run)).toBe(3);
    const rule = run.report?.rules.find((r) => r.id === 'DEL-3');
    expect(rule?.outcome, explain(run)).toBe('inconclusive');
    const note = rule?.inconclusive?.note ?? '';
    expect(note).toMatch(/^no verdict: its test made no observation of the server/);
    expect(rule?.tests.map((t) => [t.title, t.outcome, t.errors?.[0]])).toEqual([[FIRST_CONTACT, 'inconclusive', expect.stringMatching(/^no verdict: the test made no observation of the server/)]]);
    expect(run.stdout).toContain(`DEL-3   SHOULD ${note}`);
    expect(readFileSync(join(run.reportDir, 'junit.xml'), 'utf8')).toContain(`<skipped message="inconclusive: ${note}"/>`);
    expect(readFileSync(join(run.reportDir, 'conformance.html'), 'utf8')).toContain(`Inconclusive: ${note}`);
    expect(readFileSync(join(run.reportDir, 'conformance.md'), 'utf8')).toContain('no verdict: its test made no observation of the server');
  });

  test('DEL-3 with a test that judges it beside the first-contact one: passed on that test, the first-contact test inconclusive, and the rule named as not run in full', async () => {
    const run = await runAgainst(fault.make(), ['--only', 'DEL-3', '--test', '/own widget answers|before the run created anything/']);
    const rule = run.report?.rules.find((r) => r.id === 'DEL-3');
    expect(rule?.tests.length, explain(run)).toBe(2);
    expect(rule?.outcome, explain(run)).toBe('pass');
    expect(rule?.tests.find((t) => t.title === FIRST_CONTACT)?.outcome).toBe('inconclusive');
    expect(run.report?.verdictDetail.reasons).toContain('some tests made no observation of the server (no check evaluated, so no verdict): DEL-3');
  });
});
