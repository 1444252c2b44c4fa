/**
 * The layers of src/, one per folder, as STYLE.md ("Layers") draws them: cli → harness → client
 * → http, and below them the report, the rule catalogue, the config and the errors (with the
 * schemas, the exit codes and the paths at the root of src/), which import nothing above them.
 * Under all of them, shared/ holds what both sides of a floor need (the recorded exchange and
 * its types, redaction, the profile's observations): it imports nothing but itself. The reference
 * server stands apart: it shares no code with the checks that judge it (only the error class and
 * the paths of its own command line). No module imports itself back, directly or in a loop.
 * Imports are read with TypeScript's own parser, type-only ones included.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.ts';

const SRC = join(PROJECT_ROOT, 'src');

/** Higher numbers may import lower ones and their own floor, never a higher one. */
// report/, the root modules (catalogue, errors, schemas, exit codes, paths) and config/ share
// one floor below http: STYLE.md puts them side by side, and the cycle check keeps them apart.
const RANK: Readonly<Record<string, number>> = { cli: 5, harness: 4, client: 3, http: 2, report: 1, root: 1, config: 1, shared: 0 };
/**
 * Floors that record what the report renders, and so never import it: the client and http hand
 * their facts (exchanges, observations, counts) over in shared/ types, and the harness and the
 * runner give them to the report.
 */
const NEVER_IMPORTS: Readonly<Record<string, readonly string[]>> = { client: ['report'], http: ['report'] };
/** The reference server's only imports from outside its folder. */
const REFERENCE_MAY_IMPORT = [join(SRC, 'errors.ts'), join(SRC, 'paths.ts')];
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
 * Every relative module a file loads, as TypeScript reads it: imports and type-only imports,
 * re-exports, bare side-effect imports, `import x = require(…)` and dynamic `import(…)`; never a
 * string or a comment that only looks like one.
 */
export function relativeImports(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName).filter((name) => /^\.{1,2}\//.test(name));
}

/** The modules `file` imports, as absolute paths. */
function importsOf(file: string): string[] {
  return relativeImports(readFileSync(file, 'utf8')).map((spec) => resolve(dirname(file), spec));
}

/** The import cycles of a graph (its strongly connected components of more than one module, or a module importing itself), each sorted. */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm: one depth-first pass, each component found when its root is left.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

const FILES = filesUnder(SRC);
const GRAPH = new Map(FILES.map((f) => [f, importsOf(f)]));
const SUITES = join(PROJECT_ROOT, 'suites');
/** What a suite may import from src/: the harness and the schemas, nothing below them. */
const SUITE_MAY_IMPORT = [join(SRC, 'harness'), join(SRC, 'schema.ts')];

describe('the import forms the layer rule sees', () => {
  it('imports, type-only imports, re-exports, side-effect, require and dynamic imports are all found; strings and comments are not', () => {
    // Quotes spliced in, so that no scanner of this file's own imports takes these for imports.
    const [q, d] = ["'", '"'];
    const text = [
      `import { a } from ${q}../http/a.ts${q};`,
      `import type { T } from ${q}../shared/t.ts${q};`,
      `import { type U } from ${q}../config/u.ts${q};`,
      `export { b } from ${q}../report/b.ts${q};`,
      `export type { V } from ${q}../client/v.ts${q};`,
      `import ${q}../cli/c.ts${q};`,
      `import r = require(${q}../reference/r.ts${q});`,
      `const d = await import(${q}../harness/d.ts${q});`,
      `const e = await import( ${d}../client/e.ts${d} );`,
      `import { f } from ${q}vitest${q};`,
      `const s = ${d}import x from ${q}../report/no.ts${q}${d};`,
      `// import y from ${q}../report/comment.ts${q}`,
    ].join('\n');
    expect(relativeImports(text).sort()).toEqual(['../cli/c.ts', '../client/e.ts', '../client/v.ts', '../config/u.ts', '../harness/d.ts', '../http/a.ts', '../reference/r.ts', '../report/b.ts', '../shared/t.ts']);
  });

  it('a loop of any length is a cycle, a module importing itself is one, and a diamond is not', () => {
    const graph = new Map<string, string[]>([
      ['a', ['b']], ['b', ['c']], ['c', ['a', 'd']], ['d', []],
      ['e', ['e']],
      ['f', ['g', 'h']], ['g', ['i']], ['h', ['i']], ['i', []],
      ['j', ['k']], ['k', ['j']],
    ]);
    expect(importCycles(graph).sort()).toEqual([['a', 'b', 'c'], ['e'], ['j', 'k']]);
  });
});

describe('src/ layers', () => {
  it(`the root of src/ holds at most ${MAX_ROOT_MODULES} modules`, () => {
    expect(FILES.filter((f) => layerOf(f) === 'root').map((f) => relative(SRC, f)).length).toBeLessThanOrEqual(MAX_ROOT_MODULES);
  });

  it('every folder of src/ has its place in the picture', () => {
    const unplaced = [...new Set(FILES.map(layerOf))].filter((layer) => layer !== 'reference' && RANK[layer] === undefined);
    expect(unplaced).toEqual([]);
  });

  it('no two modules of src/ import each other, directly or in a loop (type-only imports included)', () => {
    expect(importCycles(GRAPH).map((cycle) => cycle.map((f) => relative(PROJECT_ROOT, f)))).toEqual([]);
  });

  for (const file of FILES) {
    const from = layerOf(file);
    if (from === 'reference') {
      it(`${relative(PROJECT_ROOT, file)} imports from src/ only the errors and the paths`, () => {
        const outside = GRAPH.get(file)!.filter((t) => layerOf(t) !== 'reference' && !REFERENCE_MAY_IMPORT.includes(t));
        expect(outside.map((t) => relative(PROJECT_ROOT, t))).toEqual([]);
      });
      continue;
    }
    it(`${relative(PROJECT_ROOT, file)} imports only from its own floor and those it may use`, () => {
      const upward = GRAPH.get(file)!.filter((t) => {
        const to = layerOf(t);
        if (to === 'reference') return from !== 'cli';
        return (RANK[to] ?? Infinity) > (RANK[from] ?? -Infinity) || (NEVER_IMPORTS[from] ?? []).includes(to);
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
      const below = importsOf(file).filter((t) => t.startsWith(`${SRC}/`) && !SUITE_MAY_IMPORT.some((ok) => t === ok || t.startsWith(`${ok}/`)));
      expect(below.map((t) => relative(PROJECT_ROOT, t))).toEqual([]);
    });
  }
});
