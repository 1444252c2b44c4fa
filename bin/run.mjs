// What every bin does: in a source checkout, brings dist/ up to date first (bin/build.mjs: a few
// milliseconds when nothing changed), so that a run after an edit runs the edited code; then
// imports the compiled entry natively. An installed package ships dist/ and never compiles.
// A new command is one line: `await run('src/cli/<entry>.ts');` in a bin/<name>.mjs.
import { pathToFileURL } from 'node:url';
import { build, compiled, isSourceCheckout } from './build.mjs';

/** Runs the compiled form of `source` (a path relative to the project root, e.g. `src/cli/run/main.ts`). */
export async function run(source) {
  // vitest's colours (tinyrainbow) are on even when output goes to a file or a CI log, where
  // they arrive as raw escape codes: colour only a terminal, unless the user asks (FORCE_COLOR).
  // Set before anything imports vitest, whose colour choice is made at import.
  if (!process.stdout.isTTY && !('FORCE_COLOR' in process.env) && !('NO_COLOR' in process.env)) process.env.NO_COLOR = '1';
  if (isSourceCheckout()) {
    try {
      build();
    } catch (error) {
      process.stderr.write(`widget-conformance: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(3);
    }
  }
  await import(pathToFileURL(compiled(source)).href);
}
