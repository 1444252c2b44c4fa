/**
 * The inconclusive outcome and intermittent failures through the verdict machinery: exit codes
 * (cli/outcomes.ts), the second attempt (cli/recheck.ts), and what junit.xml, Markdown, HTML and
 * the JSON report say of them.
 */
import { describe, expect, it } from 'vitest';
import { deferToRootCauses, exitCodeOf, unexplainedInconclusive } from '../../../../src/cli/run/outcomes.ts';
import { rulesToRecheck, withSecondAttempt } from '../../../../src/cli/run/recheck.ts';
import { renderHtml } from '../../../../src/report/html.ts';
import { renderJunit } from '../../../../src/report/junit.ts';
import { renderMarkdown } from '../../../../src/report/markdown.ts';
import { formatIssues, validateSchema } from '../../../../src/schema.ts';
import type { Outcome } from '../../../../src/report/model.ts';
import { outcomesOf, reportOf, testOf } from '../../support/report.ts';

const CONFORMANT = 0;
const FAILED = 1;
const INCOMPLETE = 3;

const inconclusive = (rule: string, dependsOn: string[]) => testOf(rule, 'inconclusive', { dependsOn, messages: [`could not check ${rule}: creates answered the same id twice`] });

describe('exit codes with inconclusive rules', () => {
  it('a failure explains the rule that depends on it: exit 1, the failure decides', () => {
    expect(exitCodeOf(outcomesOf([testOf('CRUD-3', 'fail'), inconclusive('DEL-2', ['CRUD-3'])]))).toBe(FAILED);
  });

  it('explained by a failure the baseline expects: the gate passes as it would for the failure alone', () => {
    expect(exitCodeOf(outcomesOf([testOf('CRUD-3', 'fail'), inconclusive('DEL-2', ['CRUD-3'])]), new Set(['CRUD-3']))).toBe(CONFORMANT);
  });

  it('an inconclusive rule alone never looks conformant: what it depends on passed, so exit 3', () => {
    const run = outcomesOf([testOf('CRUD-3', 'pass'), inconclusive('DEL-2', ['CRUD-3'])]);
    expect(unexplainedInconclusive(run)).toEqual(['DEL-2']);
    expect(exitCodeOf(run)).toBe(INCOMPLETE);
  });

  it('explained only by a SHOULD warning (no --strict): exit 3, a MUST rule went unchecked', () => {
    expect(exitCodeOf(outcomesOf([testOf('CRUD-6', 'warn'), inconclusive('CRUD-1', ['CRUD-6'])]))).toBe(INCOMPLETE);
  });

  it('a rule with a failed test and an inconclusive one is failed', () => {
    const run = outcomesOf([testOf('PAGE-1', 'fail'), inconclusive('PAGE-1', ['CRUD-3'])]);
    expect(run.rules[0]?.outcome).toBe('fail');
  });
});

describe('failures another rule explains (deferToRootCauses)', () => {
  const shapeOnly = (rule: string) => testOf(rule, 'fail', { explainedBy: ['FMT-2'] });

  it('go inconclusive under the explaining rule when it failed in the run', () => {
    const run = deferToRootCauses(outcomesOf([testOf('FMT-2', 'fail'), shapeOnly('CRUD-5'), shapeOnly('AUTH-1')]));
    expect(run.rules.map((r) => [r.rule.id, r.outcome])).toEqual([['FMT-2', 'fail'], ['CRUD-5', 'inconclusive'], ['AUTH-1', 'inconclusive']]);
    expect(run.tests.find((t) => t.rule === 'CRUD-5')?.dependsOn).toEqual(['FMT-2']);
    expect(exitCodeOf(run)).toBe(FAILED);
  });

  it('stay failures of their own rule when the explaining rule passed or was not run', () => {
    expect(deferToRootCauses(outcomesOf([testOf('FMT-2', 'pass'), shapeOnly('CRUD-5')])).rules.map((r) => r.outcome)).toEqual(['pass', 'fail']);
    expect(deferToRootCauses(outcomesOf([shapeOnly('CRUD-5')])).rules.map((r) => r.outcome)).toEqual(['fail']);
  });

  it('a rule is never explained by itself, and a failure of its own outweighs an explained one', () => {
    expect(deferToRootCauses(outcomesOf([shapeOnly('FMT-2')])).rules[0]?.outcome).toBe('fail');
    const run = deferToRootCauses(outcomesOf([testOf('FMT-2', 'fail'), shapeOnly('CRUD-5'), testOf('CRUD-5', 'fail')]));
    expect(run.rules.find((r) => r.rule.id === 'CRUD-5')?.outcome).toBe('fail');
  });
});

/** A test of the second attempt: the same test (title) as the first attempt's, with a new outcome. */
const again = (rule: string, outcome: Outcome, before: Outcome) => testOf(rule, outcome, { title: `${rule} a test (${before})` });

describe('the second attempt', () => {
  const first = outcomesOf([testOf('CRUD-1', 'fail'), testOf('CRUD-4', 'fail'), testOf('CRUD-6', 'warn'), testOf('DEL-1', 'pass'), inconclusive('DEL-2', ['CRUD-4'])]);

  it('reruns only the rules that failed or warned', () => {
    expect([...rulesToRecheck(first)]).toEqual(['CRUD-1', 'CRUD-4', 'CRUD-6']);
  });

  it('a failure that does not come back stays a failure, labelled intermittent, with both attempts', () => {
    const merged = withSecondAttempt(first, outcomesOf([again('CRUD-1', 'pass', 'fail'), testOf('CRUD-4', 'fail'), again('CRUD-6', 'pass', 'warn')]));
    const byId = Object.fromEntries(merged.rules.map((r) => [r.rule.id, r]));
    expect(byId['CRUD-1']).toMatchObject({ outcome: 'fail', intermittent: true, secondAttempt: { outcome: 'pass', tests: [{ title: 'CRUD-1 a test (fail)', outcome: 'pass' }] } });
    expect(byId['CRUD-1']?.tests[0]?.failures.length).toBe(1);
    expect(byId['CRUD-4']).toMatchObject({ outcome: 'fail', secondAttempt: { outcome: 'fail' } });
    expect(byId['CRUD-4']?.intermittent).toBeUndefined();
    expect(byId['CRUD-6']).toMatchObject({ outcome: 'warn', intermittent: true });
    expect(byId['DEL-1']?.secondAttempt).toBeUndefined();
    expect(exitCodeOf(merged)).toBe(FAILED);
  });

  it('a second attempt with errors outside any rule labels nothing', () => {
    const merged = withSecondAttempt(first, outcomesOf([testOf('CRUD-1', 'pass')], ['suites/crud.test.ts: failed to load']));
    expect(merged.rules.find((r) => r.rule.id === 'CRUD-1')?.intermittent).toBeUndefined();
  });
});

describe('reports', () => {
  const outcomes = withSecondAttempt(
    outcomesOf([testOf('CRUD-3', 'fail'), testOf('CRUD-4', 'fail'), inconclusive('DEL-2', ['CRUD-3']), inconclusive('PAGE-4', ['PAGE-1']), testOf('PAGE-1', 'pass')]),
    outcomesOf([testOf('CRUD-3', 'fail'), again('CRUD-4', 'pass', 'fail')]),
  );
  const report = reportOf(outcomes, { exitCode: exitCodeOf(outcomes) });

  it('conformance.json: counts, the explanation, the root-cause groups, the second attempts; valid against its schema', () => {
    expect(formatIssues(validateSchema('conformance-report', report))).toBe('');
    expect(report.summary.MUST.inconclusive).toBe(2);
    expect(report.rules.find((r) => r.id === 'DEL-2')?.inconclusive).toEqual({ dependsOn: ['CRUD-3'], explainedBy: ['CRUD-3'], note: 'depends on CRUD-3, which failed' });
    expect(report.rules.find((r) => r.id === 'PAGE-4')?.inconclusive?.explainedBy).toEqual([]);
    expect(report.rootCauses).toEqual([
      { rule: 'CRUD-3', outcome: 'fail', headline: 'a test (fail) (received b)', explains: ['DEL-2'] },
      { rule: 'CRUD-4', outcome: 'fail', headline: 'a test (fail) (received b)', explains: [], intermittent: true },
    ]);
    expect(report.rules.find((r) => r.id === 'CRUD-4')).toMatchObject({ intermittent: true, secondAttempt: { outcome: 'pass' } });
  });

  it('junit.xml: inconclusive is a skip naming its cause, intermittent a labelled failure (validated with xmllint in test/e2e/verdicts.test.ts)', () => {
    const xml = renderJunit(report);
    expect(xml).toContain('<skipped message="inconclusive: depends on CRUD-3, which failed"/>');
    expect(xml).toMatch(/<failure type="MUST rule failed, intermittent" message="intermittent \(passed on the second attempt\): /);
    expect(xml).toContain('second attempt (same seed): pass');
    expect(xml).toContain('<property name="CRUD-4.intermittent" value="failed on the first attempt, passed on the second (same seed)"/>');
    // Never counted as passed: the CRUD suite's skipped count holds DEL-2's family apart, PAGE-4 is skipped in PAGE.
    expect(xml).toMatch(/<testsuite name="PAGE" tests="2" failures="0" errors="0" skipped="1"/);
  });

  it('Markdown and HTML show the grouping, the notes and the intermittent label', () => {
    const md = renderMarkdown(report);
    expect(md).toContain('### Failures by root cause');
    expect(md).toContain('- `CRUD-3 failed: a test (fail) (received b): also explains DEL-2`');
    expect(md).toMatch(/\| ❔ \| DEL-2 \| MUST \| .* \| inconclusive: `depends on CRUD-3, which failed` \|/);
    expect(md).toContain('CRUD-4 (intermittent: passed on the second attempt, same seed)');
    const html = renderHtml(report);
    expect(html).toContain('<li data-root-cause="CRUD-3">CRUD-3 failed: a test (fail) (received b): also explains DEL-2</li>');
    expect(html).toContain('Inconclusive: depends on CRUD-3, which failed');
    expect(html).toContain('Intermittent: failed on the first attempt, passed on the second (same seed); still a failure');
  });
});
