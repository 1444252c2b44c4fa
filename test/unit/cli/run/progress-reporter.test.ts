/**
 * The tests' part of the progress line (cli/run/progress-reporter.ts): rules and tests done of
 * those selected (the rules expected from the start, not the few collected so far), the rules
 * whose tests are running now, blind to tests --only left out.
 */
import { describe, expect, it } from 'vitest';
import type { TestCase, TestModule } from 'vitest/node';
import { TestProgress } from '../../../../src/cli/run/progress-reporter.ts';

const testCase = (rule: string): TestCase => ({ meta: () => ({ rule }) }) as unknown as TestCase;
const moduleOf = (tests: TestCase[]): TestModule => ({ children: { allTests: () => tests[Symbol.iterator]() } }) as unknown as TestModule;

describe('the tests\' progress', () => {
  it('says rules and tests done of those collected, and the rules running now', () => {
    const progress = new TestProgress();
    const a = [testCase('CRUD-1'), testCase('CRUD-1'), testCase('CRUD-2')];
    progress.onTestModuleCollected(moduleOf(a));
    progress.onTestModuleCollected(moduleOf([testCase('PAGE-1')]));
    for (const t of a) progress.onTestCaseReady(t);
    progress.onTestCaseResult(a[0]!);
    progress.onTestCaseResult(a[2]!);
    expect(progress.status()).toBe('1 of 3 rules done (2 of 4 tests); running CRUD-1');
    progress.onTestCaseResult(a[1]!);
    expect(progress.status()).toBe('2 of 3 rules done (3 of 4 tests)');
  });

  it('counts the rules the run will judge from the start, and names at most three running, then how many more', () => {
    const expected = new Set(['A-1', 'A-2', 'A-3', 'A-4', 'A-5']);
    const progress = new TestProgress({ expected, label: 'second attempt' });
    const tests = [...expected].map(testCase);
    progress.onTestModuleCollected(moduleOf(tests.slice(0, 1)));
    expect(progress.status()).toBe('second attempt: 0 of 5 rules done (0 of 1 tests)');
    progress.onTestModuleCollected(moduleOf(tests.slice(1)));
    for (const t of tests) progress.onTestCaseReady(t);
    expect(progress.status()).toBe('second attempt: 0 of 5 rules done (0 of 5 tests); running A-1, A-2, A-3 and 2 more');
  });

  it('counts only the rules of the run (--only, or a second attempt\'s)', () => {
    const progress = new TestProgress({ only: new Set(['AUTH-1']) });
    const tests = [testCase('AUTH-1'), testCase('CRUD-1')];
    progress.onTestModuleCollected(moduleOf(tests));
    for (const t of tests) progress.onTestCaseReady(t);
    expect(progress.status()).toBe('0 of 1 rules done (0 of 1 tests); running AUTH-1');
    for (const t of tests) progress.onTestCaseResult(t);
    expect(progress.status()).toBe('1 of 1 rules done (1 of 1 tests)');
  });
});
