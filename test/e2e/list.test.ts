/**
 * `widget-conformance --list` prints the rule catalogue, without a server. The catalogue's static
 * checks (every rule has a test and a fault, every test names a rule that exists) need no child
 * process and run in the unit tier: test/unit/catalogue.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { RULES, SECOND_ACCOUNT_MARK, secondAccountRules } from '../../src/rules.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const CATALOGUE_IDS = new Set(RULES.map((r) => r.id));

describe('widget-conformance --list', () => {
  test('prints every rule id with its level, once each, marks the rules that need a second account, and exits 0 without a server', () => {
    // A clean environment and a cwd without a .env file: nothing may point it at a server.
    const cwd = mkdtempSync(join(tmpdir(), 'wcs-list-'));
    try {
      const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('WIDGET_')));
      const run = spawnSync(process.execPath, [join(ROOT, 'bin/widget-conformance.mjs'), '--list'], {
        cwd,
        env: { ...env, NO_COLOR: '1' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.error).toBeUndefined();
      expect(run.status, run.stderr).toBe(0);
      const lines = run.stdout.split('\n').filter((l) => l.trim() !== '');
      const printed = lines.map((l) => l.trim().split(/\s+/).slice(0, 2));
      for (const r of RULES) {
        expect(printed.filter(([id]) => id === r.id), `${r.id} in:\n${run.stdout}`).toEqual([[r.id, r.level]]);
      }
      expect(printed.filter(([id]) => !CATALOGUE_IDS.has(id ?? '')).map(([id]) => id)).toEqual([]);
      // The rules that need a second account say so, and only they.
      const marked = lines.filter((l) => l.endsWith(`(${SECOND_ACCOUNT_MARK})`)).map((l) => l.split(/\s+/)[0]);
      expect(marked).toEqual(secondAccountRules());
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 60_000);
});
