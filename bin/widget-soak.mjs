#!/usr/bin/env node
// `npm run soak`: the whole suite many times in a row against the reference server (src/cli/soak.ts).
import { run } from './run.mjs';

await run('src/cli/soak.ts');
