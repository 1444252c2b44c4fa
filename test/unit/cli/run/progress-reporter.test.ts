/**
 * The progress line of a long run (cli/run/progress-reporter.ts): every PROGRESS_EVERY_MS, rules
 * and tests done of those collected, requests and pace; driven by an injected clock and timer (no
 * sleep), stopped when the tests end, and blind to tests --only left out.
 */
import { describe, expect, it, vi } from 'vitest';
import type { TestCase, TestModule } from 'vitest/node';
import { PROGRESS_EVERY_MS, ProgressReporter, unrefEvery } from '../../../../src/cli/run/progress-reporter.ts';

const testCase = (rule: string): TestCase => ({ meta: () => ({ rule }) }) as unknown as TestCase;
const moduleOf = (tests: TestCase[]): TestModule => ({ children: { allTests: () => tests[Symbol.iterator]() } }) as unknown as TestModule;

function harness(only?: ReadonlySet<string>) {
  let now = 1_000;
  let requests = 40;
  const written: string[] = [];
  const timers: Array<{ ms: number; tick: () => void; stopped: boolean }> = [];
  const reporter = new ProgressReporter({
    write: (l) => written.push(l),
    now: () => now,
    every: (ms, tick) => {
      const t = { ms, tick, stopped: false };
      timers.push(t);
      return () => void (t.stopped = true);
    },
    requests: () => requests,
    ...(only ? { only } : {}),
  });
  const advance = (ms: number, sent: number): void => {
    now += ms;
    requests += sent;
    for (const t of timers.filter((x) => !x.stopped)) t.tick();
  };
  return { reporter, written, timers, advance };
}

describe('the progress line', () => {
  it('says rules and tests done of those collected, the requests of this run and their pace, each tick of a 10–15 s timer', () => {
    const { reporter, written, timers, advance } = harness();
    reporter.onTestRunStart();
    expect(timers).toHaveLength(1);
    expect(timers[0]!.ms).toBe(PROGRESS_EVERY_MS);
    expect(PROGRESS_EVERY_MS).toBeGreaterThanOrEqual(10_000);
    expect(PROGRESS_EVERY_MS).toBeLessThanOrEqual(15_000);
    const a = [testCase('CRUD-1'), testCase('CRUD-1'), testCase('CRUD-2')];
    reporter.onTestModuleCollected(moduleOf(a));
    reporter.onTestModuleCollected(moduleOf([testCase('PAGE-1')]));
    reporter.onTestCaseResult(a[0]!);
    reporter.onTestCaseResult(a[2]!);
    advance(12_000, 600);
    expect(written).toEqual(['… 12 s: 1 of 3 rules done (2 of 4 tests), 600 requests (50 requests/s)']);
    reporter.onTestCaseResult(a[1]!);
    advance(12_000, 0);
    expect(written[1]).toBe('… 24 s: 2 of 3 rules done (3 of 4 tests), 600 requests (25 requests/s)');
    reporter.onTestRunEnd();
    expect(timers[0]!.stopped).toBe(true);
    advance(12_000, 5);
    expect(written).toHaveLength(2);
  });

  it('counts only the rules of the run (--only, or a second attempt\'s)', () => {
    const { reporter, written, advance } = harness(new Set(['AUTH-1']));
    reporter.onTestRunStart();
    const tests = [testCase('AUTH-1'), testCase('CRUD-1')];
    reporter.onTestModuleCollected(moduleOf(tests));
    reporter.onTestCaseResult(tests[0]!);
    reporter.onTestCaseResult(tests[1]!);
    advance(12_000, 12);
    expect(written).toEqual(['… 12 s: 1 of 1 rules done (1 of 1 tests), 12 requests (1.0 requests/s)']);
  });

  it('a real timer never keeps the process alive', () => {
    const spy = vi.spyOn(globalThis, 'setInterval');
    const stop = unrefEvery(60_000, () => undefined);
    const timer = spy.mock.results[0]?.value as NodeJS.Timeout;
    spy.mockRestore();
    expect(timer.hasRef()).toBe(false);
    stop();
  });
});
