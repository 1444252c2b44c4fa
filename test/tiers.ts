/**
 * Which of the project's own test files are unit tests and which are end-to-end. A unit file
 * never starts the suite (or its CLI) as a child process, so the whole tier runs in seconds;
 * everything else is end-to-end. A new file lands in the end-to-end tier unless listed here,
 * so a slow file can never slip into the fast tier by accident.
 */
export const UNIT_FILES = [
  'test/unit/**/*.test.ts',
  'test/http/**/*.test.ts',
  'test/reference/**/*.test.ts',
  'test/config.test.ts',
  'test/layers.test.ts',
  'test/ownership.test.ts',
  'test/schema.test.ts',
  'test/sweep.test.ts',
  'test/walk.test.ts',
];

export const ALL_TEST_FILES = ['test/**/*.test.ts'];
