/** The user's directory (where relative paths and .env are meant) and how paths are shown to them. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayPath, PROJECT_ROOT, userDirectory } from '../../src/paths.ts';

const USER = mkdtempSync(join(tmpdir(), 'wcs-user-'));
/** What npm sets for a script of this package, started from USER. */
const NPM = { INIT_CWD: USER, npm_lifecycle_event: 'test', npm_package_json: join(PROJECT_ROOT, 'package.json') };

describe('the user directory', () => {
  it('is where npm was started when npm ran this script in the package folder (npm --prefix)', () => {
    expect(userDirectory(NPM, PROJECT_ROOT)).toBe(USER);
  });

  it('is the current directory outside npm', () => {
    expect(userDirectory({}, PROJECT_ROOT)).toBe(PROJECT_ROOT);
  });

  it('is the current directory when INIT_CWD was inherited by a command that runs elsewhere', () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'wcs-elsewhere-'));
    expect(userDirectory(NPM, elsewhere)).toBe(elsewhere);
    expect(userDirectory({ INIT_CWD: USER }, PROJECT_ROOT)).toBe(PROJECT_ROOT);
  });

  it('ignores an INIT_CWD that is not absolute', () => {
    expect(userDirectory({ ...NPM, INIT_CWD: 'relative/dir' }, PROJECT_ROOT)).toBe(PROJECT_ROOT);
  });
});

describe('printed paths', () => {
  it('are relative to the user directory when inside it', () => {
    expect(displayPath('/home/u/work/out/junit.xml', '/home/u/work')).toBe('out/junit.xml');
    expect(displayPath('out/junit.xml', '/home/u/work')).toBe('out/junit.xml');
  });

  it('are absolute when outside it, even beside it', () => {
    expect(displayPath('/tmp/reports/junit.xml', '/home/u/work')).toBe('/tmp/reports/junit.xml');
    expect(displayPath('/home/u/work-2/junit.xml', '/home/u/work')).toBe('/home/u/work-2/junit.xml');
    expect(displayPath('../elsewhere/junit.xml', '/home/u/work')).toBe('/home/u/elsewhere/junit.xml');
  });

  it('keep a name that only starts with two dots inside', () => {
    expect(displayPath('/home/u/work/..reports/junit.xml', '/home/u/work')).toBe('..reports/junit.xml');
  });
});
