/**
 * bin/build.mjs, which every bin runs first in a checkout: it compiles what changed in src/ and
 * suites/ since the last build, and only that, so a run after an edit runs the edited code and a
 * run after no edit loads no compiler. Tried on a copy in a scratch project of two sources.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codePath, PROJECT_ROOT, sourcePath } from '../../../src/paths.ts';

interface BuildModule {
  build(): string[];
  upToDate(): boolean;
  compiled(source: string): string;
  isSourceCheckout(): boolean;
}

const Q = "'";
let root: string;
let builder: BuildModule;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'wcs-build-'));
  mkdirSync(join(root, 'bin'));
  mkdirSync(join(root, 'src', 'lib'), { recursive: true });
  mkdirSync(join(root, 'suites'));
  copyFileSync(join(PROJECT_ROOT, 'bin', 'build.mjs'), join(root, 'bin', 'build.mjs'));
  // TypeScript is found from the copy as from the real bin/.
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(root, 'node_modules'));
  writeFileSync(join(root, 'src', 'lib', 'answer.ts'), 'export const answer: number = 41;\n');
  // The quote is spliced in so that test/unit/tiers.test.ts does not take these for imports of this file.
  writeFileSync(join(root, 'suites', 'x.test.ts'), `import type { Big } from ${Q}../src/lib/none.ts${Q};\nimport { answer } from ${Q}../src/lib/answer.ts${Q};\nexport const shown: Big | number = answer;\n`);
  builder = (await import(pathToFileURL(join(root, 'bin', 'build.mjs')).href)) as BuildModule;
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const read = (path: string) => readFileSync(join(root, 'dist', path), 'utf8');

describe('the build of a checkout', () => {
  it('compiles every source the first time: types stripped, `.ts` specifiers rewritten to `.js`, type-only imports gone', () => {
    expect(builder.isSourceCheckout()).toBe(true);
    expect(builder.build().sort()).toEqual(['src/lib/answer.ts', 'suites/x.test.ts']);
    expect(read('src/lib/answer.js')).toContain('export const answer = 41;');
    expect(read('suites/x.test.js')).toMatch(/from\s"\.\.\/src\/lib\/answer\.js"/);
    expect(read('suites/x.test.js')).not.toContain('none');
  });

  it('compiles nothing when nothing changed', () => {
    expect(builder.build()).toEqual([]);
  });

  it('compiles only the edited file, and the output is the edited code', () => {
    writeFileSync(join(root, 'src', 'lib', 'answer.ts'), 'export const answer: number = 42 + 0;\n');
    expect(builder.build()).toEqual(['src/lib/answer.ts']);
    expect(read('src/lib/answer.js')).toContain('42 + 0');
  });

  it('removes the compiled form of a deleted source: a deleted suite no longer runs', () => {
    writeFileSync(join(root, 'suites', 'gone.test.ts'), 'export {};\n');
    builder.build();
    expect(existsSync(join(root, 'dist', 'suites', 'gone.test.js'))).toBe(true);
    rmSync(join(root, 'suites', 'gone.test.ts'));
    builder.build();
    expect(existsSync(join(root, 'dist', 'suites', 'gone.test.js'))).toBe(false);
  });

  it('a syntax error stops the build with the file named, and the file is compiled once fixed', () => {
    writeFileSync(join(root, 'src', 'lib', 'answer.ts'), 'export const answer = ;\n');
    expect(() => builder.build()).toThrow(/cannot compile src\/lib\/answer\.ts/);
    writeFileSync(join(root, 'src', 'lib', 'answer.ts'), 'export const answer = 43;\n');
    expect(builder.build()).toEqual(['src/lib/answer.ts']);
  });

  it('says whether dist/ must be compiled, without compiling (the GitHub Action installs the compiler only then)', () => {
    builder.build();
    expect(builder.upToDate()).toBe(true);
    writeFileSync(join(root, 'src', 'lib', 'answer.ts'), 'export const answer = 44;\n');
    expect(builder.upToDate()).toBe(false);
    expect(read('src/lib/answer.js'), 'nothing compiled by the check').toContain('43');
    builder.build();
    expect(builder.upToDate()).toBe(true);
    rmSync(join(root, 'dist', 'src', 'lib', 'answer.js'));
    expect(builder.upToDate(), 'an output gone').toBe(false);
    builder.build();
  });

  it('maps an entry to its compiled file', () => {
    expect(builder.compiled('src/cli/main.ts')).toBe(join(root, 'dist', 'src', 'cli', 'main.js'));
  });
});

describe('compiled and source paths', () => {
  it('reports name the source of a compiled suite, and the TypeScript runs as itself here', () => {
    expect(sourcePath('dist/suites/crud.test.js')).toBe('suites/crud.test.ts');
    expect(sourcePath('suites/crud.test.ts')).toBe('suites/crud.test.ts');
    // This test runs the TypeScript: the setup file vitest loads is the source itself.
    expect(codePath('src/harness/setup.ts')).toBe(join(PROJECT_ROOT, 'src/harness/setup.ts'));
  });
});
