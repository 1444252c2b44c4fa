/**
 * `npm run soak -- [--runs N] [suite flags…]`: runs the whole suite N times in a row (default
 * 100) against the embedded reference server, and reports every run that did not end
 * conformant, with its first line of trouble. A CI gate must not flake: a transport error
 * against a healthy server is a bug of the suite's. In a checkout, it then runs the data-safety
 * property against `--adversaries N` generated lying servers (default 1000; 0 skips): see
 * docs/data-safety.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../src/paths.ts';

const DEFAULT_RUNS = 100;
/** What a transport fault looks like in a run's output. */
const TRANSPORT_FAULT = /connection reset|socket|ECONNRESET|EPIPE|no complete response/i;

/** The count given with `flag` (at least `min`), or `fallback`; the other arguments are passed on. */
function parseCount(argv: string[], flag: string, fallback: number, min: number): { count: number; rest: string[] } {
  const i = argv.indexOf(flag);
  if (i === -1) return { count: fallback, rest: argv };
  const count = Number(argv[i + 1]);
  if (!Number.isInteger(count) || count < min) {
    process.stderr.write(`widget-soak: ${flag} must be ${min > 0 ? 'a positive integer' : 'a whole number'}, got "${argv[i + 1] ?? ''}"\n`);
    process.exit(2);
  }
  return { count, rest: [...argv.slice(0, i), ...argv.slice(i + 2)] };
}

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  // Answered here: passed on, the suite would print its own help and each run would count as conformant.
  process.stdout.write('usage: npm run soak -- [--runs N] [--adversaries N] [suite flags…]\nRuns the whole suite N times in a row (default 100) against the embedded reference server (or the\n--base-url given) and reports every run that did not end conformant. Exit 0 when every run was conformant, 1 otherwise.\n');
  process.exit(0);
}

/** Generated adversaries for the data-safety property after the runs (test/unit/client/adversary.test.ts). */
const DEFAULT_ADVERSARIES = 1000;

const { count: adversaries, rest: others } = parseCount(process.argv.slice(2), '--adversaries', DEFAULT_ADVERSARIES, 0);
const { count: runs, rest } = parseCount(others, '--runs', DEFAULT_RUNS, 1);
const trouble: string[] = [];
const started = performance.now();
for (let n = 1; n <= runs; n += 1) {
  const reports = mkdtempSync(join(tmpdir(), 'wcs-soak-'));
  const run = spawnSync(process.execPath, [join(PROJECT_ROOT, 'bin/widget-conformance.mjs'), ...rest, '--report-dir', reports], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  rmSync(reports, { recursive: true, force: true });
  const output = `${run.stdout}${run.stderr}`;
  const fault = output.split('\n').find((line) => TRANSPORT_FAULT.test(line));
  if (run.status !== 0 || fault) trouble.push(`run ${n}: exit ${run.status}${fault ? `: ${fault.trim()}` : ''}`);
  process.stdout.write(`run ${n}/${runs}: exit ${run.status}${fault ? ' (transport fault)' : ''}\n`);
}
process.stdout.write(`\n${runs - trouble.length} of ${runs} runs conformant without a transport fault in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
for (const t of trouble) process.stdout.write(`  ${t}\n`);
const property = join(PROJECT_ROOT, 'test/unit/client/adversary.test.ts');
if (adversaries > 0 && existsSync(property)) {
  process.stdout.write(`\nData-safety property against ${adversaries} generated adversaries (WIDGET_ADVERSARY_SEED replays a failure):\n`);
  const vitest = join(PROJECT_ROOT, 'node_modules/vitest/vitest.mjs');
  const run = spawnSync(process.execPath, [vitest, 'run', '--config', join(PROJECT_ROOT, 'test/vitest.config.ts'), '--project', 'unit', property], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', WIDGET_ADVERSARY_RUNS: String(adversaries) },
  });
  process.stdout.write(`${run.stdout}${run.stderr}`.split('\n').filter((l) => /Tests |seed|Counterexample|AssertionError|✓|×/.test(l)).join('\n') + '\n');
  if (run.status !== 0) trouble.push(`the data-safety property failed against a generated adversary (exit ${run.status})`);
}
process.exit(trouble.length ? 1 : 0);
