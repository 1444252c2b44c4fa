/**
 * A test that observed nothing of the server (harness/rule.ts: it ended with no check evaluated)
 * is never a pass, in every format, by one mechanism: the runner reads the flag off the test's
 * error (cli/outcomes.ts), a rule whose tests all observed nothing is inconclusive with a note that
 * says so, and a rule its other tests judged is not run in full, so the verdict is never
 * CONFORMANT. Read back from vitest's results as the runner reads them, then rendered.
 */
import type { TestModule } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import { renderSummary } from '../../../src/cli/run/summary.ts';
import { collectOutcomes, exitCodeOf } from '../../../src/cli/run/outcomes.ts';
import { NothingObservedError } from '../../../src/errors.ts';
import { NOTHING_OBSERVED } from '../../../src/harness/rule.ts';
import { renderHtml } from '../../../src/report/html.ts';
import { renderJson } from '../../../src/report/json.ts';
import { renderJunit } from '../../../src/report/junit.ts';
import { renderMarkdown } from '../../../src/report/markdown.ts';
import type { RunReport } from '../../../src/report/model.ts';
import { reportOf } from '../support/report.ts';

const EXTRA = { seconds: 1, reports: [], settingsFile: 'none', cleanup: 'nothing left behind' };

/** An error as vitest hands it to the runner: its name, message and own properties, serialised. */
function serialised(error: Error): Record<string, unknown> {
  return JSON.parse(JSON.stringify({ ...error, name: error.name, message: error.message })) as Record<string, unknown>;
}

/** A finished vitest test of `rule`: passed, or failed with `error`. */
function testCase(rule: string, title: string, error?: Error) {
  return {
    name: `${rule} ${title}`,
    meta: () => ({ rule }),
    annotations: () => [],
    result: () => (error ? { state: 'failed', errors: [serialised(error)] } : { state: 'passed', errors: [] }),
    diagnostic: () => ({ duration: 3 }),
  };
}

/** The runner's report of a run whose tests ended so. */
function runOf(tests: ReturnType<typeof testCase>[]): RunReport {
  const module = { relativeModuleId: 'suites/first-contact.test.ts', children: { allTests: () => tests }, errors: () => [] } as unknown as TestModule;
  const outcomes = collectOutcomes([module], []);
  return reportOf(outcomes, { exitCode: exitCodeOf(outcomes) });
}

const EMPTY = 'delete of an unknown id in each account before the run created anything is not a 5xx';

describe('a rule whose every test observed nothing', () => {
  const report = runOf([testCase('DEL-3', EMPTY, new NothingObservedError(NOTHING_OBSERVED))]);
  const rule = report.rules.find((r) => r.id === 'DEL-3')!;
  const note = 'no verdict: its test made no observation of the server (no check of it was evaluated against an answer), so it neither passed nor failed';

  it('is inconclusive, explained by no rule, with a note saying why; the run has no verdict (exit 3)', () => {
    expect(rule.outcome).toBe('inconclusive');
    expect(rule.inconclusive).toEqual({ dependsOn: [], explainedBy: [], note });
    expect(rule.tests[0]?.errors).toEqual([NOTHING_OBSERVED]);
    expect(report.exitCode).toBe(3);
    expect(report.verdict).toBe('incomplete');
  });

  it('says so in the console, conformance.json, junit.xml, conformance.html and conformance.md', () => {
    expect(renderSummary(report, EXTRA)).toContain(`Inconclusive (no verdict: each says why):\n  DEL-3   SHOULD ${note}`);
    expect((JSON.parse(renderJson(report)) as RunReport).rules.find((r) => r.id === 'DEL-3')?.inconclusive?.note).toBe(note);
    expect(renderJunit(report)).toContain(`<skipped message="inconclusive: ${note}"/>`);
    expect(renderHtml(report)).toContain(`Inconclusive: ${note}`);
    expect(renderMarkdown(report)).toContain('inconclusive: `no verdict: its test made no observation of the server');
  });
});

describe('a rule whose other tests judged it, while one observed nothing', () => {
  const report = runOf([testCase('DEL-3', 'delete of an own widget answers 200, 202 or 204'), testCase('DEL-3', EMPTY, new NothingObservedError(NOTHING_OBSERVED))]);
  const rule = report.rules.find((r) => r.id === 'DEL-3')!;

  it('takes the verdict of the tests that judged it, and the empty test stays inconclusive, never passed', () => {
    expect(rule.outcome).toBe('pass');
    expect(rule.tests.map((t) => t.outcome)).toEqual(['pass', 'inconclusive']);
  });

  it('is not run in full: the verdict is PASSED (partial), naming it and why, in every format, never conformant', () => {
    const reason = 'some tests made no observation of the server (no check evaluated, so no verdict): DEL-3';
    expect(report.verdict).toBe('partial');
    expect(report.verdictDetail.reasons).toContain(reason);
    expect(renderSummary(report, EXTRA)).not.toMatch(/CONFORMANT/);
    expect(renderJunit(report)).toContain(`<skipped message="inconclusive: ${NOTHING_OBSERVED}"/>`);
    for (const text of [renderMarkdown(report), renderHtml(report)]) expect(text).not.toMatch(/\bCONFORMANT\b/);
  });
});
