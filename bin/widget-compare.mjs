#!/usr/bin/env node
// `npm run compare`: src/cli/compare/main.ts.
import { run } from './run.mjs';

await run('src/cli/compare/main.ts');
