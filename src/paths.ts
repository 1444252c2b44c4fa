/** Where the project lives, found from this module's location (which may be a bundle under node_modules/.cache). */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
