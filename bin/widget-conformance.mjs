#!/usr/bin/env node
// `widget-conformance` (`npm test` in this repository): the conformance run (src/cli/run/main.ts).
// Subcommands: `cleanup` deletes widgets left by killed runs (src/cli/cleanup/main.ts); `compare`
// and `verify` are the comparison matrix and the report-bundle check (npm run compare / verify);
// `serve` is the reference server, optionally slow or rate-limited (npm run serve). `replay FILE`
// is a run of one failing test from its replay file: the run's own entry reads it.
import { run } from './run.mjs';

const SUBCOMMANDS = { replay: 'src/cli/run/main.ts', cleanup: 'src/cli/cleanup/main.ts', compare: 'src/cli/compare/main.ts', verify: 'src/cli/verify/main.ts', serve: 'src/reference/serve.ts' };
const word = process.argv[2] ?? '';
const sub = Object.hasOwn(SUBCOMMANDS, word) ? SUBCOMMANDS[word] : undefined;
// Each entry reads its flags from process.argv like the run does: without the subcommand. A
// replay is a run: the run's entry reads `replay FILE` itself.
if (sub && word !== 'replay') process.argv.splice(2, 1);
await run(sub ?? 'src/cli/run/main.ts');
