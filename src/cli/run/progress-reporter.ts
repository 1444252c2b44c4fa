/**
 * The console during the tests, in place of vitest's own reporter: no line per test, no error
 * dump and no test-runner summary (the runner prints each finding once, at the end, from the
 * report: summary.ts), only a progress line every PROGRESS_EVERY_MS of a long run, saying how
 * many rules and tests are done of how many, how many requests were sent and at what pace. Its
 * timer never keeps the process alive (unref), and the clock and timer are injected, so its
 * self-test needs no sleep.
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { liveRequests } from '../../harness/worker-to-runner.ts';

/** How often a long run says how far it is. */
export const PROGRESS_EVERY_MS = 12_000;

/** What the reporter needs of the outside world; tests pass their own. */
export interface ProgressDeps {
  readonly write: (line: string) => void;
  readonly now: () => number;
  /** Starts a repeating timer that does not keep the process alive; returns its stop. */
  readonly every: (ms: number, tick: () => void) => () => void;
  /** Requests the workers have sent so far. */
  readonly requests: () => number;
  /** "Second attempt" or nothing: said at the start of each progress line. */
  readonly label?: string;
  /** --only: tests of other rules are not part of the run, and not counted. */
  readonly only?: ReadonlySet<string>;
}

/** A Node timer that does not hold the process open. */
export function unrefEvery(ms: number, tick: () => void): () => void {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
}

/** The progress of a run: tests and rules done of those collected. */
export class ProgressReporter implements Reporter {
  private readonly total = new Map<string, number>();
  private readonly done = new Map<string, number>();
  private tests = 0;
  private finished = 0;
  private started = 0;
  /** Requests already counted when this run of tests started (a second attempt's are its own). */
  private requestsBefore = 0;
  private stop: (() => void) | undefined;

  constructor(private readonly deps: ProgressDeps) {}

  /** The default reporter of a real run: stdout, the wall clock, the stats folder's live counts. */
  static forRun(statsDir: string, options: { label?: string; only?: ReadonlySet<string> } = {}): ProgressReporter {
    return new ProgressReporter({
      write: (line) => process.stdout.write(`${line}\n`),
      now: () => Date.now(),
      every: unrefEvery,
      requests: () => liveRequests(statsDir),
      ...options,
    });
  }

  onTestRunStart(): void {
    this.started = this.deps.now();
    this.requestsBefore = this.deps.requests();
    this.stop?.();
    this.stop = this.deps.every(PROGRESS_EVERY_MS, () => this.deps.write(this.line()));
  }

  onTestModuleCollected(module: TestModule): void {
    for (const test of module.children.allTests()) this.count(this.total, test);
  }

  onTestCaseResult(test: TestCase): void {
    if (this.deps.only && !this.deps.only.has(test.meta().rule ?? '(none)')) return;
    this.count(this.done, test);
    this.finished += 1;
  }

  onTestRunEnd(): void {
    this.stop?.();
    this.stop = undefined;
  }

  /** The progress line as it stands: rules and tests done, requests, pace. */
  line(): string {
    const seconds = Math.max(0.001, (this.deps.now() - this.started) / 1000);
    const rulesDone = [...this.total].filter(([rule, n]) => (this.done.get(rule) ?? 0) >= n).length;
    const requests = Math.max(0, this.deps.requests() - this.requestsBefore);
    const pace = `${(requests / seconds).toFixed(requests / seconds < 10 ? 1 : 0)} requests/s`;
    return `${this.deps.label ? `${this.deps.label}: ` : ''}… ${Math.round(seconds)} s: ${rulesDone} of ${this.total.size} rules done (${this.finished} of ${this.tests} tests), ${requests} requests (${pace})`;
  }

  private count(into: Map<string, number>, test: TestCase): void {
    const rule = test.meta().rule ?? '(none)';
    if (this.deps.only && !this.deps.only.has(rule)) return;
    into.set(rule, (into.get(rule) ?? 0) + 1);
    if (into === this.total) this.tests += 1;
  }
}
