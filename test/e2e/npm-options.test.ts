/**
 * `npm test --base-url …` without `--`: npm keeps the suite's flags as its own settings. The
 * suite says so in one line naming the right command and exits 2, before it starts any server
 * or sends any request, and never shows a token.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { runSuite } from '../support/suite-runner.ts';

const SECRET = 'tok-never-shown-4711';
const URL_ = 'http://127.0.0.1:9/v1';
const RIGHT_COMMAND = 'npm test -- --base-url …';

/** Runs real npm in a fresh directory of the user's, with no npm or WIDGET_ variables inherited. */
function npm(args: readonly string[]): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('WIDGET_') && !k.startsWith('npm_') && k !== 'INIT_CWD'));
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd: mkdtempSync(join(tmpdir(), 'wcs-user-')), env: { ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ exitCode, stdout, stderr }));
  });
}

describe.concurrent('suite flags given to npm before --', () => {
  test('as npm 11 hands them over (a variable, the value as a bare argument): one line with the right command, exit 2, no run', async () => {
    const run = await runSuite([URL_], { env: { npm_lifecycle_event: 'test', npm_config_base_url: 'true', npm_config_token_description: SECRET } });
    expect(run.exitCode).toBe(2);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^widget-conformance: npm took --base-url and --token as its own settings/);
    expect(lines[0]).toContain(RIGHT_COMMAND);
    expect(run.stdout, 'nothing was run, the embedded server least of all').toBe('');
    expect(run.report).toBeUndefined();
    expect(run.stderr + run.stdout).not.toContain(SECRET);
  });

  test('through real npm: npm --prefix <suite> test --base-url … --token … ends with that line and exit 2, the token nowhere', async () => {
    const run = await npm(['--prefix', PROJECT_ROOT, 'test', '--base-url', URL_, '--token', SECRET]);
    expect(run.exitCode, run.stderr).toBe(2);
    const ours = run.stderr.split('\n').filter((l) => l.startsWith('widget-conformance:'));
    expect(ours).toHaveLength(1);
    expect(ours[0]).toContain(RIGHT_COMMAND);
    expect(run.stdout).not.toContain('embedded reference server');
    expect(run.stderr + run.stdout).not.toContain(SECRET);
  });
});
