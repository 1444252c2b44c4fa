/**
 * Runs the conformance suite as a user does (`node bin/widget-conformance.mjs …`) in a child
 * process, against a server on loopback, and returns its exit code, output and report.
 * At most two runs at once per test file (a file's tests share this module): each is a vitest
 * process, and the e2e tier runs two files side by side on a 2-core machine (vitest.config.ts), so
 * that one file's runs use the cores while the other's wait on a pace, a lag or a timeout.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Limiter } from '../../src/http/limiter.ts';
import type { RunReport } from '../../src/report/model.ts';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { formatIssues, validateSchema } from '../../src/schema.ts';
import { busyProcesses } from './load.ts';

export type ConformanceReport = RunReport;

export interface SuiteRun {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly reportDir: string;
  /** conformance.json, when the run got as far as writing it. */
  readonly report?: ConformanceReport;
  readonly seconds: number;
}

const slots = new Limiter(Number(process.env.SELF_TEST_PARALLEL ?? 2));

export interface RunOptions {
  readonly env?: Record<string, string>;
  /** Sends the signal to the run once the promise resolves (e.g. when the server has seen enough requests). */
  readonly interrupt?: { readonly signal: NodeJS.Signals; readonly when: Promise<void> };
  /** The entry point under bin/ (default: the conformance run). */
  readonly bin?: string;
  /**
   * False: add no --report-dir (the test passes its own). A path: the same, and the reports are
   * read from there (where the test's own --report-dir puts them).
   */
  readonly reportDir?: false | string;
  /** The child's working directory (default: the fresh report folder, which holds no .env). */
  readonly cwd?: string;
  /**
   * Two busy processes beside the run (a loaded CI machine), from the moment it starts until it
   * ends: not while it waits for a slot, where they would only slow the runs ahead of it.
   */
  readonly load?: boolean;
}

/** Runs the suite with these arguments (a --report-dir of a fresh temp folder is added). */
export function runSuite(args: readonly string[], options: RunOptions = {}): Promise<SuiteRun> {
  const env = options.env ?? {};
  return slots.run(
    () =>
      new Promise<SuiteRun>((resolve, reject) => {
        const fresh = mkdtempSync(join(tmpdir(), 'wcs-self-'));
        const reportDir = typeof options.reportDir === 'string' ? options.reportDir : fresh;
        const started = performance.now();
        // A clean environment: no WIDGET_* of the developer's, and a cwd with no .env file. Nor
        // npm's variables from `npm run test:self`: the child is run by hand unless the test
        // says otherwise (INIT_CWD would send it to the developer's directory).
        const inherited = (k: string) => !k.startsWith('WIDGET_') && k !== 'GITHUB_STEP_SUMMARY' && k !== 'INIT_CWD' && !k.startsWith('npm_');
        const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => inherited(k)));
        const bin = options.bin ?? 'bin/widget-conformance.mjs';
        const reportArgs = bin === 'bin/widget-conformance.mjs' && options.reportDir === undefined ? ['--report-dir', reportDir] : [];
        const load = options.load ? busyProcesses(2) : undefined;
        const child = spawn(process.execPath, [join(PROJECT_ROOT, bin), ...args, ...reportArgs], {
          cwd: options.cwd ?? fresh,
          env: { ...base, NO_COLOR: '1', ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        child.on('exit', () => load?.stop());
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('error', (error) => {
          load?.stop();
          reject(error);
        });
        void options.interrupt?.when.then(() => child.kill(options.interrupt!.signal));
        child.on('close', (exitCode) => {
          const file = join(reportDir, 'conformance.json');
          const report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport) : undefined;
          // Every report any self-test produces must match its published schema.
          const issues = report ? validateSchema('conformance-report', report) : [];
          if (issues.length > 0) return reject(new Error(`conformance.json does not match schemas/conformance-report.schema.json:\n${formatIssues(issues)}`));
          resolve({ exitCode, stdout, stderr, reportDir, ...(report ? { report } : {}), seconds: (performance.now() - started) / 1000 });
        });
      }),
  );
}

/** Every file a run wrote into its report directory (replay/*.json among them), by path relative to it, with its text. */
export function reportTexts(dir: string): Array<[string, string]> {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => statSync(join(dir, name)).isFile())
    .sort()
    .map((name) => [name, readFileSync(join(dir, name), 'utf8')]);
}

/** The outcome of each rule in a report, by id. */
export function outcomesOf(report: ConformanceReport | undefined): Record<string, string> {
  return Object.fromEntries((report?.rules ?? []).map((r) => [r.id, r.outcome]));
}

/** A compact account of a run for assertion messages. */
export function explain(run: SuiteRun): string {
  const bad = (run.report?.rules ?? []).filter((r) => r.outcome !== 'pass');
  return [
    `exit ${run.exitCode} in ${run.seconds.toFixed(1)} s`,
    ...bad.map((r) => `${r.id}: ${r.outcome} — ${r.tests.flatMap((t) => [...(t.failures ?? []).map((f) => f.message), ...(t.errors ?? []), ...(t.warnings ?? [])]).map((m) => m.split('\n').slice(0, 3).join(' | ')).join(' || ')}`),
    ...(run.report?.suiteErrors ?? []),
    // A report that explains nothing (a run that stopped, rules skipped without a reason shown): the console does.
    run.report && (run.exitCode === 0 || bad.some((r) => r.outcome === 'fail') || (run.report.suiteErrors ?? []).length > 0) ? '' : `stdout:\n${run.stdout.slice(-3000)}\nstderr:\n${run.stderr.slice(-3000)}`,
  ].join('\n');
}
