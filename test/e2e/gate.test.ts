/**
 * The CI gate: --baseline (known failures do not fail the run, new ones do, fixed ones are
 * reported), --fail-on, the Markdown summary appended to GITHUB_STEP_SUMMARY, and reports
 * free of tokens in every format.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startReferenceServer, startServer } from '../../src/reference/server.ts';
import { readBaseline } from '../../src/cli/run/baseline.ts';
import { RULES, secondAccountRules } from '../../src/rules.ts';
import { CRUD_FAULTS } from '../servers/faults/index.ts';
import { runAgainst } from '../servers/serve.ts';
import { TOKENS } from '../servers/support.ts';
import { explain, outcomesOf, reportTexts, runSuite } from '../support/suite-runner.ts';

const fault = (name: string) => CRUD_FAULTS.find((f) => f.name === name)!;
/** A faulty server that breaks CRUD-4 (MUST) only. */
const BREAKS_CRUD_4 = fault('retrieve-drops-description');
/** A faulty server that breaks CRUD-6 (SHOULD) only. */
const BREAKS_CRUD_6 = fault('create-answers-200');
const ONLY = ['--only', 'CRUD,AUTH-1'];
/** A retrieve that changes the name's case (issue 20): CRUD-4 fails, checks that retrieve depend on it. */
const CASE_CHANGING = CRUD_FAULTS.find((f) => f.name === 'retrieve-changes-name-case')!;

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
    expect(run.stdout).toContain('Known failures (in the baseline, not failing the run): CRUD-4');
    // A known failure is marked as such in the CI log, never as a FAIL, and no test runner prints its own summary above exit 0.
    expect(run.stdout).toMatch(/~ KNOWN CRUD-4 +MUST /);
    expect(run.stdout).not.toMatch(/FAIL|Test Files/);
    // The gate passed; conformance did not.
    expect(run.report?.verdict).toBe('not-conformant');
    expect(run.report?.gate).toEqual({ passed: true, knownFailures: 1 });
    expect(run.stdout).toContain('Verdict: NOT CONFORMANT (gate passed: 1 known failure in the baseline)');
    expect(run.stdout).not.toMatch(/Verdict: CONFORMANT/);
    const markdown = readFileSync(join(run.reportDir, 'conformance.md'), 'utf8');
    expect(markdown).toContain('## Widget Service conformance: ❌ NOT CONFORMANT (gate passed: 1 known failure in the baseline)');
    const html = readFileSync(join(run.reportDir, 'conformance.html'), 'utf8');
    expect(html).toContain('<h1>NOT CONFORMANT (gate passed: 1 known failure in the baseline)</h1>');
    expect(html).toMatch(/<title>Widget Service conformance: NOT CONFORMANT/);
  });

  test('a failure not in the baseline fails the run; a baseline rule that passes is reported for removal; --write-baseline writes the failed rules as --baseline reads them', async () => {
    const written = join(mkdtempSync(join(tmpdir(), 'wcs-write-baseline-')), 'next.txt');
    const run = await runAgainst(BREAKS_CRUD_4.make(), [...ONLY, '--baseline', baselineFile('AUTH-1\n'), '--write-baseline', written]);
    expect(run.exitCode, explain(run)).toBe(1);
    expect(run.report?.baseline?.nowPassing).toEqual(['AUTH-1']);
    expect(run.stdout).toContain('Baseline rules that now pass');
    // The failed rules, and nothing that passed: AUTH-1 leaves the baseline.
    expect([...readBaseline(written)]).toEqual(['CRUD-4']);
    expect(readFileSync(written, 'utf8')).toMatch(/^# CRUD-4 \(MUST\) .+\n#   first failing test: CRUD-4 .+\nCRUD-4$/m);
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
    const [missing, unknown, directory] = await Promise.all([
      runAgainst(BREAKS_CRUD_4.make(), ['--baseline', '/nonexistent/known.txt']),
      runAgainst(BREAKS_CRUD_4.make(), ['--baseline', baselineFile('CRUD-4\nCRUD-99\n')]),
      runAgainst(BREAKS_CRUD_4.make(), ['--write-baseline', tmpdir()]),
    ]);
    expect(directory.exitCode).toBe(2);
    expect(directory.stderr.trim().split('\n')).toEqual([`widget-conformance: --write-baseline: ${tmpdir()} is a directory; give the path of a regular file (it is overwritten) or of a new one`]);
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
    expect(appended).toMatch(/^# earlier step\n## Widget Service conformance: ❌ NOT CONFORMANT\n/);
    expect(appended).toContain('CRUD-4');
    const files = reportTexts(run.reportDir);
    expect(files.map(([name]) => name).filter((name) => !name.startsWith('replay/'))).toEqual(['badge.svg', 'conformance.html', 'conformance.json', 'conformance.md', 'exchanges.har', 'junit.xml']);
    expect(files.map(([name]) => name), 'a replay file per failing test').toContain('replay/CRUD-4-1.json');
    for (const text of [run.stdout, run.stderr, appended, ...files.map(([, text]) => text)]) {
      for (const token of TOKENS) expect(text.includes(token), 'a token in the output').toBe(false);
    }
  });

  test('the rules that need a second account: with no second token the run stops with one line naming them, and exit 2 before any request', async () => {
    const reference = await startReferenceServer();
    let requests = 0;
    const counting = await startServer({
      handle: (_req: IncomingMessage, res: ServerResponse) => {
        requests += 1;
        res.writeHead(500).end();
      },
    });
    try {
      const run = await runSuite(['--base-url', counting.baseUrl, '--token', reference.tokens[0]]);
      expect(run.exitCode, explain(run)).toBe(2);
      const lines = run.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      // Each of them named, with its level as the catalogue gives it.
      expect(lines[0]).toMatch(/^widget-conformance: no second token: .* need a second account; .*--without-second-token/);
      for (const id of secondAccountRules()) expect(lines[0]).toMatch(new RegExp(`[ ,]${id}[ ,]`));
      expect(requests).toBe(0);
      expect(run.report).toBeUndefined();
    } finally {
      await counting.close();
      await reference.close();
    }
  });

  test('the rules that need a second account: --without-second-token runs the rest, and every format says PASSED (partial), naming them, never conformant', async () => {
    const server = await startReferenceServer();
    try {
      // CRUD-1 and every rule that needs a second account: one rule runs, the others cannot.
      const run = await runSuite(['--base-url', server.baseUrl, '--token', server.tokens[0], '--without-second-token', '--only', ['CRUD-1', ...secondAccountRules()].join(',')]);
      expect(run.exitCode, explain(run)).toBe(0);
      expect(run.report?.verdict).toBe('partial');
      expect(run.report?.partial).toBe(true);
      const notRun = secondAccountRules();
      expect(run.report?.notRun).toEqual(notRun);
      const word = `PASSED (partial: 1 of ${RULES.length} rules)`;
      expect(run.report?.verdictDetail.word).toBe(word);
      const verdictLine = run.stdout.split('\n').find((l) => l.startsWith('Verdict: ')) ?? '';
      expect(verdictLine).toContain(`Verdict: ${word}: every rule run passed, but not every rule ran in full: `);
      expect(verdictLine).toContain(`${notRun.join(', ')} not run: no second account (--without-second-token)`);
      expect(run.stdout).not.toMatch(/CONFORMANT/);
      const badge = readFileSync(join(run.reportDir, 'badge.svg'), 'utf8');
      expect(badge).toContain(`>${word}<`);
      expect(badge).not.toMatch(/>(conformant|CONFORMANT)</);
      const markdown = readFileSync(join(run.reportDir, 'conformance.md'), 'utf8');
      expect(markdown).toContain(`## Widget Service conformance: ⚠️ ${word}\n`);
      expect(markdown).toContain(`- ${notRun.join(', ')} not run\\: no second account (--without-second-token)`);
      expect(readFileSync(join(run.reportDir, 'conformance.html'), 'utf8')).toContain(`<h1>${word}</h1>`);
      expect(readFileSync(join(run.reportDir, 'junit.xml'), 'utf8')).toContain(`<property name="verdict" value="${word}"/>`);
    } finally {
      await server.close();
    }
  });

  test('CRUD-4 (a retrieve that changes the name\'s case) in the baseline: the next run passes the gate (exit 0), its dependents explained by it, and junit.xml has no <failure>', async () => {
    const first = await runAgainst(CASE_CHANGING.make(), ONLY);
    const failed = (first.report?.rules ?? []).filter((r) => r.outcome === 'fail').map((r) => r.id);
    expect(failed, explain(first)).toContain('CRUD-4');
    const next = await runAgainst(CASE_CHANGING.make(), [...ONLY, '--baseline', baselineFile(failed.join('\n'))]);
    expect(next.exitCode, explain(next)).toBe(0);
    expect(next.report?.verdict).toBe('not-conformant');
    const junit = readFileSync(join(next.reportDir, 'junit.xml'), 'utf8');
    expect(junit).not.toContain('<failure');
    expect(junit).toContain('<skipped message="known failure (baseline): CRUD-4');
  });
});
