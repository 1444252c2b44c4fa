/** `npm run compare` (src/cli/compare/compare.ts): exit 0 written, 1 a regression under --fail-on-regression, 2 usage or bad input. */
import { userDirectory } from '../../paths.ts';
import { compareRuns, compareSummary, COMPARE_USAGE, parseCompareArgs, writeMatrix } from './compare.ts';
import { InputError, printable } from '../shared/read-report.ts';

function main(): number {
  const directory = userDirectory(process.env);
  try {
    const args = parseCompareArgs(process.argv.slice(2));
    if (!args) {
      process.stdout.write(COMPARE_USAGE);
      return 0;
    }
    const { matrix, outDir } = compareRuns(args, directory);
    const files = writeMatrix(matrix, outDir);
    process.stdout.write(`${printable(compareSummary(matrix, files, directory))}\n`);
    if (args.failOnRegression && matrix.regressions.length > 0) {
      process.stderr.write(`widget-compare: ${matrix.regressions.length} regression(s): ${matrix.regressions.map((r) => `${r.rule} (${printable(r.implementation)})`).join(', ')}\n`);
      return 1;
    }
    return 0;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    process.stderr.write(`widget-compare: ${printable(error.message)}\n`);
    return 2;
  }
}

try {
  process.exitCode = main();
} catch (error) {
  process.stderr.write(`widget-compare: internal error: ${printable((error as Error)?.message ?? String(error))}\n`);
  process.exitCode = 3;
}
