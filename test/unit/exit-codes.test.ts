/** --help and the README's "Exit codes" table say the same thing: both come from EXIT_CODES. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { helpText } from '../../src/config.ts';
import { EXIT_CODES } from '../../src/exit-codes.ts';
import { PROJECT_ROOT } from '../../src/paths.ts';

/** The rows of the README's "Exit codes" table, as code and meaning. */
function readmeRows(): { code: number; meaning: string }[] {
  const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Exit codes\n'), readme.indexOf('\n## ', readme.indexOf('\n## Exit codes\n') + 1));
  return [...section.matchAll(/^\| (\S+) \| (.+) \|$/gm)]
    .filter(([, code]) => code !== 'code' && code !== '---|---')
    .map(([, code, meaning]) => ({ code: Number(code), meaning: meaning! }));
}

describe('exit codes', () => {
  it('cover every code the runner exits with: 0, 1, 2, 3, 130 and 143', () => {
    expect(EXIT_CODES.map((e) => e.code)).toEqual([0, 1, 2, 3, 130, 143]);
  });

  it('--help lists every exit code with its meaning', () => {
    const help = helpText();
    const listed = help.slice(help.indexOf('Exit codes:\n')).split('\n').slice(1).filter((l) => l.trim() !== '');
    expect(listed.map((l) => l.trim().replace(/^(\d+)\s+/, '$1 '))).toEqual(EXIT_CODES.map((e) => `${e.code} ${e.meaning}`));
  });

  it("the README's Exit codes table has exactly these codes and meanings", () => {
    expect(readmeRows()).toEqual(EXIT_CODES.map((e) => ({ code: e.code, meaning: e.meaning })));
  });
});
