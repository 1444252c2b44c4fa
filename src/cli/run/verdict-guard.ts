/**
 * Never a silent pass: from the start of a run the exit code is failure (3), and only a written
 * verdict sets it. A run that ends any other way (a promise that never settles, so Node exits
 * once its event loop is empty; an explicit exit 0 from code that is not the verdict's) exits
 * non-zero with one line saying so.
 */

/** Exit code of a run that ended without a verdict: the suite could not run. */
export const NO_VERDICT_EXIT = 3;

/** What a guard tells the process at its end. */
export interface VerdictGuard {
  /** The run reached a verdict (or answered --help/--list): its own exit code stands. */
  settle(): void;
}

/**
 * Arms the guard on `proc` (the process; a parameter so that tests can pass a stand-in):
 * `prefix` starts the line written to stderr, e.g. `widget-conformance`.
 */
export function guardVerdict(prefix: string, proc: NodeJS.Process = process): VerdictGuard {
  let settled = false;
  proc.exitCode = NO_VERDICT_EXIT;
  const say = (why: string): void => {
    proc.stderr.write(`${prefix}: the run ended without a verdict: ${why} (exit ${NO_VERDICT_EXIT})\n`);
  };
  // Node emits beforeExit only when the event loop is empty and nothing called exit(): some
  // step was waiting on a promise that nothing will ever settle (a server that never listens).
  const beforeExit = (): void => {
    if (settled) return;
    settled = true;
    say('a step waited on something that never finished (a server that never started, a promise never settled)');
    proc.exit(NO_VERDICT_EXIT);
  };
  // An exit 0 before the verdict is written came from somewhere else: it is not a pass.
  const exit = (code: number): void => {
    if (settled) return;
    settled = true;
    if (code === 0) {
      say('the process was ended with exit code 0 before any verdict was written');
      proc.exitCode = NO_VERDICT_EXIT;
    }
  };
  proc.on('beforeExit', beforeExit);
  proc.on('exit', exit);
  return {
    settle: () => {
      settled = true;
      proc.off('beforeExit', beforeExit);
      proc.off('exit', exit);
    },
  };
}
