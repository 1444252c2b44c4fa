#!/usr/bin/env node
// `widget-conformance` (`npm test` in this repository): the conformance run (src/cli/main.ts);
// `widget-conformance cleanup …` deletes widgets left by killed runs (src/cli/cleanup.ts).
import { run } from './run.mjs';

if (process.argv[2] === 'cleanup') {
  // The cleanup reads its flags from process.argv like the run does: without the subcommand.
  process.argv.splice(2, 1);
  await run('src/cli/cleanup.ts');
} else {
  await run('src/cli/main.ts');
}
