/**
 * History that survives (issue 36): the reports of the last complete run stay until a new run has
 * been accepted by the target. A run that stops with exit 2 before its first test (a mistyped
 * token, a mistyped flag) leaves every report file of the earlier failing run as it was (its
 * replay files too), and `--last-failed` afterwards still selects that run's failures and says in
 * one line which run it read and what it selected.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPORT_FILES } from '../../src/cli/run/write-reports.ts';
import { startServer } from '../../src/reference/server.ts';
import { CRUD_FAULTS } from '../servers/faults/crud.ts';
import { explain, runSuite } from '../support/suite-runner.ts';

const fault = CRUD_FAULTS.find((f) => f.name === 'retrieve-drops-description')!;

/** Every file of the report directory with its bytes, those of its folders (replay/) by their relative path. */
function snapshot(dir: string, under = ''): Record<string, string> {
  return Object.fromEntries(readdirSync(join(dir, under), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name)).flatMap((entry) => {
    const name = under ? `${under}/${entry.name}` : entry.name;
    return entry.isDirectory() ? Object.entries(snapshot(dir, name)) : [[name, readFileSync(join(dir, name), 'latin1')]];
  }));
}

describe('history that survives a run that stops before its first test', { timeout: 180_000 }, () => {
  test('a failing run, then a run with a refused token (exit 2) and one with a mistyped flag (exit 2): the reports stay byte for byte, and --last-failed still selects the earlier failures, saying from which run', async () => {
    const served = fault.make();
    const running = await startServer(served.handler);
    try {
      const dir = mkdtempSync(join(tmpdir(), 'wcs-history-'));
      const env = { WIDGET_TOKEN: served.tokens[0], WIDGET_SECOND_TOKEN: served.tokens[1] };
      const first = await runSuite(['--base-url', running.baseUrl, '--only', 'CRUD', '--seed', '11', '--report-dir', dir], { env, reportDir: dir, cwd: dir });
      expect(first.exitCode, explain(first)).toBe(1);
      const failing = first.report!.rules.flatMap((r) => r.tests.filter((t) => t.outcome === 'fail' || t.outcome === 'warn').map((t) => t.seenBy ?? t.title));
      expect(failing.length, explain(first)).toBeGreaterThan(0);
      const before = snapshot(dir);
      expect(Object.keys(before)).toEqual(expect.arrayContaining(REPORT_FILES.map(([name]) => name)));
      // The failing tests' replay files are the earlier run's too: they stay with its reports.
      expect(Object.keys(before).filter((name) => name.startsWith('replay/')).length, explain(first)).toBeGreaterThan(0);

      // A mistyped token: the target refuses it at the first request, before any test.
      const typo = await runSuite(['--base-url', running.baseUrl, '--only', 'CRUD', '--report-dir', dir], { env: { ...env, WIDGET_TOKEN: `${served.tokens[0]}x` }, reportDir: dir, cwd: dir });
      expect(typo.exitCode, typo.stderr).toBe(2);
      expect(typo.stderr).toMatch(/refused|rejected|401|403/i);
      expect(snapshot(dir), 'every file of the earlier run as it was, and nothing added').toEqual(before);

      // A mistyped flag: refused before anything is sent.
      const flag = await runSuite(['--base-url', running.baseUrl, '--onyl', 'CRUD', '--report-dir', dir], { env, reportDir: dir, cwd: dir });
      expect(flag.exitCode, flag.stderr).toBe(2);
      expect(snapshot(dir)).toEqual(before);

      const last = await runSuite(['--base-url', running.baseUrl, '--last-failed', '--report-dir', dir], { env, reportDir: dir, cwd: dir });
      expect(last.exitCode, explain(last)).toBe(1);
      expect(last.report?.selection?.lastFailed).toBe(true);
      expect(last.report!.rules.flatMap((r) => r.tests.map((t) => t.title)).sort()).toEqual([...new Set(failing)].sort());
      // One line names the run it read (its start, target, seed and verdict) and the tests.
      const said = last.stdout.split('\n').filter((l) => l.startsWith('--last-failed:'));
      expect(said, last.stdout).toHaveLength(1);
      expect(said[0]).toContain(`in the run of ${first.report!.startedAt} against ${running.baseUrl} (seed 11, ${first.report!.verdictDetail.headline}; `);
      for (const title of new Set(failing)) expect(said[0]).toContain(JSON.stringify(title));
      // The --last-failed run completed, so its reports replaced the first run's.
      expect(existsSync(join(dir, 'conformance.json'))).toBe(true);
      expect(last.report!.startedAt).not.toBe(first.report!.startedAt);
    } finally {
      await running.close();
    }
  });
});
