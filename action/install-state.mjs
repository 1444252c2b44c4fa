#!/usr/bin/env node
// The GitHub Action's install facts (action.yml, step "install-state"), before anything is installed:
//   node action/install-state.mjs
// appends to $GITHUB_OUTPUT
//   npm-cache  npm's cache folder for the suite's own packages, under RUNNER_TEMP (actions/cache
//              restores it before the install and saves it after the job): nothing of the
//              caller's npm cache is read or written;
//   key        the cache key: the runner's OS and architecture and a hash of the action's own
//              package-lock.json (actions/setup-node's `cache` cannot key on it: its hashFiles
//              ignores files outside GITHUB_WORKSPACE, and the action's checkout is outside);
//   installed  'true' when this checkout already holds that install with dist/ compiled (the
//              action used a second time in the job, e.g. `mode: cleanup` after a cancelled run):
//              the cache and install steps are then skipped.
// The install step writes the key to INSTALLED_STAMP once it has finished.
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { upToDate } from '../bin/build.mjs';

/** The action's checkout: this file's parent folder. */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Written by the install step into node_modules: the key the install was made from. */
export const INSTALLED_STAMP = join(ROOT, 'node_modules', '.widget-conformance-install');

/** The cache key of this checkout's lockfile on this runner. */
export function cacheKey(env) {
  const lock = createHash('sha256').update(readFileSync(join(ROOT, 'package-lock.json'))).digest('hex').slice(0, 32);
  const os = (env.RUNNER_OS ?? process.platform).replace(/[^A-Za-z0-9]/g, '');
  const arch = (env.RUNNER_ARCH ?? process.arch).replace(/[^A-Za-z0-9]/g, '');
  return `widget-conformance-npm-${os}-${arch}-${lock}`;
}

/** True when node_modules was installed from this key and dist/ needs no compiling. */
function installed(key) {
  try {
    return readFileSync(INSTALLED_STAMP, 'utf8').trim() === key && upToDate();
  } catch {
    return false;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { GITHUB_OUTPUT: outputFile, RUNNER_TEMP: temp } = process.env;
  if (!outputFile || !temp) {
    process.stderr.write('action/install-state.mjs: GITHUB_OUTPUT and RUNNER_TEMP are not set (it runs inside a GitHub Actions step)\n');
    process.exit(2);
  }
  const key = cacheKey(process.env);
  const outputs = { 'npm-cache': join(temp, 'widget-conformance-npm-cache'), key, installed: String(installed(key)) };
  appendFileSync(outputFile, Object.entries(outputs).map(([name, value]) => `${name}=${value}\n`).join(''));
}
