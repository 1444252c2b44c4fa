// The project's own tests in two tiers, one folder each (see tiers.ts): `npm run test:unit` runs the unit tests
// of src/ in seconds, `npm run test:e2e` the real suite as a child process against the
// reference server and faulty servers, and `npm run test:self` both, unit first.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { E2E_FILES, UNIT_FILES } from './tiers.ts';

/**
 * Test files run side by side, one per core and never fewer than two. Most of either tier waits:
 * a unit file on a loopback server's timeouts and pauses, an e2e file on runs that are paced,
 * rate-limited, lagging or timing out. vitest's default (one file fewer than the cores) ran one
 * file at a time on a 2-core machine and left a core idle through every wait: the e2e tier used
 * 16 min of CPU in 17 min. Each e2e file bounds its own runs (test/support/suite-runner.ts).
 */
const FILES_AT_ONCE = Math.max(2, availableParallelism());

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    pool: 'threads',
    maxWorkers: FILES_AT_ONCE,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT_FILES,
          // One module registry per worker, shared by its files: importing src/ once per worker
          // rather than once per file halves the tier (30 s to 16 s on 2 cores, most of it
          // imports). A file that replaces a module (vi.mock) resets the registry before and
          // after itself (adding-a-rule.test.ts); test/unit/tiers.test.ts holds every such file to it.
          isolate: false,
          // The slowest unit test waits out a server's idle-connection timeout (about 3 s).
          testTimeout: 15_000,
          hookTimeout: 15_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: E2E_FILES,
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
