/**
 * `npm run test:self` on a machine without Chromium: the preflight says so in its first moments,
 * with the install command, and stops the run, instead of the HTML report's test failing after
 * five minutes of other tests.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.ts';

const MISSING = '/nonexistent/widget-self-test/chromium';
const INSTALL = 'apt-get install -y chromium';

interface Finished {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** Runs `command` in the project with CHROMIUM_PATH set; the whole process group is killed after `limitMs`. */
function run(command: string, args: readonly string[], chromium: string, limitMs: number): Promise<Finished> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_') && k !== 'INIT_CWD'));
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: PROJECT_ROOT, env: { ...env, CHROMIUM_PATH: chromium, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const limit = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), limitMs);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (exitCode) => {
      clearTimeout(limit);
      resolve({ exitCode, stdout, stderr, ms: performance.now() - started });
    });
  });
}

const PREFLIGHT = join(PROJECT_ROOT, 'test/support/preflight.mjs');

describe.concurrent('the self-tests preflight', () => {
  test('without Chromium it names the install command and exits non-zero at once', async () => {
    const done = await run(process.execPath, [PREFLIGHT], MISSING, 10_000);
    expect(done.exitCode).toBe(1);
    expect(done.stderr.trim().split('\n')).toHaveLength(1);
    expect(done.stderr).toContain(`Chromium is not installed at ${MISSING}`);
    expect(done.stderr).toContain(INSTALL);
    // The first second, with room for a loaded machine's slow Node start.
    expect(done.ms).toBeLessThan(2_000);
  });

  test('with a Chromium binary in place it passes silently', async () => {
    // Any executable file stands in for the browser: the preflight only checks that it is there.
    const done = await run(process.execPath, [PREFLIGHT], process.execPath, 10_000);
    expect(done).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
  });

  test('npm run test:self stops there, before the typecheck, with the install command', async () => {
    const done = await run('npm', ['run', 'test:self'], MISSING, 30_000);
    expect(done.exitCode, `${done.stdout}\n${done.stderr}`).toBe(1);
    expect(done.stderr).toContain(INSTALL);
    expect(done.stdout).not.toContain('> tsc --noEmit');
  });
});
