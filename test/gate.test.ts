/**
 * The CI gate: --baseline (known failures do not fail the run, new ones do, fixed ones are
 * reported), --fail-on, the Markdown summary appended to GITHUB_STEP_SUMMARY, and reports
 * free of tokens in every format.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CRUD_FAULTS } from './servers/faults/index.ts';
import { runAgainst } from './servers/serve.ts';
import { TOKENS } from './servers/support.ts';
import { explain, outcomesOf } from './support/suite-runner.ts';

const fault = (name: string) => CRUD_FAULTS.find((f) => f.name === name)!;
/** A faulty server that breaks CRUD-4 (MUST) only. */
const BREAKS_CRUD_4 = fault('retrieve-drops-description');
/** A faulty server that breaks CRUD-6 (SHOULD) only. */
const BREAKS_CRUD_6 = fault('create-answers-200');
const ONLY = ['--only', 'CRUD,AUTH-1'];

function baselineFile(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'wcs-baseline-')), 'known-failures.txt');
  writeFileSync(file, text);
  return file;
}

describe.concurrent('the gate', () => {
  test('a failure listed in the baseline passes the gate (exit 0) but the verdict stays not conformant, in every format', async () => {
    const run = await runAgainst(BREAKS_CRUD_4.make(), [...ONLY, '--baseline', baselineFile('# known\nCRUD-4\n')]);
    expect(run.exitCode, explain(run)).toBe(0);
    expect(run.report?.baseline?.expectedFailures).toEqual(['CRUD-4']);
    expect(run.report?.rules.find((r) => r.id === 'CRUD-4')).toMatchObject({ outcome: 'fail', baselined: true });
    expect(run.stdout).toContain('Expected failures (in the baseline, not failing the run): CRUD-4');
    // The gate passed; conformance did not.
    expect(run.report?.verdict).toBe('not-conformant');
    expect(run.report?.gate).toEqual({ passed: true, knownFailures: 1 });
    expect(run.stdout).toContain('Verdict: NOT CONFORMANT (gate passed: 1 known failure in the baseline)');
    expect(run.stdout).not.toMatch(/Verdict: CONFORMANT/);
    const markdown = readFileSync(join(run.reportDir, 'conformance.md'), 'utf8');
    expect(markdown).toContain('## Widget Service conformance: ❌ Not conformant (gate passed: 1 known failure in the baseline)');
    const html = readFileSync(join(run.reportDir, 'conformance.html'), 'utf8');
    expect(html).toContain('<h1>Not conformant (gate passed: 1 known failure in the baseline)</h1>');
    expect(html).toMatch(/<title>Widget Service conformance: Not conformant/);
  });

  test('a failure not in the baseline fails the run; a baseline rule that passes is reported for removal', async () => {
    const run = await runAgainst(BREAKS_CRUD_4.make(), [...ONLY, '--baseline', baselineFile('AUTH-1\n')]);
    expect(run.exitCode, explain(run)).toBe(1);
    expect(run.report?.baseline?.nowPassing).toEqual(['AUTH-1']);
    expect(run.stdout).toContain('Baseline rules that now pass');
  });

  test('--fail-on should turns a SHOULD violation into a failure; --fail-on must keeps it a warning', async () => {
    const [strict, lenient] = await Promise.all([
      runAgainst(BREAKS_CRUD_6.make(), [...ONLY, '--fail-on', 'should']),
      runAgainst(BREAKS_CRUD_6.make(), [...ONLY, '--fail-on', 'must']),
    ]);
    expect(strict.exitCode, explain(strict)).toBe(1);
    expect(outcomesOf(strict.report)['CRUD-6']).toBe('fail');
    expect(lenient.exitCode, explain(lenient)).toBe(0);
    expect(outcomesOf(lenient.report)['CRUD-6']).toBe('warn');
  });

  test('an unreadable baseline or an unknown rule id in it is a one-line configuration error (exit 2)', async () => {
    const [missing, unknown] = await Promise.all([
      runAgainst(BREAKS_CRUD_4.make(), ['--baseline', '/nonexistent/known.txt']),
      runAgainst(BREAKS_CRUD_4.make(), ['--baseline', baselineFile('CRUD-4\nCRUD-99\n')]),
    ]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr.trim().split('\n')).toEqual(['widget-conformance: --baseline: cannot read /nonexistent/known.txt (ENOENT)']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('"CRUD-99", which is no rule id');
  });

  test('the Markdown summary is appended to GITHUB_STEP_SUMMARY, and no report in any format holds a token', async () => {
    const summary = join(mkdtempSync(join(tmpdir(), 'wcs-summary-')), 'summary.md');
    writeFileSync(summary, '# earlier step\n');
    const run = await runAgainst(BREAKS_CRUD_4.make(), ONLY, { env: { GITHUB_STEP_SUMMARY: summary } });
    expect(run.exitCode, explain(run)).toBe(1);
    const appended = readFileSync(summary, 'utf8');
    expect(appended).toMatch(/^# earlier step\n## Widget Service conformance: ❌ Not conformant/);
    expect(appended).toContain('CRUD-4');
    const files = readdirSync(run.reportDir).sort();
    expect(files).toEqual(['badge.svg', 'conformance.html', 'conformance.json', 'conformance.md', 'exchanges.har', 'junit.xml']);
    for (const text of [run.stdout, run.stderr, appended, ...files.map((f) => readFileSync(join(run.reportDir, f), 'utf8'))]) {
      for (const token of TOKENS) expect(text.includes(token), 'a token in the output').toBe(false);
    }
  });
});
