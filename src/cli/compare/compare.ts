/**
 * `npm run compare -- A/conformance.json B/conformance.json … --out DIR`: reads the runs (each
 * a conformance.json or a report directory), writes DIR/matrix.html and DIR/matrix.md, prints
 * a summary, and with --fail-on-regression exits 1 when the last run of an implementation fails
 * a rule an earlier run of it passed. Exit 2: usage, or an input that is not a report.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { writeAtomically } from '../run/write-reports.ts';
import { buildMatrix, type Matrix, type MatrixInput } from '../../report/matrix.ts';
import { renderMatrixHtml } from '../../report/matrix-html.ts';
import { renderMatrixMarkdown } from '../../report/matrix-md.ts';
import { didYouMean } from '../../config.ts';
import { displayPath } from '../../paths.ts';
import { InputError, readReport, reportPath } from '../shared/read-report.ts';

const COMPARE_FLAGS = ['--out', '--fail-on-regression', '--help'];

export const COMPARE_USAGE = `Usage: widget-conformance compare RUN RUN … --out DIR [--fail-on-regression]
       (in a checkout of the suite: npm run compare -- RUN RUN … --out DIR)

Lines up runs of the suite rule by rule. Each RUN is a conformance.json or the report
directory that holds it. Writes DIR/matrix.html and DIR/matrix.md: rules as rows by spec
section, one column per run, each cell linked to the rule's evidence in that run's report.
Runs of one implementation (same --implementation name, or same base URL) are compared in
the order given: regressions, newly passing rules and other changes are marked.

  --out DIR              where matrix.html and matrix.md are written (required)
  --fail-on-regression   exit 1 when the last run of an implementation fails a rule an
                         earlier run of it passed
  -h, --help             print this help

Exit codes: 0 written; 1 a regression, with --fail-on-regression; 2 usage error, or an
input that is missing, not JSON or not a conformance report.
`;

export interface CompareArgs {
  readonly inputs: readonly string[];
  readonly out: string;
  readonly failOnRegression: boolean;
}

/** The command line, or InputError with the one thing wrong; undefined for --help. */
export function parseCompareArgs(argv: readonly string[]): CompareArgs | undefined {
  const inputs: string[] = [];
  let out: string | undefined;
  let failOnRegression = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') return undefined;
    if (arg === '--fail-on-regression') failOnRegression = true;
    else if (arg === '--out' || arg.startsWith('--out=')) {
      if (out !== undefined) throw new InputError('--out was given more than once');
      out = arg === '--out' ? argv[(i += 1)] : arg.slice('--out='.length);
      if (out === undefined || out === '') throw new InputError('--out needs a directory: --out DIR');
    } else if (arg.startsWith('-') && arg !== '-') throw new InputError(`unknown option ${arg.split('=')[0]}${didYouMean(arg, COMPARE_FLAGS)} (see --help)`);
    else inputs.push(arg);
  }
  if (inputs.length === 0) throw new InputError('no runs to compare: name one or more conformance.json files or report directories (see --help)');
  if (out === undefined) throw new InputError('--out DIR is required: the directory matrix.html and matrix.md are written to');
  return { inputs, out, failOnRegression };
}

/** A relative link from the matrix's directory to a file: each path segment percent-encoded. */
export function linkTo(file: string, fromDir: string): string {
  return relative(fromDir, file).split(sep).map(encodeURIComponent).join('/');
}

/** Reads every input (InputError on the first that is not a report) and builds the matrix. */
export function compareRuns(args: CompareArgs, directory: string): { matrix: Matrix; outDir: string } {
  const outDir = resolve(directory, args.out);
  const inputs: MatrixInput[] = args.inputs.map((given) => {
    const path = resolve(directory, given);
    const report = readReport(path, given);
    const html = join(dirname(reportPath(path)), 'conformance.html');
    return { report, source: given, ...(existsSync(html) ? { reportHref: linkTo(html, outDir) } : {}) };
  });
  return { matrix: buildMatrix(inputs), outDir };
}

/** Writes matrix.html and matrix.md into `outDir`, each through a temporary file and a rename. */
export function writeMatrix(matrix: Matrix, outDir: string): string[] {
  try {
    mkdirSync(outDir, { recursive: true });
  } catch (error) {
    throw new InputError(`--out ${outDir}: cannot create it (${(error as { code?: string }).code ?? String(error)})`);
  }
  const files: Array<[string, string]> = [
    [join(outDir, 'matrix.html'), renderMatrixHtml(matrix)],
    [join(outDir, 'matrix.md'), renderMatrixMarkdown(matrix)],
  ];
  for (const [file, text] of files) {
    try {
      // As the run's reports: through a temporary file and a rename, never through a symlink.
      // Nothing is rewritten: the reports it reads hold no credential (their schema is checked).
      writeAtomically(outDir, file, text);
    } catch (error) {
      throw new InputError(`cannot write ${file} (${(error as { code?: string }).code ?? String(error)})`);
    }
  }
  return files.map(([file]) => file);
}

/** The console summary: a line per run, the changes, the files written. */
export function compareSummary(matrix: Matrix, files: readonly string[], directory: string): string {
  const lines = matrix.columns.map((c) => `${c.label}: ${c.verdictWord}; ${Object.entries(c.counts).map(([o, n]) => `${n} ${o}`).join(', ')}`);
  for (const note of matrix.notes) lines.push(`note: ${note}`);
  const label = (i: number) => matrix.columns[i]!.label;
  for (const c of matrix.changes) lines.push(`${c.kind === 'fixed' ? 'newly passing' : c.kind}: ${c.rule} ${c.from} in ${label(c.previous)} -> ${c.to} in ${label(c.column)}`);
  lines.push(`Matrix: ${files.map((f) => displayPath(f, directory)).join(', ')}`);
  return lines.join('\n');
}
