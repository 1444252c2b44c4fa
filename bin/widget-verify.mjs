#!/usr/bin/env node
// `npm run verify`: src/cli/verify-main.ts.
import { runTypeScript } from './load-ts.mjs';

await runTypeScript('src/cli/verify-main.ts');
