/**
 * Turns at something several tests of a file share, such as one widget that AUTH-4's tests judge
 * in turn: tests whose requests cannot change it run together, and a test whose request may change
 * it runs alone. Turns are taken in the order they are asked for, so neither kind waits forever.
 */
export class Turns {
  /** Settles when every turn asked for so far has ended. */
  #tail: Promise<void> = Promise.resolve();
  /** The turn taken together that a test asking now joins, while no turn alone was asked for after it. */
  #group: { readonly ready: Promise<void>; holders: number; readonly end: () => void } | undefined;

  /** Runs `fn` alone: after every turn asked for before, before every turn asked for after. */
  async alone<T>(fn: () => Promise<T>): Promise<T> {
    this.#group = undefined;
    const before = this.#tail;
    let end!: () => void;
    this.#tail = new Promise<void>((resolve) => (end = resolve));
    await before;
    try {
      return await fn();
    } finally {
      end();
    }
  }

  /** Runs `fn` beside the other tests that run together, never beside one that runs alone. */
  async together<T>(fn: () => Promise<T>): Promise<T> {
    let group = this.#group;
    if (group === undefined) {
      let end!: () => void;
      const ended = new Promise<void>((resolve) => (end = resolve));
      group = { ready: this.#tail, holders: 0, end };
      this.#group = group;
      this.#tail = ended;
    }
    group.holders += 1;
    await group.ready;
    try {
      return await fn();
    } finally {
      group.holders -= 1;
      // The last holder out ends the turn; a test asking after that starts a new one.
      if (group.holders === 0) {
        if (this.#group === group) this.#group = undefined;
        group.end();
      }
    }
  }
}
