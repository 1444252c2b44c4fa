// `npm run mutate`: Stryker changes the reference server one mutant at a time and the whole
// conformance suite, under --strict, judges each one (docs/mutation.md). A mutant the suite
// passes is a behaviour the suite cannot see; docs/mutants.md classifies every one of those.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  // The suite is a CLI, not a test framework Stryker knows: any non-zero exit kills the mutant.
  testRunner: 'command',
  commandRunner: { command: 'node bin/widget-conformance.mjs --strict' },
  mutate: ['src/reference/server.ts', 'src/reference/service.ts', 'src/reference/store.ts'],
  // Mutants that do not type-check are not programs anyone could ship: the checker drops them.
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  // Two shared cores: one mutant at a time (each run already uses both).
  concurrency: 1,
  // The file is what `npm run mutate:changed` reuses; `npm run mutate` re-runs every mutant
  // (--force), because the command runner cannot tell Stryker that the suite changed.
  incremental: true,
  incrementalFile: 'reports/mutation/incremental.json',
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  // A mutant that hangs the server is killed by the suite's own bounds; this is the backstop.
  timeoutMS: 20000,
};
