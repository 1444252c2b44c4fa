/**
 * The command-line edges a new user meets first: a mistyped flag of compare gets a suggestion,
 * verify given compare's output (or any folder without a run's reports) says what it wants in
 * one line, and --help lists every subcommand the bin dispatches.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCompareArgs } from '../../../src/cli/compare/compare.ts';
import { InputError } from '../../../src/cli/shared/read-report.ts';
import { verifyBundle } from '../../../src/cli/verify/verify.ts';
import { didYouMean, helpText, SUBCOMMANDS } from '../../../src/config.ts';
import { PROJECT_ROOT } from '../../../src/paths.ts';
import { writeReports } from '../../../src/cli/run/write-reports.ts';
import { Redactor } from '../../../src/shared/redact.ts';
import { outcomesOf, reportOf, testOf } from '../support/report.ts';

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe('compare: a mistyped flag', () => {
  it('names the closest flag', () => {
    const error = thrown(() => parseCompareArgs(['a.json', '--fail-on-regresion', '--out', 'm']));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe('unknown option --fail-on-regresion; did you mean --fail-on-regression? (see --help)');
  });

  it('suggests nothing when no flag is close', () => {
    expect(thrown(() => parseCompareArgs(['a.json', '--zzzzzz'])).message).toBe('unknown option --zzzzzz (see --help)');
  });

  it('didYouMean takes a unique prefix as an abbreviation and ignores a value after =', () => {
    expect(didYouMean('--fail=1', ['--out', '--fail-on-regression'])).toBe('; did you mean --fail-on-regression?');
  });
});

describe('verify: a folder that is not a run\'s report directory', () => {
  it('compare\'s output folder is named as such, in one line (exit 2 by InputError)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wcs-matrix-'));
    writeFileSync(join(dir, 'matrix.html'), '<!doctype html>');
    writeFileSync(join(dir, 'matrix.md'), '# matrix');
    const error = thrown(() => verifyBundle(dir, 'matrix', '0.0.0', []));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe("matrix is the output of compare (matrix.html, matrix.md), not a run's reports: give verify the --report-dir of a run, the folder that holds conformance.json");
  });

  it('a bundle of a run narrowed by --test alone is whole: its verdict computed again says the same, and no --only list is asked for', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wcs-narrowed-'));
    const report = reportOf(outcomesOf([testOf('ISO-2', 'pass'), testOf('CRUD-1', 'pass')]), { exitCode: 0, selection: { test: ['retrieve'] }, config: { testName: 'retrieve' } });
    expect((await writeReports(dir, report, new Redactor([]))).problems).toEqual([]);
    const { problems, notes } = verifyBundle(dir, 'narrowed', report.suiteVersion, []);
    expect(problems).toEqual([]);
    expect(notes.join('\n')).toContain('partial run (tests selected by name): 2 of');
  });

  it('an empty folder is said to hold none of a run\'s reports', () => {
    const error = thrown(() => verifyBundle(mkdtempSync(join(tmpdir(), 'wcs-empty-')), 'empty', '0.0.0', []));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toMatch(/^empty holds none of a run's reports/);
  });
});

describe('--help and the bin agree on the subcommands', () => {
  it('every subcommand the bin dispatches is listed in --help, and no other', () => {
    const bin = readFileSync(join(PROJECT_ROOT, 'bin/widget-conformance.mjs'), 'utf8');
    const dispatched = [...bin.matchAll(/(\w+): 'src\/[\w\/-]+\.ts'/g)].map((m) => m[1]);
    expect(SUBCOMMANDS.map((s) => s.name)).toEqual(dispatched);
    for (const { name } of SUBCOMMANDS) expect(helpText()).toContain(`widget-conformance ${name} `);
  });
});
