/**
 * The pace of a run: one token bucket that every request of a client passes (all tests, both
 * accounts), so the suite slows down before a server refuses it instead of after. Its rate is
 *  - capped by --max-rate, when given;
 *  - capped by what the server says (RateLimit-Policy's quota per window; see rate-headers.ts);
 *  - cut by a multiplicative decrease on a refusal (429, 503) (at most once per
 *    DECREASE_INTERVAL_MS: the requests already in flight meet the same limit and say nothing
 *    new; a refusal without Retry-After of a request sent after the last cut cuts again at
 *    once, since no pause slows the resends), and raised by an additive increase on each
 *    accepted answer (AIMD, as TCP does);
 *  - paused, for everyone at once, while a server's Retry-After runs or its RateLimit
 *    `remaining` is 0 until its reset.
 * Unpaced (no cap, no refusal yet) it adds nothing: acquire() returns without a timer.
 *
 * The wait budget is wall-clock time: a pause counts once, however many requests wait on it.
 */

/** Multiplicative decrease on a 429: the new rate is this share of the rate that was refused. */
export const DECREASE_FACTOR = 0.7;
/** A second 429 within this time of a decrease does not decrease again: it was sent at the old rate. */
export const DECREASE_INTERVAL_MS = 1_000;
/** Additive increase, in requests per second gained per second of accepted answers at the current rate. */
export const INCREASE_PER_SECOND = 1;
/** Close to the rate last refused, the increase is this much slower: probing, not charging. */
export const NEAR_REFUSED_SLOWDOWN = 10;
/** The share of a server's stated rate the suite paces at: its clock and the server's differ. */
export const STATED_RATE_MARGIN = 0.95;
/** Never paced slower than this (requests per second), whatever the refusals. */
export const MIN_RATE = 0.5;
/** How far back the rate actually sent is measured. */
const MEASURE_WINDOW_MS = 1_000;
/**
 * The least unpaused time a measured rate rests on. Just after a pause the window holds few
 * sends and little sending time: a rate read from them would be noise, so the rate in force stands.
 */
const MIN_MEASURED_SPAN_MS = 250;

export interface PacerOptions {
  /** --max-rate: requests per second, both accounts together; undefined for no cap of the user's. */
  readonly maxRate?: number;
  /** For tests. */
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** Why a pause cannot be granted: it would take the blocked time past the budget. */
export interface PauseRefused {
  readonly refused: true;
  /** Milliseconds of budget left before this pause. */
  readonly left: number;
}

/** The shared token bucket and its learned rate. */
export class Pacer {
  /** Requests per second now allowed; Infinity while unpaced. */
  private rate: number;
  /** The server's stated rate (less the margin), or --max-rate, whichever is lower. */
  private ceiling: number;
  /** The rate at which the server last refused: the increase slows near it. */
  private refusedAt: number | undefined;
  private nextSendAt = 0;
  private pausedUntil = 0;
  private lastDecreaseAt = Number.NEGATIVE_INFINITY;
  private firstSendAt: number | undefined;
  /** Send times of the last MEASURE_WINDOW_MS, oldest first. */
  private readonly recent: number[] = [];
  /** Pauses ([start, end)) that reach into the last MEASURE_WINDOW_MS: time in which nothing could be sent. */
  private readonly pauses: Array<[number, number]> = [];
  /** Wall-clock time covered by pauses so far (their union). */
  blockedMs = 0;
  /** Answers 429 (or 503 asking for a wait): requests the server refused. */
  refused = 0;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  /** Set once no request will be sent any more: every waiter is let go at once, to fail fast. */
  private stopped = false;
  private wake!: () => void;
  private readonly woken = new Promise<void>((resolve) => (this.wake = resolve));
  /** Requests waiting with priority (a proven write and its proof): every other waits until none is left. */
  private priorityWaiting = 0;
  /** Resolved when the last priority waiter is served. */
  private priorityServed: { readonly promise: Promise<void>; readonly resolve: () => void } | undefined;

  constructor(options: PacerOptions = {}) {
    this.now = options.now ?? (() => performance.now());
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.ceiling = options.maxRate ?? Number.POSITIVE_INFINITY;
    this.rate = this.ceiling;
  }

  /** The pacer's clock (ms): a request's send time, for onRefused. */
  get clock(): number {
    return this.now();
  }

  /** The rate now allowed, in requests per second (Infinity while unpaced). */
  get currentRate(): number {
    return this.rate;
  }

  /** The rate in force, rounded to a tenth, or undefined while the run is unpaced. */
  get pacedRate(): number | undefined {
    return Number.isFinite(this.rate) ? Math.round(this.rate * 10) / 10 : undefined;
  }

  /**
   * Waits until a request may be sent: no pause is running and the bucket has a token. False,
   * at once, when that moment is past `until` (a now() value: the run's deadline) or once
   * stop() was called: the caller then does not send. A `priority` request (a proven write, its
   * proof) takes the next token before any other waiting request.
   */
  async acquire(until = Number.POSITIVE_INFINITY, priority = false): Promise<boolean> {
    if (!priority) return this.take(until, false);
    this.priorityWaiting += 1;
    try {
      return await this.take(until, true);
    } finally {
      this.priorityWaiting -= 1;
      if (this.priorityWaiting === 0) {
        this.priorityServed?.resolve();
        this.priorityServed = undefined;
      }
    }
  }

  private async take(until: number, priority: boolean): Promise<boolean> {
    for (;;) {
      if (this.stopped) return false;
      if (!priority && this.priorityWaiting > 0) {
        // A proven write is waiting: it goes first, whatever this request waited for.
        if (!this.priorityServed) {
          let resolve!: () => void;
          const promise = new Promise<void>((r) => (resolve = r));
          this.priorityServed = { promise, resolve };
        }
        await Promise.race([this.priorityServed.promise, this.woken]);
        continue;
      }
      const now = this.now();
      const at = Math.max(this.pausedUntil, this.nextSendAt);
      if (at <= now) {
        if (Number.isFinite(this.rate)) this.nextSendAt = Math.max(now, this.nextSendAt) + 1000 / this.rate;
        this.noteSend(now);
        return true;
      }
      if (at >= until) return false;
      // Waiting for the moment the bucket or the server allows the next request: an event, not a fixed delay.
      await Promise.race([this.sleep(at - now), this.woken]);
    }
  }

  /** No request will be sent any more (the target is given up): every waiter returns false now. */
  stop(): void {
    this.stopped = true;
    this.wake();
  }

  /**
   * Pauses every request for `ms` (a Retry-After, a reset with nothing remaining), unless that
   * would take the blocked wall-clock time past `budgetMs`: then nothing changes and the refusal
   * says how much budget was left.
   */
  pause(ms: number, budgetMs: number): PauseRefused | undefined {
    const now = this.now();
    const end = now + ms;
    // The time this pause adds past the one running, taken from `ms` itself: (now + ms) - now is
    // not always ms in floating point (250.00000000000045 on about 1 clock reading in 200), and a
    // budget of exactly one pause must pay for that pause.
    const added = Math.max(0, ms - Math.max(0, this.pausedUntil - now));
    if (this.blockedMs + added > budgetMs) return { refused: true, left: Math.max(0, budgetMs - this.blockedMs) };
    this.blockedMs += added;
    if (added > 0) this.pauses.push([Math.max(now, this.pausedUntil), end]);
    this.pausedUntil = Math.max(this.pausedUntil, end);
    return undefined;
  }

  /**
   * A 429 or 503 that asked for `waitMs` (undefined: no Retry-After) of a request sent at `sentAt`
   * (the clock): counted, and the rate cut once per interval, or, without Retry-After, whenever
   * the refused request was sent after the last cut (at the lowered rate, and refused all the same).
   */
  onRefused(waitMs: number | undefined, sentAt?: number): void {
    this.refused += 1;
    // Retry-After: 0 asks for an immediate retry: the server sheds load, it does not name a rate.
    if (waitMs === 0) return;
    const now = this.now();
    const sentAfterCut = waitMs === undefined && sentAt !== undefined && sentAt > this.lastDecreaseAt;
    if (now - this.lastDecreaseAt < DECREASE_INTERVAL_MS && !sentAfterCut) return;
    this.lastDecreaseAt = now;
    const measured = this.measured(now);
    // Too little unpaused sending to measure: the rate in force is what was refused.
    const sent = measured === undefined ? this.rate : Math.min(this.rate, measured);
    this.refusedAt = sent;
    this.rate = Math.max(MIN_RATE, sent * DECREASE_FACTOR);
  }

  /** An answer the server accepted, with what its headers say about the limit. */
  onAccepted(hint: { rate?: number; remaining?: number; resetMs?: number } = {}): void {
    if (hint.rate !== undefined && hint.rate > 0) {
      const stated = Math.max(MIN_RATE, hint.rate * STATED_RATE_MARGIN);
      if (stated < this.ceiling) this.ceiling = stated;
      if (this.rate > this.ceiling) this.rate = this.ceiling;
    }
    if (Number.isFinite(this.rate)) {
      const near = this.refusedAt !== undefined && this.rate >= 0.9 * this.refusedAt;
      const step = INCREASE_PER_SECOND / (near ? NEAR_REFUSED_SLOWDOWN : 1);
      // Per answer step / rate: about `step` requests per second gained per second.
      this.rate = Math.min(this.ceiling, this.rate + step / this.rate);
    }
  }

  /**
   * Requests per second actually sent over the last window (over the time since the first send,
   * early on), counting only the time no pause held every request: a refusal that arrives just
   * after a Retry-After must not read the pause as a slow rate (that once cut a 40/s limit's pace
   * to 15/s for the rest of the run). Undefined when too little unpaused time is left to tell.
   */
  private measured(now: number): number | undefined {
    this.trim(now);
    const from = Math.max(now - MEASURE_WINDOW_MS, this.firstSendAt ?? now);
    const paused = this.pauses.reduce((sum, [start, end]) => sum + Math.max(0, Math.min(end, now) - Math.max(start, from)), 0);
    const span = now - from - paused;
    // Unpaced there is no rate in force to fall back on: the first refusal reads what it has.
    if (span < MIN_MEASURED_SPAN_MS && Number.isFinite(this.rate)) return undefined;
    return (this.recent.length / Math.max(span, 50)) * 1000;
  }

  private noteSend(now: number): void {
    this.firstSendAt ??= now;
    this.recent.push(now);
    this.trim(now);
  }

  private trim(now: number): void {
    while (this.recent.length > 0 && this.recent[0]! < now - MEASURE_WINDOW_MS) this.recent.shift();
    while (this.pauses.length > 0 && this.pauses[0]![1] < now - MEASURE_WINDOW_MS) this.pauses.shift();
  }
}
