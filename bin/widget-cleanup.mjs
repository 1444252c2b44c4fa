#!/usr/bin/env node
// `npm run cleanup`: deletes widgets left by killed runs (src/cli/cleanup/main.ts).
import { run } from './run.mjs';

await run('src/cli/cleanup/main.ts');
