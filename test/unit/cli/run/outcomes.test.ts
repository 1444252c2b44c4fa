/**
 * The exit code from the rules' outcomes: 1 for a failure the baseline does not expect, else 3
 * when the suite could not finish, else 0. A SHOULD violation is a warning (exit 0) unless
 * --strict or --fail-on should, under which rule() fails the test instead (harness/rule.ts).
 */
import { describe, expect, it } from 'vitest';
import { exitCodeOf, type Outcome, type RunOutcomes } from '../../../../src/cli/run/outcomes.ts';
import { ruleById } from '../../../../src/rules.ts';

const CONFORMANT = 0;
const FAILED = 1;
const INCOMPLETE = 3;

const MUST = 'CRUD-4';
const OTHER_MUST = 'PAGE-3';
const SHOULD = 'CRUD-6';

/** Run outcomes with one test per rule, e.g. `run({ 'CRUD-4': 'fail' })`. */
function run(outcomes: Record<string, Outcome>, suiteErrors: string[] = []): RunOutcomes {
  const rules = Object.entries(outcomes).map(([id, outcome]) => {
    const test = { rule: id, title: `${id} a test`, file: 'suites/x.test.ts', outcome, messages: [], failures: [], warnings: [], durationMs: 0 };
    return { rule: ruleById(id), outcome, tests: [test] };
  });
  return { tests: rules.flatMap((r) => r.tests), rules, suiteErrors };
}

describe('exitCodeOf', () => {
  it('is 0 when every rule passed or was skipped', () => {
    expect(exitCodeOf(run({ [MUST]: 'pass', [SHOULD]: 'skip' }))).toBe(CONFORMANT);
  });

  it('is 0 for an empty run', () => {
    expect(exitCodeOf(run({}))).toBe(CONFORMANT);
  });

  it('is 1 when a MUST rule failed', () => {
    expect(exitCodeOf(run({ [MUST]: 'fail', [OTHER_MUST]: 'pass' }))).toBe(FAILED);
  });

  it('is 0 when a SHOULD rule only warned (no --strict)', () => {
    expect(exitCodeOf(run({ [MUST]: 'pass', [SHOULD]: 'warn' }))).toBe(CONFORMANT);
  });

  it('is 1 when a SHOULD rule failed, as --strict or --fail-on should make its warning', () => {
    expect(exitCodeOf(run({ [MUST]: 'pass', [SHOULD]: 'fail' }))).toBe(FAILED);
  });

  it('is 3 when a rule ended in a suite error and none failed', () => {
    expect(exitCodeOf(run({ [MUST]: 'error', [SHOULD]: 'warn' }))).toBe(INCOMPLETE);
  });

  it('is 3 for a suite error outside any rule', () => {
    expect(exitCodeOf(run({ [MUST]: 'pass' }, ['suites/crud.test.ts: failed to load']))).toBe(INCOMPLETE);
  });

  it('is 1, not 3, when a rule failed beside suite errors', () => {
    expect(exitCodeOf(run({ [MUST]: 'fail', [OTHER_MUST]: 'error' }, ['unhandled: reset']))).toBe(FAILED);
  });

  it('is 0 when the only failure is a baseline rule', () => {
    expect(exitCodeOf(run({ [MUST]: 'fail', [OTHER_MUST]: 'pass' }), new Set([MUST]))).toBe(CONFORMANT);
  });

  it('is 1 when a rule outside the baseline failed beside a baseline rule', () => {
    expect(exitCodeOf(run({ [MUST]: 'fail', [OTHER_MUST]: 'fail' }), new Set([MUST]))).toBe(FAILED);
  });

  it('is 3 when the only failure is a baseline rule and there are suite errors', () => {
    expect(exitCodeOf(run({ [MUST]: 'fail', [OTHER_MUST]: 'error' }), new Set([MUST]))).toBe(INCOMPLETE);
  });

  it('is 0 when a baseline rule now passes', () => {
    expect(exitCodeOf(run({ [MUST]: 'pass' }), new Set([MUST]))).toBe(CONFORMANT);
  });
});
