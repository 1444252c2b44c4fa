/**
 * The unit tier stays fast: no file in it, nor anything it imports from the project, can start
 * a child process (the suite, its CLI or a benchmark). Those belong to the end-to-end tier.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { UNIT_FILES } from '../tiers.ts';

/** The import specifier of every static or dynamic import, and of `export … from`. */
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(?\s*)(['"])([^'"]+)\1/g;
const SPAWNING_MODULES = new Set(['child_process', 'node:child_process']);

/** A tier's glob (`dir/**\/*.test.ts` or a plain path) as a regular expression over relative paths. */
function globToRegExp(glob: string): RegExp {
  const source = glob
    .split('**/')
    .map((part) => part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
    .join('(?:.*/)?');
  return new RegExp(`^${source}$`);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** The project files `file` imports, directly or not, with the modules outside the project each one names. */
function importGraph(file: string, seen = new Map<string, string[]>()): Map<string, string[]> {
  if (seen.has(file)) return seen;
  const external: string[] = [];
  seen.set(file, external);
  for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    const spec = match[2] as string;
    if (spec.startsWith('.')) importGraph(resolve(dirname(file), spec), seen);
    else external.push(spec);
  }
  return seen;
}

const patterns = UNIT_FILES.map(globToRegExp);
const unitFiles = filesUnder(join(PROJECT_ROOT, 'test'))
  .map((path) => relative(PROJECT_ROOT, path))
  .filter((path) => patterns.some((p) => p.test(path)));

describe('the unit tier', () => {
  it('holds test files', () => {
    expect(unitFiles).toContain('test/unit/tiers.test.ts');
  });

  it.each(unitFiles)('%s imports nothing that starts a child process', (file) => {
    const spawning = [...importGraph(join(PROJECT_ROOT, file))]
      .filter(([, external]) => external.some((spec) => SPAWNING_MODULES.has(spec)))
      .map(([path]) => relative(PROJECT_ROOT, path));
    expect(spawning).toEqual([]);
  });

  // The tier shares a module registry per worker (isolate: false): a file that replaces a module
  // must drop the registry before its imports and after its tests, or it meets modules another
  // file loaded with the real one, and leaves its copy to the files after it.
  it.each(unitFiles)('%s resets the module registry around any module it replaces', (file) => {
    const text = readFileSync(join(PROJECT_ROOT, file), 'utf8');
    const replaces = /\bvi\.(?:do)?[mM]ock\(/.test(text);
    const resets = text.match(/\bvi\.resetModules\(\)/g)?.length ?? 0;
    expect({ replaces, resets: replaces ? Math.min(resets, 2) : 2 }).toEqual({ replaces, resets: 2 });
  });
});
