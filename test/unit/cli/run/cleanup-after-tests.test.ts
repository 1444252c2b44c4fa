/** The runner's cleanup after the tests: its time budget and the tokens it sends (src/cli/run/cleanup-after-tests.ts). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { cleanupBudgetMs, withRenewedTokens } from '../../../../src/cli/run/cleanup-after-tests.ts';
import { recordToken } from '../../../../src/harness/worker-to-runner.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function statsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cleanup-after-tests-'));
  dirs.push(dir);
  return dir;
}

describe('cleanup budget', () => {
  test('a minute at least, six timeouts when that is longer', () => {
    expect(cleanupBudgetMs(1_000)).toBe(60_000);
    expect(cleanupBudgetMs(30_000)).toBe(180_000);
  });
});

describe('renewed tokens', () => {
  const target = { baseUrl: 'http://127.0.0.1:1/v1', token: 'first-primary', secondToken: 'first-second', label: 'x' };

  test('none renewed: the tokens the run started with', () => {
    expect(withRenewedTokens(target, statsDir())).toEqual(target);
  });

  test('each account gets the token renewed last for it; the rest of the target stays', () => {
    const dir = statsDir();
    recordToken(dir, 'primary', 'primary-2');
    recordToken(dir, 'second', 'second-2');
    recordToken(dir, 'primary', 'primary-3');
    expect(withRenewedTokens(target, dir)).toEqual({ ...target, token: 'primary-3', secondToken: 'second-2' });
  });

  test('a target without a second account gets none from a renewal', () => {
    const dir = statsDir();
    recordToken(dir, 'second', 'second-2');
    const { secondToken: _, ...single } = target;
    expect(withRenewedTokens(single, dir)).toEqual(single);
  });
});
