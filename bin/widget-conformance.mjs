#!/usr/bin/env node
// `npm test`: the conformance run (src/cli/main.ts); `widget-conformance compare …` and
// `widget-conformance verify …` are the comparison and the bundle check (npm run compare / verify).
import { runTypeScript } from './load-ts.mjs';

const SUBCOMMANDS = { compare: 'src/cli/compare-main.ts', verify: 'src/cli/verify-main.ts' };
const sub = SUBCOMMANDS[process.argv[2]];
if (sub) process.argv.splice(2, 1);
await runTypeScript(sub ?? 'src/cli/main.ts');
