/**
 * The verdict machinery end to end: one fault, the rule it breaks. A server that repeats ids
 * breaks CRUD-3 and leaves DEL-2 inconclusive under it, grouped by root cause in the console and
 * conformance.json; a server whose Error objects are wrong everywhere is blamed once, under FMT-2;
 * and a fault that strikes once is still a failure, labelled intermittent in every report with
 * the evidence of both attempts. A run narrowed by --test alone says the test filter narrowed it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { describe, expect, test } from 'vitest';
import { ReferenceService, type Reply, type WidgetJson } from '../../src/reference/service.ts';
import { CRUD_FAULTS, FMT_FAULTS } from '../servers/faults/index.ts';
import { runAgainst } from '../servers/serve.ts';
import { serve } from '../servers/support.ts';
import { explain, outcomesOf, runSuite, type SuiteRun } from '../support/suite-runner.ts';
import { PROJECT_ROOT } from '../../src/paths.ts';

/** xmllint's complaints about the run's junit.xml ('' when it validates against junit-10.xsd). */
function junitProblems(run: SuiteRun): string {
  const result = spawnSync('xmllint', ['--noout', '--schema', join(PROJECT_ROOT, 'schemas/junit-10.xsd'), join(run.reportDir, 'junit.xml')], { encoding: 'utf8' });
  if (result.error) throw new Error(`xmllint could not run (Debian's libxml2-utils): ${result.error.message}`);
  return result.status === 0 ? '' : result.stderr;
}

const faultNamed = (name: string) => {
  const fault = [...CRUD_FAULTS, ...FMT_FAULTS].find((f) => f.name === name);
  if (!fault) throw new Error(`no fault ${name}`);
  return fault;
};

/** Drops the description from the first create that sends one, and never again: CRUD-1 fails once. */
function dropsOneDescription() {
  let struck = false;
  return serve(new (class extends ReferenceService {
    protected override async create(account: string, req: IncomingMessage): Promise<Reply> {
      const reply = await super.create(account, req);
      const body = reply.body as WidgetJson;
      if (struck || reply.status >= 300 || !body.description) return reply;
      struck = true;
      const { description: _dropped, ...rest } = body;
      return { ...reply, body: rest };
    }
  })());
}

describe.concurrent('verdicts', () => {
  test('CRUD-3 repeated ids: DEL-2 is inconclusive under CRUD-3, grouped by root cause in the console and conformance.json', async () => {
    const run = await runAgainst(faultNamed('ids-from-the-clock').make(), ['--only', 'CRUD-3,DEL-2']);
    const outcomes = outcomesOf(run.report);
    expect(outcomes, explain(run)).toEqual({ 'CRUD-3': 'fail', 'DEL-2': 'inconclusive' });
    expect(run.exitCode, explain(run)).toBe(1);
    const del2 = run.report?.rules.find((r) => r.id === 'DEL-2');
    expect(del2?.inconclusive).toEqual({ dependsOn: ['CRUD-3'], explainedBy: ['CRUD-3'], note: 'depends on CRUD-3, which failed' });
    expect(run.report?.rootCauses).toEqual([expect.objectContaining({ rule: 'CRUD-3', outcome: 'fail', explains: ['DEL-2'] })]);
    // The headline names what differed: the repeated ids CRUD-3 received.
    expect(run.report?.rootCauses?.[0]?.headline).toMatch(/^5 widgets created at once all have distinct ids \(received ids .*repeated/);
    expect(run.stdout).toMatch(/Failures by root cause:\n {2}CRUD-3 failed: 5 widgets created at once all have distinct ids \(received ids .*\): also explains DEL-2\n/);
    expect(run.stdout).toContain('Inconclusive (no verdict: something they depend on is broken):\n  DEL-2   MUST   depends on CRUD-3, which failed');
    expect(run.stdout).toMatch(/MUST {3}0 passed, 1 failed, 0 warned, 1 inconclusive/);
    const junit = readFileSync(join(run.reportDir, 'junit.xml'), 'utf8');
    expect(junit).toContain('<skipped message="inconclusive: depends on CRUD-3, which failed"/>');
    expect(junitProblems(run)).toBe('');
  });

  test('FMT-2 Error objects without a message: the rules that check an Error object are inconclusive under FMT-2, not failed', async () => {
    const run = await runAgainst(faultNamed('error-without-message').make(), ['--only', 'FMT,CRUD,DEL,AUTH,MAL']);
    const outcomes = outcomesOf(run.report);
    const broken = Object.entries(outcomes).filter(([, o]) => o === 'fail' || o === 'warn').map(([id]) => id);
    expect(broken, explain(run)).toEqual(['FMT-2']);
    const group = run.report?.rootCauses?.find((g) => g.rule === 'FMT-2');
    expect(group?.explains, explain(run)).toEqual(expect.arrayContaining(['CRUD-5', 'AUTH-1', 'MAL-1']));
    expect(run.stdout).toMatch(/ {2}FMT-2 failed: .*: also explains FMT-4, CRUD-5, DEL-1, AUTH-1/);
    expect(run.exitCode, explain(run)).toBe(1);
  });

  test('CRUD-1 failing once: still a failure, labelled intermittent with both attempts in console, JSON, Markdown, HTML and JUnit', async () => {
    const run = await runAgainst(dropsOneDescription(), ['--only', 'CRUD-1', '--seed', '7']);
    expect(outcomesOf(run.report), explain(run)).toEqual({ 'CRUD-1': 'fail' });
    expect(run.exitCode, explain(run)).toBe(1);
    const rule = run.report?.rules.find((r) => r.id === 'CRUD-1');
    expect(rule?.intermittent).toBe(true);
    expect(rule?.secondAttempt?.outcome).toBe('pass');
    expect(rule?.secondAttempt?.tests.map((t) => t.outcome)).toEqual(['pass', 'pass']);
    // The first attempt's evidence stays: what differed, field by field.
    const failure = rule?.tests.flatMap((t) => t.failures ?? [])[0];
    expect(failure?.expected).toMatch(/description "a description with/);
    expect(failure?.received).toMatch(/description nothing \(undefined\)/);
    expect(run.stdout).toContain('Second attempt (same seed) at CRUD-1');
    // The second attempt is one line under the failure, printed once: never a second dump.
    expect(run.stdout).toContain('    intermittent: failed on the first attempt, passed on the second (same seed); still a failure');
    expect(run.stdout.match(/✗ FAIL CRUD-1 /g)).toHaveLength(1);
    expect(run.stdout).not.toMatch(/Test Files|Tests +\d/);
    const file = (name: string) => readFileSync(join(run.reportDir, name), 'utf8');
    expect(file('conformance.md')).toContain('CRUD-1 (intermittent: passed on the second attempt, same seed)');
    expect(file('conformance.html')).toContain('Intermittent: failed on the first attempt, passed on the second (same seed); still a failure');
    expect(file('junit.xml')).toMatch(/<failure type="MUST rule failed, intermittent" message="intermittent \(passed on the second attempt\): /);
    expect(junitProblems(run)).toBe('');
    // The second attempt's widgets are cleaned up with the first's.
    expect(run.report?.cleanup.verified, explain(run)).toBe(true);
  });

  test('CRUD-1 failing every time: rechecked, reproduced, not intermittent', async () => {
    const run = await runAgainst(faultNamed('create-drops-description').make(), ['--only', 'CRUD-1']);
    const rule = run.report?.rules.find((r) => r.id === 'CRUD-1');
    expect(rule?.outcome, explain(run)).toBe('fail');
    expect(rule?.intermittent).toBeUndefined();
    expect(rule?.secondAttempt?.outcome).toBe('fail');
  });
});

describe('a run narrowed by --test alone', () => {
  test('passes with PASSED (partial: tests of N of M rules), naming the test filter, never --only nor "0 of M rules", in every format, and verify accepts its bundle', async () => {
    const run = await runSuite(['--test', 'unknown id']);
    expect(run.exitCode, explain(run)).toBe(0);
    const ran = run.report!.rules.filter((r) => r.outcome !== 'skip').length;
    expect(ran, explain(run)).toBeGreaterThan(0);
    const v = run.report!.verdictDetail;
    expect(v.headline).toBe(`PASSED (partial: tests of ${ran} of ${run.report!.catalogue.rules} rules)`);
    expect(v.label).toContain('(--test)');
    expect(v.label).not.toContain('--only');
    expect(run.stdout).toContain(`Verdict: PASSED (partial: tests of ${ran} of ${run.report!.catalogue.rules} rules): every rule run passed, but not every rule ran in full:`);
    expect(readFileSync(join(run.reportDir, 'conformance.md'), 'utf8')).toContain(v.headline);
    const verified = await runSuite(['verify', run.reportDir], { reportDir: false });
    expect(verified.exitCode, verified.stdout + verified.stderr).toBe(0);
  });
});
