/**
 * The tests' part of the progress line (progress.ts), in place of vitest's own reporter: no line
 * per test, no error dump and no test-runner summary (the runner prints each finding once, at the
 * end, from the report: summary.ts). It counts the rules and tests done of those selected and
 * names the rules whose tests are running now; the run's progress line asks it for those words.
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';

/** Rules named as running before "and N more". */
const RUNNING_SHOWN = 3;

export interface TestProgressOptions {
  /** "second attempt": said at the start of the status. */
  readonly label?: string;
  /** --only, or a second attempt's rules: tests of other rules are not part of the run, and not counted. */
  readonly only?: ReadonlySet<string>;
  /**
   * The rules the run will judge, when known before their tests are collected (no test-name
   * filter): "5 of 42 rules done" from the start, not of the few collected so far.
   */
  readonly expected?: ReadonlySet<string>;
}

/** The progress of one vitest run: tests and rules done, and what is running. */
export class TestProgress implements Reporter {
  private readonly total = new Map<string, number>();
  private readonly done = new Map<string, number>();
  /** Tests running now, by rule (vitest runs a file's tests side by side). */
  private readonly running = new Map<string, number>();
  private tests = 0;
  private finished = 0;

  constructor(private readonly options: TestProgressOptions = {}) {}

  onTestModuleCollected(module: TestModule): void {
    for (const test of module.children.allTests()) {
      const rule = this.ruleOf(test);
      if (rule === undefined) continue;
      this.total.set(rule, (this.total.get(rule) ?? 0) + 1);
      this.tests += 1;
    }
  }

  onTestCaseReady(test: TestCase): void {
    const rule = this.ruleOf(test);
    if (rule !== undefined) this.running.set(rule, (this.running.get(rule) ?? 0) + 1);
  }

  onTestCaseResult(test: TestCase): void {
    const rule = this.ruleOf(test);
    if (rule === undefined) return;
    this.done.set(rule, (this.done.get(rule) ?? 0) + 1);
    this.finished += 1;
    const left = (this.running.get(rule) ?? 1) - 1;
    if (left > 0) this.running.set(rule, left);
    else this.running.delete(rule);
  }

  /** "31 of 42 rules done (161 of 221 tests); running PROP-1, PAGE-8". */
  status(): string {
    const rulesDone = [...this.total].filter(([rule, n]) => (this.done.get(rule) ?? 0) >= n).length;
    const rules = this.options.expected && this.options.expected.size >= this.total.size ? this.options.expected.size : this.total.size;
    const now = [...this.running.keys()];
    const shown = now.length === 0 ? '' : `; running ${now.slice(0, RUNNING_SHOWN).join(', ')}${now.length > RUNNING_SHOWN ? ` and ${now.length - RUNNING_SHOWN} more` : ''}`;
    return `${this.options.label ? `${this.options.label}: ` : ''}${rulesDone} of ${rules} rules done (${this.finished} of ${this.tests} tests)${shown}`;
  }

  /** The test's rule, when it is part of the run (undefined for a test --only left out). */
  private ruleOf(test: TestCase): string | undefined {
    const rule = test.meta().rule ?? '(none)';
    return this.options.only && !this.options.only.has(rule) ? undefined : rule;
  }
}
