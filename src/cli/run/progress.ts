/**
 * The console while a run works: one line every PROGRESS_EVERY_MS from the first request to the
 * summary, whatever the run is doing. The phase says what it is doing in its own counts (the
 * tests: rules and tests done of those selected, and the rules running now; the second attempt;
 * the final cleanup: its step; the report writing: files written of those due), and every line
 * adds the requests of the whole run so far and their pace since the line before, so a line never
 * repeats the one before while the run sends anything. The timer never keeps the process alive
 * (unref), and the clock and timer are injected, so its tests need no sleep.
 */

/** How often the run says how far it is: a CI log never sits silent longer. */
export const PROGRESS_EVERY_MS = 12_000;

/** What the progress line needs of the outside world; tests pass their own. */
export interface ProgressDeps {
  readonly write: (line: string) => void;
  readonly now: () => number;
  /** Starts a repeating timer that does not keep the process alive; returns its stop. */
  readonly every: (ms: number, tick: () => void) => () => void;
  /** Requests the whole run has sent so far (the runner's clients and the workers'). */
  readonly requests: () => number;
}

/** A Node timer that does not hold the process open. */
export function unrefEvery(ms: number, tick: () => void): () => void {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
}

/** The run's progress line: the current phase's status, the run's requests and their recent pace. */
export class RunProgress {
  private status: () => string = () => 'starting';
  private started = 0;
  private last = { at: 0, requests: 0 };
  private stopTimer: (() => void) | undefined;

  constructor(private readonly deps: ProgressDeps) {}

  /** The line on `out` (stdout; a replay's is stderr, its stdout being its one line), the wall clock, a real unref'd timer. */
  static forRun(requests: () => number, out: NodeJS.WritableStream = process.stdout): RunProgress {
    return new RunProgress({ write: (line) => void out.write(`${line}\n`), now: () => Date.now(), every: unrefEvery, requests });
  }

  /** Starts the lines (idempotent). */
  start(): void {
    if (this.stopTimer) return;
    this.started = this.deps.now();
    this.last = { at: this.started, requests: this.deps.requests() };
    this.stopTimer = this.deps.every(PROGRESS_EVERY_MS, () => this.deps.write(this.line()));
  }

  /** The phase the run is in now: `status` is asked for its words at each line. */
  phase(status: () => string): void {
    this.status = status;
  }

  /** Stops the lines: the summary follows. */
  stop(): void {
    this.stopTimer?.();
    this.stopTimer = undefined;
  }

  /** The line as it stands: elapsed time, the phase's status, requests so far and their pace since the last line. */
  line(): string {
    const now = this.deps.now();
    const requests = this.deps.requests();
    const seconds = Math.max(0.001, (now - this.last.at) / 1000);
    const rate = Math.max(0, requests - this.last.requests) / seconds;
    this.last = { at: now, requests };
    return `… ${Math.round((now - this.started) / 1000)} s: ${this.status()}; ${requests} requests (${rate.toFixed(rate < 10 ? 1 : 0)}/s lately)`;
  }
}
