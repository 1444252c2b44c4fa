/**
 * `npm run serve`: the reference server on its own, for people writing an implementation. What
 * it prints is copied into shells, so the command it suggests keeps the tokens in the
 * environment (never `--token` flags, which other processes and shell history see).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.ts';

test('serve prints a run command that passes the tokens in the environment, and stops on SIGTERM', async () => {
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'bin/widget-serve.mjs'), '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  // Waits on the server's own last line, not on a clock.
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('Press Ctrl+C to stop.')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}) before it was ready:\n${out}`)));
  });
  const run = out.split('\n').find((line) => line.includes('npm test'));
  expect(run, out).toMatch(/^ {2}WIDGET_TOKEN=\S+ WIDGET_SECOND_TOKEN=\S+ npm test -- --base-url http:\/\/127\.0\.0\.1:\d+\/v1$/);
  expect(out, 'no token flag is suggested').not.toMatch(/--(second-)?token\b/);
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  expect((await exited)[0], 'exit code').toBe(0);
  expect(out).toContain('Widget reference server stopped.');
});
