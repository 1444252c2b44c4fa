/**
 * Where things are: the project (found from this module's location, which is src/ when the
 * self-tests run the TypeScript and dist/src/ when a bin runs the compiled code), and the user's directory, which relative paths the user gives
 * are resolved against and printed paths are relative to.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'widget-conformance') return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the widget-conformance project root');
    dir = parent;
  }
}

/** The project root: package.json, suites/, schemas/. */
export const PROJECT_ROOT = findRoot();

/** True when this module is the compiled JavaScript under dist/ (every bin runs that). */
const COMPILED = fileURLToPath(import.meta.url).endsWith('.js');
const DIST = 'dist';

/**
 * The file to load for a source path relative to the root (`src/harness/setup.ts`): itself
 * when running the TypeScript, its compiled form under dist/ otherwise.
 */
export function codePath(source: string): string {
  return COMPILED ? join(PROJECT_ROOT, DIST, source.replace(/\.ts$/, '.js')) : join(PROJECT_ROOT, source);
}

/** The scenario suites vitest runs, relative to the root: compiled under dist/ when a bin runs this. */
export const SUITES_GLOB = COMPILED ? `${DIST}/suites/**/*.test.js` : 'suites/**/*.test.ts';

/** The source path a loaded file (relative to the root) was compiled from: what reports name. */
export function sourcePath(loaded: string): string {
  const parts = loaded.split(/[\\/]/);
  return parts[0] === DIST ? parts.slice(1).join('/').replace(/\.js$/, '.ts') : loaded;
}

function realpath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * The directory the user ran the command from. npm runs a script with the package's folder as
 * its cwd (`npm --prefix path/to/suite test` too) and says where it was started in INIT_CWD:
 * that is where the user's `.env`, baseline and report directory are meant. INIT_CWD is only
 * believed when npm started this very process as a script of a package in `cwd`
 * (npm_package_json beside it): it is inherited by every descendant of an npm script, and a
 * script that changes directory and then runs the suite by hand means its own directory.
 */
export function userDirectory(env: Record<string, string | undefined>, cwd: string = process.cwd()): string {
  const { INIT_CWD: init, npm_package_json: manifest } = env;
  const npmRanUsHere = init !== undefined && isAbsolute(init) && manifest !== undefined && realpath(dirname(manifest)) === realpath(cwd);
  return npmRanUsHere ? init : cwd;
}

/** `path` as the user can open it from `dir`: relative when inside it, absolute otherwise. */
export function displayPath(path: string, dir: string): string {
  const absolute = resolve(dir, path);
  const rel = relative(dir, absolute);
  const inside = rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
  return inside ? rel : absolute;
}
