/**
 * The project's own tests come in two tiers, and the tier is the folder: `test/unit/` mirrors
 * `src/` (and holds the tests of the project as a whole: docs, layers, tiers, the catalogue's
 * data), and never starts the suite or its CLI as a child process, so the whole tier runs in
 * seconds (test/unit/tiers.test.ts holds it to that); `test/e2e/` runs the real suite as a child
 * process against servers on loopback. Shared servers and helpers live in `test/servers/` and
 * `test/support/`.
 */
export const UNIT_FILES = ['test/unit/**/*.test.ts'];

export const E2E_FILES = ['test/e2e/**/*.test.ts'];
