/**
 * What a CI log receives: the run's console output piped to a file carries no terminal escape
 * codes unless the user asks for colour (NO_COLOR and FORCE_COLOR=0 mean none: vitest's colour
 * library would take FORCE_COLOR=0 for colour), and a run against a faulty server prints each
 * failure once, with its evidence, bounded lines, one summary in the suite's words and no
 * test runner's summary.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { LINE_MAX } from '../../src/report/console-report.ts';
import type { RunReport } from '../../src/report/model.ts';
import { RULES } from '../../src/rules.ts';
import { FMT_FAULTS } from '../servers/faults/index.ts';
import { runAgainst } from '../servers/serve.ts';
import { explain } from '../support/suite-runner.ts';

const ESC = '\u001b';

/** The suite run as CI runs it: output piped, no NO_COLOR or FORCE_COLOR of the developer's. */
async function pipedRun(extra: Record<string, string>): Promise<string> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('WIDGET_') && !k.startsWith('npm_') && k !== 'INIT_CWD' && k !== 'NO_COLOR' && k !== 'FORCE_COLOR' && k !== 'GITHUB_STEP_SUMMARY'));
  const cwd = mkdtempSync(join(tmpdir(), 'wcs-console-'));
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [join(PROJECT_ROOT, 'bin/widget-conformance.mjs'), '--only', 'FMT-1', '--report-dir', cwd], { cwd, env: { ...env, CI: 'true', ...extra } });
  return stdout + stderr;
}

describe.concurrent('console output in a CI log', () => {
  test('piped output holds no escape code, nor with FORCE_COLOR=0 or NO_COLOR beside FORCE_COLOR', async () => {
    const [plain, zero, both] = await Promise.all([pipedRun({}), pipedRun({ FORCE_COLOR: '0' }), pipedRun({ NO_COLOR: '1', FORCE_COLOR: '1' })]);
    expect(plain).toContain(`Rules (1 tested of ${RULES.length} in the catalogue)`);
    for (const out of [plain, zero, both]) expect(out.includes(ESC), 'an ESC byte in piped output').toBe(false);
  });

  test('PROP-2 stopped by its --property-budget after some of its runs: passed, cut short, said in the console, Markdown and JUnit, and the verdict is PASSED (partial), never conformant', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wcs-cut-'));
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('WIDGET_') && !k.startsWith('npm_') && k !== 'INIT_CWD' && k !== 'GITHUB_STEP_SUMMARY'));
    const { stdout } = await promisify(execFile)(process.execPath, [join(PROJECT_ROOT, 'bin/widget-conformance.mjs'), '--only', 'PROP-2', '--property-budget', '1500', '--runs', '100000', '--report-dir', dir], { cwd: dir, env: { ...env, NO_COLOR: '1' } });
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as RunReport;
    expect(report.verdict).toBe('partial');
    expect(report.verdictDetail.cutShort.map((c) => c.rule)).toEqual(['PROP-2']);
    // Some runs, never none (a property that completes no run is inconclusive: test/unit/harness/property.test.ts).
    expect(stdout).toMatch(/^Passed, but cut short \(not a full verdict\):\n {2}⏱ PROP-2 +cut short: [1-9]\d* of 1000\d\d runs \(stopped by the --property-budget of 1500 ms\)/m);
    expect(stdout).toMatch(new RegExp(`^Verdict: PASSED \\(partial: 0 of ${RULES.length} rules\\): .*PROP-2 cut short: `, 'm'));
    expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toMatch(/\| ⏱️ \| PROP-2 \(passed, cut short\\: [1-9]\d* of 1000\d\d runs/);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(/<system-out>PROP-2 passed, cut short: [1-9]\d* of 1000\d\d runs/);
  });

  test('FORCE_COLOR brings the colours back', async () => {
    expect((await pipedRun({ FORCE_COLOR: '1' })).includes(ESC)).toBe(true);
  });

  test('FMT-2 errors answered 200 (a dozen rules fail): each failure once, with its evidence and the second attempt in one line; bounded lines; one summary; no test runner output', async () => {
    const fault = FMT_FAULTS.find((f) => f.name === 'error-with-200')!;
    const run = await runAgainst(fault.make(), ['--only', 'FMT,CRUD,DEL,AUTH,MAL']);
    expect(run.exitCode, explain(run)).toBe(1);
    const failed = (run.report?.rules ?? []).filter((r) => r.outcome === 'fail').map((r) => r.id);
    expect(failed.length, explain(run)).toBeGreaterThanOrEqual(8);
    const lines = run.stdout.split('\n');
    for (const id of failed) {
      expect(lines.filter((l) => l.startsWith(`✗ FAIL ${id} `)), id).toHaveLength(1);
      // The first failing test's evidence is shown once: its title, expected and received.
      const title = run.report?.rules.find((r) => r.id === id)?.tests.find((t) => t.outcome === 'fail')?.title ?? '';
      expect(lines.filter((l) => l.includes(title.slice(0, 80))), `${id}: ${title}`).toHaveLength(1);
    }
    // One line per rechecked rule (failed or warned) that did the same again, and no other trace of the second attempt.
    const same = (run.report?.rules ?? []).filter((r) => r.secondAttempt && !r.intermittent && r.secondAttempt.outcome === r.outcome).length;
    expect(same).toBeGreaterThanOrEqual(failed.length);
    expect(lines.filter((l) => l.trim() === 'same on the second attempt (same seed)')).toHaveLength(same);
    expect(run.stdout.match(/^Second attempt \(same seed\) at /gm)).toHaveLength(1);
    expect(run.stdout).toContain('      expected: ');
    expect(run.stdout).toContain('      received: ');
    expect(run.stdout).toContain('curl (the last request; tokens from the environment):');
    expect(lines.filter((l) => l.length > LINE_MAX + 20), 'lines over the bound').toEqual([]);
    expect(lines.filter((l) => l.startsWith('Rules ('))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('Verdict: '))).toEqual([expect.stringMatching(/^Verdict: NOT CONFORMANT: \d+ rules failed: FMT-2, /)]);
    expect(run.stdout).not.toMatch(/Test Files|Tests +\d+ (passed|failed)| RUN +v\d|✓/);
    // Warnings are marked as such.
    for (const r of (run.report?.rules ?? []).filter((x) => x.outcome === 'warn')) expect(run.stdout).toMatch(new RegExp(`! WARN ${r.id} `));
    expect(lines.length, 'a log short enough to read').toBeLessThan(failed.length * 30 + 60);
  });
});
