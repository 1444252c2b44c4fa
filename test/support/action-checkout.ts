/**
 * A scratch copy of the action's checkout, as a runner downloads it (`github.action_path`), and
 * an `npm` that installs into it what the real one would, from this repository's node_modules,
 * without a registry: so that the action's install step runs for real against a folder of its
 * own, and never writes into this repository's node_modules.
 *
 * The copy holds its own action.yml, action/, bin/, package.json and package-lock.json, and links
 * to src/, suites/, tools/, schemas/ and openapi/. Its dist/ is either a link to this repository's
 * (compiled by the test's build: nothing to compile) or absent, as in a fresh checkout.
 *
 * The stand-in npm records every call (`<cwd> <args>` per line) and does what the action asks of
 * it: `ci --omit=dev` fills node_modules with links to exactly the packages package-lock.json
 * does not mark `dev` (what `npm ci --omit=dev` installs), and `install --prefix DIR
 * typescript@VERSION` links the compiler alone into DIR/node_modules when VERSION is the one
 * installed here (it fails otherwise, as a registry without that version would).
 */
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/paths.ts';

/** What the copy holds of its own (the action may write beside them) and what it links to. */
const COPIED = ['action.yml', 'action', 'bin', 'package.json', 'package-lock.json'];
const LINKED = ['src', 'suites', 'tools', 'schemas', 'openapi'];

/** A fresh copy of the action's checkout; `compiled`: dist/ linked to this repository's, else absent. */
export function actionCheckout(options: { readonly compiled: boolean }): string {
  const root = mkdtempSync(join(tmpdir(), 'wcs-action-checkout-'));
  for (const name of COPIED) cpSync(join(PROJECT_ROOT, name), join(root, name), { recursive: true });
  for (const name of LINKED) symlinkSync(join(PROJECT_ROOT, name), join(root, name));
  if (options.compiled) symlinkSync(join(PROJECT_ROOT, 'dist'), join(root, 'dist'));
  return root;
}

/** A folder holding the stand-in `npm`, and the file its calls are recorded in. */
export function fakeNpm(): { readonly bin: string; readonly log: string } {
  const bin = mkdtempSync(join(tmpdir(), 'wcs-fake-npm-'));
  const log = join(bin, 'calls');
  writeFileSync(log, '');
  const modules = realpathSync(join(PROJECT_ROOT, 'node_modules'));
  const script = `#!${process.execPath}
// The stand-in npm of test/support/action-checkout.ts.
const { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } = require('node:fs');
const { dirname, join } = require('node:path');
const args = process.argv.slice(2);
appendFileSync(${JSON.stringify(log)}, process.cwd() + ' ' + args.join(' ') + '\\n');
const modules = ${JSON.stringify(modules)};
const link = (from, into) => { mkdirSync(dirname(into), { recursive: true }); symlinkSync(join(modules, from), into); };
if (args[0] === 'ci' && args.includes('--omit=dev')) {
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
  rmSync('node_modules', { recursive: true, force: true });
  for (const [path, entry] of Object.entries(lock.packages)) {
    const top = /^node_modules\\/((?:@[^/]+\\/)?[^/]+)$/.exec(path);
    if (top && entry.dev !== true && existsSync(join(modules, top[1]))) link(top[1], join('node_modules', top[1]));
  }
} else if (args[0] === 'install') {
  const prefix = args[args.indexOf('--prefix') + 1];
  const wanted = args.find((a) => a.startsWith('typescript@'));
  const have = JSON.parse(readFileSync(join(modules, 'typescript', 'package.json'), 'utf8')).version;
  if (!prefix || !wanted || wanted !== 'typescript@' + have) { process.stderr.write('stand-in npm: no such package ' + wanted + '\\n'); process.exit(1); }
  link('typescript', join(prefix, 'node_modules', 'typescript'));
}
`;
  writeFileSync(join(bin, 'npm'), script);
  chmodSync(join(bin, 'npm'), 0o755);
  return { bin, log };
}

/** The calls the stand-in npm recorded, one `<cwd> <args>` a line. */
export function npmCalls(log: string): string[] {
  return readFileSync(log, 'utf8').split('\n').filter((l) => l !== '');
}
