/**
 * The verdict apart from the gate: a baseline lets the run exit 0 over failures it expects,
 * but the report never calls such a server conformant, and its schema refuses to.
 */
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../../src/report/markdown.ts';
import { renderHtml } from '../../../src/report/html.ts';
import { verdictOf } from '../../../src/report/verdict.ts';
import { validateSchema } from '../../../src/schema.ts';
import { outcomesOf, reportOf, testOf } from '../support/report.ts';

describe('verdictOf', () => {
  it('is conformant only with exit 0 and no known failure', () => {
    expect(verdictOf({ interrupted: false, exitCode: 0, knownFailures: 0 })).toBe('conformant');
  });

  it('is not conformant when the gate passed over known failures', () => {
    expect(verdictOf({ interrupted: false, exitCode: 0, knownFailures: 3 })).toBe('not-conformant');
  });

  it('is not conformant for exit 1, incomplete for 2 and 3, interrupted whatever the code', () => {
    expect(verdictOf({ interrupted: false, exitCode: 1, knownFailures: 0 })).toBe('not-conformant');
    expect(verdictOf({ interrupted: false, exitCode: 3, knownFailures: 1 })).toBe('incomplete');
    expect(verdictOf({ interrupted: false, exitCode: 2, knownFailures: 0 })).toBe('incomplete');
    expect(verdictOf({ interrupted: true, exitCode: 130, knownFailures: 0 })).toBe('interrupted');
  });
});

describe('a run whose only failures are in the baseline', () => {
  const outcomes = outcomesOf([testOf('CRUD-4', 'fail'), testOf('PAGE-3', 'fail'), testOf('CRUD-1', 'pass')]);
  const report = reportOf(outcomes, { exitCode: 0, baseline: { file: 'known.txt', ids: new Set(['CRUD-4', 'PAGE-3']) } });

  it('reports the gate passed over 2 known failures, and the verdict not conformant', () => {
    expect(report.verdict).toBe('not-conformant');
    expect(report.gate).toEqual({ passed: true, knownFailures: 2 });
    expect(validateSchema('conformance-report', report)).toEqual([]);
  });

  it('says both in the Markdown heading and the HTML heading', () => {
    expect(renderMarkdown(report).split('\n')[0]).toBe('## Widget Service conformance: ❌ Not conformant (gate passed: 2 known failures in the baseline)');
    expect(renderHtml(report)).toContain('<h1>Not conformant (gate passed: 2 known failures in the baseline)</h1>');
  });

  it('cannot be called conformant: the schema rejects that verdict beside known failures', () => {
    expect(validateSchema('conformance-report', { ...report, verdict: 'conformant' })).not.toEqual([]);
  });
});

describe('a clean run', () => {
  const report = reportOf(outcomesOf([testOf('CRUD-1', 'pass')]));

  it('is conformant, with the gate passed over no known failure, and no gate note anywhere', () => {
    expect(report.verdict).toBe('conformant');
    expect(report.gate).toEqual({ passed: true, knownFailures: 0 });
    expect(validateSchema('conformance-report', report)).toEqual([]);
    expect(renderMarkdown(report)).not.toContain('gate passed');
  });
});
