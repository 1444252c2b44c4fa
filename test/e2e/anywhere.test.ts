/**
 * The suite run from another directory, as `npm --prefix path/to/suite test -- …` does: npm
 * starts the script in the suite's folder and says where the user was in INIT_CWD. The user's
 * .env, baseline and report directory are theirs, and the paths printed open from there.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/server.ts';
import { explain, runSuite, type SuiteRun } from '../support/suite-runner.ts';

let server: RunningReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(async () => server.close());

/** A user's directory holding a .env that names the loopback server, and a baseline file. */
function userDirectory(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wcs-user-'));
  writeFileSync(join(dir, '.env'), `WIDGET_BASE_URL=${server.baseUrl}\nWIDGET_TOKEN=${server.tokens[0]}\n`);
  // AUTH-1 passes against the reference server, so the run lists it for removal: proof the file was read.
  writeFileSync(join(dir, 'known.txt'), 'AUTH-1\n');
  return dir;
}

const ARGS = ['--only', 'FMT-1,AUTH-1', '--baseline', 'known.txt', '--report-dir', 'out/reports'];

/** The paths on the summary's "Reports:" line. */
function printedReports(run: SuiteRun): string[] {
  const line = run.stdout.split('\n').find((l) => l.startsWith('Reports: '));
  return line === undefined ? [] : line.slice('Reports: '.length).split(', ');
}

/** The user's .env was read, their baseline found, and the reports written and printed for them. */
function expectRunForUser(run: SuiteRun, user: string): void {
  expect(run.exitCode, explain(run)).toBe(0);
  expect(run.report?.baseUrl, 'the target of the user\'s .env was tested').toBe(server.baseUrl);
  expect(run.report?.baseline).toMatchObject({ file: 'known.txt', nowPassing: ['AUTH-1'] });
  expect(run.stdout).toContain(`Settings file: ${join(user, '.env')}`);
  const printed = printedReports(run);
  expect(printed.map((p) => p.split('/').pop()).sort()).toEqual(['badge.svg', 'conformance.html', 'conformance.json', 'conformance.md', 'exchanges.har', 'junit.xml']);
  for (const path of printed) {
    expect(isAbsolute(path), path).toBe(false);
    expect(existsSync(join(user, path)), `${path} opens from the user's directory`).toBe(true);
  }
}

describe.concurrent('run from the directory the user is in', () => {
  test('under npm --prefix, the .env, the baseline and the report directory are the user\'s, and the printed report paths open from there', async () => {
    const user = userDirectory();
    const run = await runSuite(ARGS, {
      cwd: PROJECT_ROOT,
      reportDir: join(user, 'out/reports'),
      // What npm sets for a script of the suite's package started from the user's directory.
      env: { INIT_CWD: user, npm_lifecycle_event: 'test', npm_package_json: join(PROJECT_ROOT, 'package.json') },
    });
    expectRunForUser(run, user);
    expect(existsSync(join(PROJECT_ROOT, 'out')), 'nothing written in the suite\'s folder').toBe(false);
  });

  test('run by hand, the directory is the current one', async () => {
    const user = userDirectory();
    const run = await runSuite(ARGS, { cwd: user, reportDir: join(user, 'out/reports') });
    expectRunForUser(run, user);
  });

  test('without a .env the summary says none was found, and where it was looked for', async () => {
    const user = mkdtempSync(join(tmpdir(), 'wcs-user-'));
    const run = await runSuite(['--only', 'FMT-1'], { cwd: user });
    expect(run.exitCode, explain(run)).toBe(0);
    expect(run.stdout).toContain(`Settings file: none (no .env in ${user})`);
  });
});
