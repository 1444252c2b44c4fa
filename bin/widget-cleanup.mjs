#!/usr/bin/env node
// `npm run cleanup`: deletes widgets left by killed runs (src/cli/cleanup.ts).
import { runTypeScript } from './load-ts.mjs';

await runTypeScript('src/cli/cleanup.ts');
