#!/usr/bin/env node
// `npm run soak`: the whole suite many times in a row against the reference server (src/cli/soak.ts).
import { runTypeScript } from './load-ts.mjs';

await runTypeScript('src/cli/soak.ts');
