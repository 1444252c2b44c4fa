/**
 * Quiet windows for list walks. A walk that must find every widget (a property's round trip,
 * the model's list check, the pagination walks) runs while none of the suite's own creates or
 * deletes is in flight: a server with offset pagination, which the spec allows (only PAGE-7,
 * a SHOULD, asks for stability under writes), could otherwise skip a widget because another
 * test wrote between two pages, and a MUST rule would fail for PAGE-7's reason.
 *
 * Writes share the gate; a walk waits for the writes in flight, holds new ones back while it
 * runs, and several walks may run together.
 */
export class WalkGate {
  private writes = 0;
  private walks = 0;
  /** Walks waiting for writes to drain: new writes wait behind them, so walks are not starved. */
  private pendingWalks = 0;
  private readonly waiters: Array<() => void> = [];

  private wake(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  private async until(condition: () => boolean): Promise<void> {
    while (!condition()) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** Runs one create or delete, outside any quiet window. */
  async write<T>(fn: () => Promise<T>): Promise<T> {
    await this.until(() => this.walks === 0 && this.pendingWalks === 0);
    this.writes += 1;
    try {
      return await fn();
    } finally {
      this.writes -= 1;
      this.wake();
    }
  }

  /** Runs a walk while no write of the suite is in flight. */
  async quiet<T>(fn: () => Promise<T>): Promise<T> {
    this.pendingWalks += 1;
    try {
      await this.until(() => this.writes === 0);
    } finally {
      this.pendingWalks -= 1;
    }
    this.walks += 1;
    try {
      return await fn();
    } finally {
      this.walks -= 1;
      this.wake();
    }
  }
}
