/**
 * The layers of src/, one per folder, with dependencies pointing one way:
 * cli → harness → client → http, and below them all the report, the rule catalogue, the
 * config, the errors, the schemas and the paths. The reference server stands apart: it shares
 * no code with the checks that judge it (only the error class of its own command line).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.ts';

const SRC = join(PROJECT_ROOT, 'src');

/** Higher numbers may import lower ones, never the other way. */
// The report renders exchanges, so it sits above http, which never imports it. The root
// (catalogue, config, errors, schemas, paths) shares the bottom floor with http: the config
// hides passwords with http's redaction helpers, and http throws the root's error classes.
const RANK: Record<string, number> = { cli: 5, harness: 4, client: 3, report: 2, http: 1, root: 1 };
/** Most modules at the root of src/: only what every layer shares. */
const MAX_ROOT_MODULES = 6;
/** A module longer than this says why at its top (a comment line starting "Long because"). */
const MAX_LINES = 400;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

function layerOf(file: string): string {
  const [first, second] = relative(SRC, file).split('/');
  return second === undefined ? 'root' : (first as string);
}

/**
 * Every relative module a file loads: static imports and re-exports (`… from '…'`), bare
 * side-effect imports (`import '…'`) and dynamic imports (`import('…')`), so no form of import
 * slips past the rule.
 */
export function relativeImports(text: string): string[] {
  const forms = [/\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]/g, /\bimport\s*['"](\.{1,2}\/[^'"]+)['"]/g, /\bimport\s*\(\s*['"`](\.{1,2}\/[^'"`]+)['"`]\s*\)/g];
  return forms.flatMap((form) => [...text.matchAll(form)].map((m) => m[1] as string));
}

const FILES = filesUnder(SRC);
const SUITES = join(PROJECT_ROOT, 'suites');
/** What a suite may import from src/: the harness and the schemas, nothing below them. */
const SUITE_MAY_IMPORT = [join(SRC, 'harness'), join(SRC, 'schema.ts')];

describe('the import forms the layer rule sees', () => {
  it('static imports, re-exports, side-effect imports and dynamic imports are all found', () => {
    // Quotes spliced in, so that no scanner of this file's own imports takes these for imports.
    const [q, d] = ["'", '"'];
    const text = [
      `import { a } from ${q}../http/a.ts${q};`,
      `export { b } from ${q}../report/b.ts${q};`,
      `import ${q}../cli/c.ts${q};`,
      `const d = await import(${q}../harness/d.ts${q});`,
      `const e = await import( ${d}../client/e.ts${d} );`,
      `import { f } from ${q}vitest${q};`,
    ].join('\n');
    expect(relativeImports(text).sort()).toEqual(['../cli/c.ts', '../client/e.ts', '../harness/d.ts', '../http/a.ts', '../report/b.ts']);
  });
});

describe('src/ layers', () => {
  it(`the root of src/ holds at most ${MAX_ROOT_MODULES} modules`, () => {
    expect(FILES.filter((f) => layerOf(f) === 'root').map((f) => relative(SRC, f)).length).toBeLessThanOrEqual(MAX_ROOT_MODULES);
  });

  for (const file of FILES.filter((f) => layerOf(f) !== 'reference')) {
    it(`${relative(PROJECT_ROOT, file)} imports nothing from a layer above it`, () => {
      const from = layerOf(file);
      const targets = relativeImports(readFileSync(file, 'utf8')).map((spec) => resolve(dirname(file), spec));
      const upward = targets.filter((t) => {
        const to = layerOf(t);
        return to === 'reference' ? from !== 'cli' : (RANK[to] ?? 0) > (RANK[from] ?? 0);
      });
      expect(upward.map((t) => relative(PROJECT_ROOT, t))).toEqual([]);
    });
  }

  it(`no module is over ${MAX_LINES} lines without saying why at its top`, () => {
    const long = FILES.filter((f) => {
      const text = readFileSync(f, 'utf8');
      return text.split('\n').length > MAX_LINES && !/^( \*|\/\/) Long because/m.test(text.slice(0, 2000));
    });
    expect(long.map((f) => relative(PROJECT_ROOT, f))).toEqual([]);
  });
});

describe('suites/ stand on the harness', () => {
  for (const file of filesUnder(SUITES)) {
    it(`${relative(PROJECT_ROOT, file)} imports from src/ only the harness and the schemas`, () => {
      const targets = relativeImports(readFileSync(file, 'utf8')).map((spec) => resolve(dirname(file), spec));
      const below = targets.filter((t) => t.startsWith(`${SRC}/`) && !SUITE_MAY_IMPORT.some((ok) => t === ok || t.startsWith(`${ok}/`)));
      expect(below.map((t) => relative(PROJECT_ROOT, t))).toEqual([]);
    });
  }
});
