/**
 * How the worker runs a --token-command, registered by the worker's setup file (setup.ts):
 * the run context only looks it up, so modules that load the context (and their unit tests)
 * never load child_process.
 */
export type CommandRunner = (command: string, label: string) => Promise<string>;

const KEY = Symbol.for('widget-conformance.token-command-runner');
type GlobalSlot = { [KEY]?: CommandRunner };

export function registerCommandRunner(run: CommandRunner): void {
  (globalThis as GlobalSlot)[KEY] = run;
}

/** The registered runner; outside a suite run (no setup file) there is none, and renewing fails. */
export function commandRunner(): CommandRunner {
  const run = (globalThis as GlobalSlot)[KEY];
  if (!run) throw new Error('no token command runner registered: run the suite with `npm test`');
  return run;
}
