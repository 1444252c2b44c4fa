// The project's own tests in two tiers, one folder each (see tiers.ts): `npm run test:unit` runs the unit tests
// of src/ in seconds, `npm run test:e2e` the real suite as a child process against the
// reference server and faulty servers, and `npm run test:self` both, unit first.
import { defineConfig } from 'vitest/config';
import { E2E_FILES, UNIT_FILES } from './tiers.ts';

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    pool: 'threads',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT_FILES,
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
