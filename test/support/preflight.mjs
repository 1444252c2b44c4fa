#!/usr/bin/env node
// `npm run test:self` runs this first: the HTML report's self-test needs Debian's Chromium, and
// without this check a machine that lacks it learns so only after five minutes of other tests.
// Plain JavaScript with no imports beyond node:, so it answers within the first second
// (test/support/chromium.ts takes the path and the message from here: one source).
import { accessSync, constants, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The Chromium binary the self-tests use: CHROMIUM_PATH, or Debian's package. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Why the self-tests cannot use CHROMIUM, with the command that fixes it; undefined when they can. */
export function chromiumProblem() {
  try {
    accessSync(CHROMIUM, constants.X_OK);
    if (statSync(CHROMIUM).isFile()) return undefined;
  } catch {
    // Missing or not executable: the same answer.
  }
  return (
    `Chromium is not installed at ${CHROMIUM}: the HTML report's self-test opens the report in Debian's headless Chromium. ` +
    'Install it with `apt-get update && apt-get install -y chromium` (as root; `.ci/run` does this on a fresh machine), ' +
    'or point CHROMIUM_PATH at another Chromium binary.'
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problem = chromiumProblem();
  if (problem !== undefined) {
    process.stderr.write(`self-tests: ${problem}\n`);
    process.exit(1);
  }
}
