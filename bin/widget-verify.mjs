#!/usr/bin/env node
// `npm run verify`: src/cli/verify/main.ts.
import { run } from './run.mjs';

await run('src/cli/verify/main.ts');
