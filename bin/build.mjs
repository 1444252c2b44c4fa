#!/usr/bin/env node
// Compiles src/ and suites/ to dist/ (`npm run build`; `prepack` runs it on `npm pack`), and is
// what every bin calls before it starts in a source checkout, so that a run
// after an edit runs the edited code. Only the files whose source changed since the last build
// are compiled, one by one with TypeScript's transpileModule (types stripped, `.ts` specifiers
// rewritten to `.js`): nothing to do costs a few milliseconds of stat calls, and TypeScript
// itself (a devDependency) is loaded only when there is work. Type errors are
// `npm run typecheck`'s business (tsconfig.json sets isolatedModules, which makes file-by-file
// compilation exact). Plain JavaScript with no imports beyond node: and, lazily, typescript.
// `node bin/build.mjs --check` compiles nothing and exits 1 when dist/ must be compiled (the
// GitHub Action installs the compiler only then).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Where the compiled code lives: dist/src/…, dist/suites/… mirror src/ and suites/. */
export const DIST = join(ROOT, 'dist');
// tools/ (development tools: docs generation) is compiled too, but the package does not ship it.
const SOURCE_DIRS = ['src', 'suites', 'tools'];
/** What each output was compiled from: source path to "mtime size" at the time. */
const MANIFEST = join(DIST, '.sources.json');

const COMPILER_OPTIONS = {
  target: 'ES2022',
  module: 'ES2022',
  rewriteRelativeImportExtensions: true,
  isolatedModules: true,
};

/** True in a source checkout (src/ beside bin/); an installed package ships dist/ only. */
export function isSourceCheckout() {
  return existsSync(join(ROOT, 'src'));
}

function sourcesUnder(dir) {
  if (!existsSync(join(ROOT, dir))) return [];
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function fingerprint(path) {
  const { mtimeMs, size } = statSync(join(ROOT, path));
  return `${mtimeMs} ${size}`;
}

function outputOf(source) {
  return join(DIST, source.replace(/\.ts$/, '.js'));
}

function readManifest() {
  try {
    return JSON.parse(readFileSync(MANIFEST, 'utf8'));
  } catch {
    return {};
  }
}

/**
 * Writes through a temporary file and a rename: runs started side by side (the self-tests do)
 * may build at once, and none of them may ever import a half-written file.
 */
function writeAtomically(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

/** Compiled files whose source is gone (a deleted suite must not keep running). */
function removeOrphans(sources) {
  const expected = new Set(sources.map(outputOf));
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.js') && !expected.has(path)) rmSync(path, { force: true });
    }
  };
  for (const dir of SOURCE_DIRS) walk(join(DIST, dir));
}

/** The sources, their fingerprints now, the ones whose output is missing or older, and whether an output's source is gone. */
function survey() {
  const sources = SOURCE_DIRS.flatMap(sourcesUnder);
  const manifest = readManifest();
  const now = Object.fromEntries(sources.map((s) => [s, fingerprint(s)]));
  const stale = sources.filter((s) => manifest[s] !== now[s] || !existsSync(outputOf(s)));
  const orphaned = Object.keys(manifest).some((s) => !(s in now));
  return { sources, now, stale, orphaned };
}

/** True when dist/ is up to date with src/, suites/ and tools/: a run then needs no compiler. */
export function upToDate() {
  const { stale, orphaned } = survey();
  return stale.length === 0 && !orphaned;
}

/**
 * Brings dist/ up to date with src/ and suites/ and returns the paths it compiled (relative to
 * the root). Throws on a syntax error, naming the file.
 */
export function build() {
  const { sources, now, stale, orphaned } = survey();
  if (stale.length === 0 && !orphaned) return [];
  let ts;
  try {
    ts = createRequire(import.meta.url)('typescript');
  } catch {
    throw new Error(`${stale.length} file(s) of src/ or suites/ changed since dist/ was built, and TypeScript is not installed to compile them (npm ci installs it; --omit=dev does not)`);
  }
  for (const source of stale) {
    const fileName = join(ROOT, source);
    const { outputText, diagnostics = [] } = ts.transpileModule(readFileSync(fileName, 'utf8'), { fileName, compilerOptions: COMPILER_OPTIONS, reportDiagnostics: true });
    const errors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
    if (errors.length > 0) {
      const text = ts.formatDiagnostics(errors, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' });
      throw new Error(`cannot compile ${source}:\n${text}`);
    }
    writeAtomically(outputOf(source), outputText);
  }
  removeOrphans(sources);
  // Written last, with the fingerprints taken before compiling: a file edited meanwhile is stale next time.
  writeAtomically(MANIFEST, `${JSON.stringify(now, null, 1)}\n`);
  return stale;
}

/** The compiled form of a source path relative to the root (`src/cli/run/main.ts` → dist/src/cli/run/main.js). */
export function compiled(source) {
  return outputOf(source.split('/').join(sep));
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--check') {
  // For the GitHub Action's install step: exit 1 when dist/ must be compiled (it then installs the compiler alone).
  const fresh = upToDate();
  process.stderr.write(`build: ${fresh ? 'dist/ is up to date' : 'dist/ must be compiled'}\n`);
  process.exit(fresh ? 0 : 1);
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const done = build();
  process.stderr.write(`build: ${done.length === 0 ? 'dist/ is up to date' : `compiled ${done.length} file(s) to ${relative(ROOT, DIST)}/`}\n`);
}
