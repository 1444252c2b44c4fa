/**
 * The layers of src/, one per folder, with dependencies pointing one way:
 * cli → harness → client → http, and below them all the report, the rule catalogue, the
 * config, the errors, the schemas and the paths. The reference server stands apart: it shares
 * no code with the checks that judge it (only the error class of its own command line).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../src/paths.ts';

const SRC = join(PROJECT_ROOT, 'src');

/** Higher numbers may import lower ones, never the other way. */
// The root (catalogue, config, errors, schemas, paths) and the report sit with http at the
// bottom: the config hides passwords with http's redaction helpers, the report shows exchanges.
const RANK: Record<string, number> = { cli: 4, harness: 3, client: 2, http: 1, report: 1, root: 1 };
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

const FILES = filesUnder(SRC);

describe('src/ layers', () => {
  it(`the root of src/ holds at most ${MAX_ROOT_MODULES} modules`, () => {
    expect(FILES.filter((f) => layerOf(f) === 'root').map((f) => relative(SRC, f)).length).toBeLessThanOrEqual(MAX_ROOT_MODULES);
  });

  for (const file of FILES.filter((f) => layerOf(f) !== 'reference')) {
    it(`${relative(PROJECT_ROOT, file)} imports nothing from a layer above it`, () => {
      const from = layerOf(file);
      const targets = [...readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((m) => resolve(dirname(file), m[1] as string));
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
