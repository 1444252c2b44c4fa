/**
 * What a CI log receives: the run's console output piped to a file carries no terminal escape
 * codes (vitest colours even pipes by default), unless the user asks for colour with FORCE_COLOR.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.ts';

const ESC = '\u001b';

/** The suite run as CI runs it: output piped, no NO_COLOR or FORCE_COLOR of the developer's. */
async function pipedRun(extra: Record<string, string>): Promise<string> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('WIDGET_') && !k.startsWith('npm_') && k !== 'INIT_CWD' && k !== 'NO_COLOR' && k !== 'FORCE_COLOR' && k !== 'GITHUB_STEP_SUMMARY'));
  const cwd = mkdtempSync(join(tmpdir(), 'wcs-console-'));
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [join(PROJECT_ROOT, 'bin/widget-conformance.mjs'), '--only', 'FMT-1', '--report-dir', cwd], { cwd, env: { ...env, CI: 'true', ...extra } });
  return stdout + stderr;
}

describe.concurrent('console output in a CI log', () => {
  test('piped output holds no escape code', async () => {
    const out = await pipedRun({});
    expect(out).toContain('Rules (1 tested)');
    expect(out.includes(ESC), 'an ESC byte in piped output').toBe(false);
  });

  test('FORCE_COLOR brings the colours back', async () => {
    expect((await pipedRun({ FORCE_COLOR: '1' })).includes(ESC)).toBe(true);
  });
});
