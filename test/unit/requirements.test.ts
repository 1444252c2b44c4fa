/**
 * Issue 20: rules declare what they require (rules.ts `requires`), evidence belongs to its rule
 * whichever test saw it (cli/outcomes.ts evidenceTests), and a rule is labelled intermittent only
 * when every test that saw its fault ran again and none saw it (cli/recheck.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evidenceTests, exitCodeOf, unexplainedInconclusive, voidOnFoundations } from '../../src/cli/run/outcomes.ts';
import { rulesToRecheck, withSecondAttempt } from '../../src/cli/run/recheck.ts';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { mayDependOn, requirementsOf, RULES } from '../../src/rules.ts';
import { refusedToken } from '../../src/cli/run/probe.ts';
import { badgeStatus } from '../../src/report/badge.ts';
import { verdictOf } from '../../src/report/verdict.ts';
import { formatIssues, validateSchema } from '../../src/schema.ts';
import { outcomesOf, reportOf, testOf } from './support/report.ts';

describe('requirements in the catalogue', () => {
  it('every rule declares what it requires (requires: [] when nothing), each a rule of the catalogue', () => {
    const ids = new Set(RULES.map((r) => r.id));
    for (const rule of RULES) {
      expect(rule.requires, `${rule.id} declares requires`).toBeDefined();
      for (const id of rule.requires ?? []) expect(ids.has(id), `${rule.id} requires ${id}`).toBe(true);
    }
  });

  it('the issue\'s examples: PROP-3 requires CRUD-3, CRUD-4 and DEL-2; ISO-1 requires CRUD-3', () => {
    for (const id of ['CRUD-3', 'CRUD-4', 'DEL-2']) expect(mayDependOn('PROP-3', id)).toBe(true);
    expect(mayDependOn('ISO-1', 'CRUD-3')).toBe(true);
  });

  it('a rule never depends on itself, even when a shared list names it', () => {
    for (const rule of RULES) expect(requirementsOf(rule.id).has(rule.id), rule.id).toBe(false);
  });

  it('requirements are followed through: what a requirement requires is required too', () => {
    for (const rule of RULES) {
      for (const direct of rule.requires ?? []) {
        for (const further of requirementsOf(direct)) if (further !== rule.id) expect(requirementsOf(rule.id).has(further), `${rule.id} → ${direct} → ${further}`).toBe(true);
      }
    }
  });

  it('no rule requires a rule that only a second account can check (a run without one would leave it inconclusive)', () => {
    for (const rule of RULES) for (const id of requirementsOf(rule.id)) expect(id.startsWith('ISO-'), `${rule.id} requires ${id}`).toBe(false);
  });

  it('every rule id a suite names as what its check depends on is declared by the rule whose test names it', () => {
    // The suites' own literal ids (prerequisite, dependsOn, explainedBy, InconclusiveError) inside
    // a rule(...) block: the run-time check (harness/rule.ts) turns an undeclared one into an error.
    const dir = join(PROJECT_ROOT, 'suites');
    const missing: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.test.ts'))) {
      const parts = readFileSync(join(dir, file), 'utf8').split(/\brule\('([A-Z]+-\d+)'/);
      for (let i = 1; i < parts.length; i += 2) {
        const id = parts[i] as string;
        const named = [...(parts[i + 1] ?? '').matchAll(/(?:prerequisite|dependsOn|explainedBy)\([^)]*?'([A-Z]+-\d+)'|\[\s*'([A-Z]+-\d+)'\s*\]\)/g)].map((m) => m[1] ?? m[2]);
        for (const other of named) if (other && other !== id && !mayDependOn(id, other)) missing.push(`${file}: ${id} names ${other}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

const seen = (rule: string, by: ReturnType<typeof testOf>) => ({ rule, by, failure: { message: `${rule} (MUST): seen by ${by.title}`, expected: 'a new id', received: 'the id of a deleted widget' } });

describe('evidence belongs to its rule', () => {
  const observer = testOf('PROP-3', 'inconclusive', { title: 'PROP-3 random sequences agree with the model', dependsOn: ['DEL-2'], messages: ['no verdict: depends on DEL-2'] });

  it('a violation seen by another rule\'s test fails the rule it breaks, titled by both, with the evidence', () => {
    const [t] = evidenceTests([seen('DEL-2', observer)]);
    expect(t).toMatchObject({ rule: 'DEL-2', outcome: 'fail', seenBy: observer.title, title: `DEL-2 violation seen by the test "${observer.title}"` });
    expect(t?.failures[0]?.received).toBe('the id of a deleted widget');
  });

  it('a SHOULD rule\'s evidence is a warning', () => {
    expect(evidenceTests([seen('DEL-3', observer)])[0]?.outcome).toBe('warn');
  });

  it('"depends on DEL-2, which passed" cannot happen: DEL-2\'s own test passed, the evidence fails it, PROP-3 is explained', () => {
    const tests = [testOf('DEL-2', 'pass'), observer];
    const run = outcomesOf([...tests, ...evidenceTests([seen('DEL-2', observer)])]);
    expect(run.rules.find((r) => r.rule.id === 'DEL-2')?.outcome).toBe('fail');
    expect(unexplainedInconclusive(run)).toEqual([]);
    expect(exitCodeOf(run)).toBe(1);
  });

  it('the same verdict whichever order the tests ran in', () => {
    const tests = [testOf('DEL-2', 'pass'), observer, testOf('CRUD-1', 'pass')];
    const verdict = (order: typeof tests) => outcomesOf([...order, ...evidenceTests([seen('DEL-2', observer)])]).rules.map((r) => `${r.rule.id}:${r.outcome}`).sort();
    expect(verdict([...tests].reverse())).toEqual(verdict(tests));
  });

  it('one evidence test per rule and observing test, whatever the number of sightings', () => {
    expect(evidenceTests([seen('DEL-2', observer), seen('DEL-2', observer)])).toHaveLength(1);
  });
});

describe('intermittent only when the tests that saw the fault ran again and saw nothing', () => {
  const observer = testOf('PROP-3', 'inconclusive', { title: 'PROP-3 sequences', dependsOn: ['DEL-2'] });
  const first = outcomesOf([testOf('DEL-2', 'pass', { title: 'DEL-2 own' }), observer, ...evidenceTests([seen('DEL-2', observer)])]);

  it('the second attempt reruns the rules whose tests saw the evidence', () => {
    expect([...rulesToRecheck(first)].sort()).toEqual(['DEL-2', 'PROP-3']);
  });

  it('a second attempt that did not run the observing test labels nothing', () => {
    const merged = withSecondAttempt(first, outcomesOf([testOf('DEL-2', 'pass', { title: 'DEL-2 own' })]));
    expect(merged.rules.find((r) => r.rule.id === 'DEL-2')?.intermittent).toBeUndefined();
  });

  it('the observing test ran again and saw nothing: intermittent', () => {
    const merged = withSecondAttempt(first, outcomesOf([testOf('DEL-2', 'pass', { title: 'DEL-2 own' }), testOf('PROP-3', 'pass', { title: 'PROP-3 sequences' })]));
    expect(merged.rules.find((r) => r.rule.id === 'DEL-2')?.intermittent).toBe(true);
  });

  it('the observing test saw it again: steady', () => {
    const again = testOf('PROP-3', 'inconclusive', { title: 'PROP-3 sequences', dependsOn: ['DEL-2'] });
    const merged = withSecondAttempt(first, outcomesOf([testOf('DEL-2', 'pass', { title: 'DEL-2 own' }), again, ...evidenceTests([seen('DEL-2', again)])]));
    expect(merged.rules.find((r) => r.rule.id === 'DEL-2')?.intermittent).toBeUndefined();
  });
});

describe('the probe says what the server really sent', () => {
  it('a 403 names the server\'s message and suggests a missing scope or header, not a wrong token', () => {
    const error = refusedToken('--token / WIDGET_TOKEN', { status: 403, message: 'missing scope widgets:read' });
    expect(error.message).toBe('GET /widgets answered 403 Forbidden with "missing scope widgets:read" to --token / WIDGET_TOKEN: the target knows the token but refuses it access; check the token\'s scope or permissions, or whether a gateway in front wants another header (pass it with --header "Name: value")');
  });

  it('a 401 keeps its status and message; a token a --token-command printed is named as such', () => {
    expect(refusedToken('the token --token-command printed', { status: 401, message: 'expired' }).message).toBe('the target refused the token --token-command printed (GET /widgets answered 401 with "expired"): check that it is a valid token for this server');
  });
});

describe('a run without the second account is never conformant', () => {
  it('exit 0 with rules not run is PASSED (partial), in the badge too; the reasons name them', () => {
    expect(verdictOf({ interrupted: false, exitCode: 0, knownFailures: 0, notRun: ['ISO-1', 'ISO-2'] })).toBe('partial');
    expect(verdictOf({ interrupted: false, exitCode: 0, knownFailures: 0 })).toBe('conformant');
    expect(verdictOf({ interrupted: false, exitCode: 1, knownFailures: 0, notRun: ['ISO-1'] })).toBe('not-conformant');
    const report = reportOf(outcomesOf([testOf('CRUD-1', 'pass')]), { exitCode: 0, notRun: ['ISO-1', 'ISO-2'] });
    expect(report.verdict).toBe('partial');
    expect(report.partial).toBe(true);
    expect(badgeStatus(report).text).toBe(`PASSED (partial: 1 of ${RULES.length} rules)`);
    expect(report.verdictDetail.reasons).toContain('ISO-1, ISO-2 not run: no second account (--without-second-token)');
    expect(formatIssues(validateSchema('conformance-report', report))).toBe('');
  });
});

describe('a failed foundation voids its dependents, whatever they saw', () => {
  it('CRUD-3 failed: every rule declaring it is inconclusive under it, passed, failed or skipped by choice; a test never run stays skipped', () => {
    const run = voidOnFoundations(outcomesOf([
      testOf('CRUD-3', 'fail'),
      testOf('CRUD-4', 'pass'),
      testOf('DEL-1', 'fail'),
      testOf('ISO-2', 'skip', { skipReason: 'the server showed another widget at that id' }),
      testOf('ISO-4', 'skip', { skipReason: 'needs a second account: set --second-token or WIDGET_SECOND_TOKEN to run it' }),
      testOf('AUTH-1', 'pass'),
    ]));
    const outcome = Object.fromEntries(run.rules.map((r) => [r.rule.id, r.outcome]));
    expect(outcome).toEqual({ 'CRUD-3': 'fail', 'CRUD-4': 'inconclusive', 'DEL-1': 'inconclusive', 'ISO-2': 'inconclusive', 'ISO-4': 'skip', 'AUTH-1': 'pass' });
    expect(run.tests.find((t) => t.rule === 'DEL-1')?.dependsOn).toEqual(['CRUD-3']);
    expect(exitCodeOf(run)).toBe(1);
  });

  it('DEL-2 stands on CRUD-3: with both failed, DEL-2 is voided and CRUD-3 alone explains the rest', () => {
    const run = voidOnFoundations(outcomesOf([testOf('CRUD-3', 'fail'), testOf('DEL-2', 'fail'), testOf('CRUD-4', 'pass')]));
    expect(Object.fromEntries(run.rules.map((r) => [r.rule.id, r.outcome]))).toEqual({ 'CRUD-3': 'fail', 'DEL-2': 'inconclusive', 'CRUD-4': 'inconclusive' });
    expect(run.tests.find((t) => t.rule === 'CRUD-4')?.dependsOn).toEqual(['CRUD-3']);
  });

  it('nothing changes when no foundation failed', () => {
    const outcomes = outcomesOf([testOf('CRUD-4', 'fail'), testOf('DEL-1', 'pass')]);
    expect(voidOnFoundations(outcomes)).toBe(outcomes);
  });
});
