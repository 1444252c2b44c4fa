/**
 * `npm run verify -- DIR` (src/cli/verify/verify.ts): one line per problem on stdout; exit 0 the
 * bundle is whole and unaltered, 1 a problem, 2 usage (no such directory).
 */
import { resolve } from 'node:path';
import { PROJECT_ROOT, userDirectory } from '../../paths.ts';
import { InputError, printable } from '../shared/read-report.ts';
import { secretsFrom, suiteVersionAt, verifyBundle } from './verify.ts';

const USAGE = `Usage: widget-conformance verify DIR   (in a checkout of the suite: npm run verify -- DIR)

Checks that the report bundle in DIR (a run's --report-dir) is whole and unaltered:
conformance.json valid against its schema and judged by this suite's rule catalogue, every
rule present (a partial run: every rule its --only selected), junit.xml and the other reports
agreeing with it, and no credential in any file. Set WIDGET_TOKEN (and WIDGET_SECOND_TOKEN,
WIDGET_HEADERS), or keep them in .env, to have their values looked for too.

Exit codes: 0 whole and unaltered; 1 one line per problem; 2 usage error.
`;

function main(): number {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  const unknown = args.find((a) => a.startsWith('-'));
  if (args.length !== 1 || unknown !== undefined) {
    process.stderr.write(`widget-verify: ${unknown !== undefined ? `unknown option ${printable(unknown.split('=')[0]!)}` : 'give exactly one report directory'} (see --help)\n`);
    return 2;
  }
  const directory = userDirectory(process.env);
  const shown = args[0]!;
  try {
    const { problems, notes } = verifyBundle(resolve(directory, shown), shown, suiteVersionAt(PROJECT_ROOT), secretsFrom(process.env, directory));
    for (const note of notes) process.stdout.write(`note: ${printable(note)}\n`);
    for (const problem of problems) process.stdout.write(`problem: ${printable(problem)}\n`);
    process.stdout.write(problems.length === 0 ? `${printable(shown)}: whole and unaltered\n` : `${printable(shown)}: ${problems.length} problem(s)\n`);
    return problems.length === 0 ? 0 : 1;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    process.stderr.write(`widget-verify: ${printable(error.message)}\n`);
    return 2;
  }
}

try {
  process.exitCode = main();
} catch (error) {
  process.stderr.write(`widget-verify: internal error: ${printable((error as Error)?.message ?? String(error))}\n`);
  process.exitCode = 3;
}
