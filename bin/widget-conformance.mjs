#!/usr/bin/env node
// `widget-conformance` (`npm test` in this repository): the conformance run (src/cli/run/main.ts).
// Subcommands: `cleanup` deletes widgets left by killed runs (src/cli/cleanup/main.ts); `compare`
// and `verify` are the comparison matrix and the report-bundle check (npm run compare / verify);
// `serve` is the reference server, optionally slow or rate-limited (npm run serve).
import { run } from './run.mjs';

const SUBCOMMANDS = { cleanup: 'src/cli/cleanup/main.ts', compare: 'src/cli/compare/main.ts', verify: 'src/cli/verify/main.ts', serve: 'src/reference/serve.ts' };
const sub = Object.hasOwn(SUBCOMMANDS, process.argv[2] ?? '') ? SUBCOMMANDS[process.argv[2]] : undefined;
// Each entry reads its flags from process.argv like the run does: without the subcommand.
if (sub) process.argv.splice(2, 1);
await run(sub ?? 'src/cli/run/main.ts');
