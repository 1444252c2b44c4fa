/** A counting semaphore: at most `max` holders at once, released in FIFO order; `max` may change while it runs. */
export class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private max: number) {}

  /** The most holders now allowed. */
  get size(): number {
    return this.max;
  }

  /** Allows `max` holders from now on: more lets waiters in at once; fewer takes effect as holders leave. */
  resize(max: number): void {
    this.max = max;
    while (this.active < this.max && this.waiting.length > 0) {
      this.active += 1;
      this.waiting.shift()!();
    }
  }

  /** Lets the first waiter in now, beyond the limit (its slot is given up when it leaves, as after a shrink); false when none waits. */
  letOneIn(): boolean {
    const next = this.waiting.shift();
    if (next === undefined) return false;
    this.active += 1;
    next();
    return true;
  }

  /** Runs `fn` once a slot is free, and frees the slot when it settles. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active += 1;
    try {
      return await fn();
    } finally {
      // Over the limit after a shrink: the slot is given up, not handed on.
      const next = this.active > this.max ? undefined : this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}
