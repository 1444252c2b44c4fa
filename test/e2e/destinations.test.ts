/**
 * Where the run writes is checked before the first request: a report directory that cannot be
 * made or written, or a job summary that cannot be appended to, is one line and exit 2 within
 * seconds (never a hang, never a stack trace, never a run whose verdict is then lost).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { explain, runSuite } from '../support/suite-runner.ts';

/** Generous for a loaded 2-core machine; a hang (as on /proc with a recursive mkdir) would be far beyond it. */
const BOUND_S = 20;
const STACK_LINE = /^\s+at .+(:\d+:\d+\)?|\(native\))$/m;

function aFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'wcs-dest-')), 'a-file');
  writeFileSync(file, 'not a directory');
  return file;
}

const CASES: Array<{ what: string; args: () => string[]; env?: () => Record<string, string>; says: string }> = [
  { what: 'a report directory under /proc', args: () => ['--report-dir', '/proc/widget-conformance/x'], says: '--report-dir /proc/widget-conformance/x: cannot create' },
  // A directory that exists but takes no new file, even for root.
  { what: 'a report directory where no file can be written', args: () => ['--report-dir', '/proc/self'], says: 'cannot write a file there' },
  { what: 'a report directory that is a file', args: () => ['--report-dir', aFile()], says: 'exists and is not a directory' },
  { what: 'a report directory inside a file', args: () => ['--report-dir', join(aFile(), 'reports')], says: 'exists and is not a directory' },
  {
    what: 'a job summary in a directory that does not exist',
    args: () => [],
    env: () => ({ GITHUB_STEP_SUMMARY: join(tmpdir(), 'wcs-no-such-dir', 'summary.md') }),
    says: 'GITHUB_STEP_SUMMARY',
  },
];

describe.concurrent('report destinations', () => {
  for (const c of CASES) {
    test(`${c.what} is one line and exit 2 before any request`, async () => {
      const run = await runSuite(c.args(), { ...(c.args().length ? { reportDir: false as const } : {}), ...(c.env ? { env: c.env() } : {}) });
      expect(run.exitCode, explain(run)).toBe(2);
      expect(run.stderr).toContain(c.says);
      expect(run.stderr.trim().split('\n'), 'one line').toHaveLength(1);
      expect(run.stdout, 'no test ran').not.toContain('Run marker');
      expect(`${run.stdout}${run.stderr}`.match(STACK_LINE)?.[0]).toBeUndefined();
      expect(run.seconds).toBeLessThan(BOUND_S);
    });
  }
});
