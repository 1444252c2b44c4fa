#!/usr/bin/env node
// `npm test`: the conformance run (src/cli/main.ts).
import { runTypeScript } from './load-ts.mjs';

await runTypeScript('src/cli/main.ts');
