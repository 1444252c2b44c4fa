// Bundles a TypeScript entry of this project with esbuild (tens of milliseconds) and imports
// it natively: a TypeScript loader hook would also handle every one of vitest's modules and
// add about a second to each start. Dependencies stay external, loaded from node_modules.
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Builds and runs `entry` (a path relative to the project root). */
export async function runTypeScript(entry) {
  const cache = join(root, 'node_modules', '.cache', 'widget-conformance');
  // One file per process: runs started side by side (the self-tests do) must not share it.
  const outfile = join(cache, `${entry.replace(/[^a-z0-9]+/gi, '-')}-${process.pid}.mjs`);
  mkdirSync(cache, { recursive: true });
  await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile,
    logLevel: 'error',
  });
  // The entry may call process.exit() before its import settles (a usage error does): remove
  // the bundle on exit too.
  const remove = () => rmSync(outfile, { force: true });
  process.once('exit', remove);
  try {
    await import(pathToFileURL(outfile).href);
  } finally {
    remove();
  }
}
