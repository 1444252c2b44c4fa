/**
 * One exchange's time box, as the signal undici aborts on: it measures the server, so its clock
 * stops while the suite itself holds the exchange back (a large body waiting for its pass,
 * large-bodies.ts), except that nothing runs past the run's deadline. It aborts as
 * AbortSignal.timeout() does, with a TimeoutError (transport-errors.ts words it).
 */

/** A time box of `ms` on the clock, never ending after `deadline` (a Date.now() value). */
export class TimeBox {
  readonly #controller = new AbortController();
  #left: number;
  #since = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #byDeadline = false;

  constructor(ms: number, private readonly deadline?: number) {
    this.#left = ms;
    this.#run();
  }

  /** Aborts when the time is up. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** True when the run's deadline, not the time box, ended (or would end) the exchange. */
  get byDeadline(): boolean {
    return this.#byDeadline;
  }

  /** Awaits `wait` with the clock stopped; the run's deadline still holds, meanwhile too. */
  async stopped<T>(wait: () => Promise<T>): Promise<T> {
    if (this.signal.aborted) return wait();
    clearTimeout(this.#timer);
    this.#left -= performance.now() - this.#since;
    this.#run(Number.POSITIVE_INFINITY);
    try {
      return await wait();
    } finally {
      if (!this.signal.aborted) {
        clearTimeout(this.#timer);
        this.#run(this.#left);
      }
    }
  }

  /** Ends the box once the exchange is over: its timer would otherwise hold it until the time is up. */
  close(): void {
    clearTimeout(this.#timer);
  }

  /** Starts the clock with `left` ms of the box to run, or none (infinity) while stopped: the deadline holds either way. */
  #run(left = this.#left): void {
    this.#since = performance.now();
    const untilDeadline = this.deadline === undefined ? Number.POSITIVE_INFINITY : this.deadline - Date.now();
    this.#byDeadline = untilDeadline <= left;
    const ms = Math.min(left, untilDeadline);
    if (ms === Number.POSITIVE_INFINITY) return;
    this.#arm(ms);
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(() => this.#fire(), Math.max(1, ms));
    // As AbortSignal.timeout(): the box alone never keeps the process alive.
    this.#timer.unref();
  }

  #fire(): void {
    // A timer runs on the monotonic clock, the deadline on Date.now(): the timer fires a
    // millisecond before the deadline on about 1 run in 300. Ended then, the exchange would be
    // said to end at the deadline while the client, asking Date.now(), still sends the next one.
    const early = this.#byDeadline && this.deadline !== undefined ? this.deadline - Date.now() : 0;
    if (early > 0) {
      this.#arm(early);
      return;
    }
    this.#controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }
}
