#!/usr/bin/env node
// `npm run compare`: src/cli/compare-main.ts.
import { runTypeScript } from './load-ts.mjs';

await runTypeScript('src/cli/compare-main.ts');
