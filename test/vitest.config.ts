// The project's own tests (`npm run test:self`): unit tests of src/ and the suite run
// against the reference server and against faulty servers.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['test/**/*.test.ts'],
    pool: 'threads',
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
