/**
 * CPU load beside a self-test run: busy processes like a loaded CI machine's (issue 20: the
 * verdict must not change under load). Each spins until stopped, and stops by itself after a
 * bound, so a crashed test leaves nothing running.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** The longest a busy process runs if nobody stops it. */
const MAX_BUSY_MS = 15 * 60_000;

/** Starts `count` processes that keep a core busy; `stop()` ends them (by their own ids). */
export function busyProcesses(count: number): { stop(): void } {
  const children: ChildProcess[] = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', `const end = Date.now() + ${MAX_BUSY_MS}; while (Date.now() < end) { for (let i = 0; i < 1e6; i += 1); }`], { stdio: 'ignore' }),
  );
  return {
    stop(): void {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
