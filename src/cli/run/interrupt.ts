/**
 * SIGINT and SIGTERM during a run: stop creating widgets (the workers see a flag file), let
 * the running tests finish, then clean up, report and exit 130 or 143. A second signal exits
 * at once, pointing at the suite's `cleanup` (the suite command of report/rerun.ts).
 */
import type { Vitest } from 'vitest/node';
import { markCancelled } from '../../harness/cancel.ts';
import { localSuiteCommand } from '../../report/rerun.ts';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export class Interrupt {
  /** The first signal received, if any. */
  signal: NodeJS.Signals | undefined;
  private vitest: Vitest | undefined;

  constructor(private readonly statsDir: string) {
    for (const s of SIGNALS) process.on(s, this.onSignal);
  }

  private readonly onSignal = (signal: NodeJS.Signals): void => {
    if (this.signal) {
      process.stderr.write(`widget-conformance: second ${signal}: exiting without cleanup; \`${localSuiteCommand()} cleanup --base-url …\` with the same target deletes what this run left\n`);
      process.exit(exitCodeFor(signal));
    }
    this.signal = signal;
    process.stderr.write(`\nwidget-conformance: ${signal} received: stopping the run, then deleting what it created\n`);
    markCancelled(this.statsDir, signal);
    void this.vitest?.cancelCurrentRun('keyboard-input');
  };

  /** Takes charge of a vitest instance: cancels it if a signal came first. */
  adopt(vitest: Vitest): void {
    this.vitest = vitest;
    // vitest's logger exits the process on SIGINT/SIGTERM, which would skip the cleanup.
    for (const s of SIGNALS) for (const listener of process.listeners(s)) if (listener !== this.onSignal) process.off(s, listener);
    if (this.signal) void vitest.cancelCurrentRun('keyboard-input');
  }

  /** 130 or 143 once interrupted. */
  get exitCode(): number | undefined {
    return this.signal ? exitCodeFor(this.signal) : undefined;
  }
}

function exitCodeFor(signal: NodeJS.Signals): number {
  return signal === 'SIGINT' ? 130 : 143;
}
