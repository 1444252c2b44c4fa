/**
 * The project installs without a warning of its dependencies' making, and the suite is an
 * installable command: `npm pack`, the tarball installed into an empty project,
 * `npx --no-install widget-conformance --base-url …` run there against a loopback reference server whose
 * account already holds widgets. The install prints no warning of the suite's own making, the
 * package ships compiled JavaScript only (no TypeScript to compile, no tsx or esbuild), the
 * run passes and its reports land in that project's directory, and the widgets that were
 * there before are still there.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { prefilledStore } from '../../src/reference/prefill.ts';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/server.ts';
import { DEFAULT_TOKENS } from '../../src/reference/service.ts';
import type { WidgetStore } from '../../src/reference/store.ts';
import type { ConformanceReport } from '../support/suite-runner.ts';

/** Widgets the primary account holds before the run, as a real account would. */
const EXISTING_WIDGETS = 30;
/** Packing and installing from npm's cache take seconds, and more on a busy machine. */
const INSTALL_TIMEOUT_MS = 240_000;
/** Output kept from each command, for assertion messages. */
const OUTPUT_TAIL_CHARS = 4000;
/**
 * npm warnings that come from the machine, not from the package: this machine's npmrc names a
 * setting npm 11 no longer knows. Anything else npm warns about fails the test.
 */
const MACHINE_WARNINGS = [/Unknown (user|env|project|global) config/];
/**
 * The commands npm links into the project's node_modules/.bin besides the suite's own: those of
 * vitest and the packages it brings, hoisted to the top (docs/installing.md names them and says
 * why no package field keeps them out). A dependency upgrade that changes them changes that page.
 */
const HOISTED_COMMANDS = ['nanoid', 'rolldown', 'vite', 'vitest', 'why-is-node-running'];
/** What would compile TypeScript at run time. */
const COMPILERS = ['tsx', 'esbuild', 'typescript'];
const ACCOUNT = Object.values(DEFAULT_TOKENS)[0]!;

interface Ran {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a command in `cwd` as a user would from a shell: none of the variables of the npm script
 * running these tests (npm_config_*, INIT_CWD would point the install or the run elsewhere),
 * no WIDGET_* of the developer's.
 */
function run(command: string, args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<Ran> {
  const own = (k: string) => !k.startsWith('npm_') && k !== 'INIT_CWD' && !k.startsWith('WIDGET_') && k !== 'GITHUB_STEP_SUMMARY';
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => own(k)));
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...base, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const keep = (text: string, more: Buffer) => (text + more.toString()).slice(-OUTPUT_TAIL_CHARS);
    child.stdout.on('data', (d: Buffer) => (stdout = keep(stdout, d)));
    child.stderr.on('data', (d: Buffer) => (stderr = keep(stderr, d)));
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ exitCode, stdout, stderr }));
  });
}

function explain(ran: Ran): string {
  return `exit ${ran.exitCode}\nstdout:\n${ran.stdout}\nstderr:\n${ran.stderr}`;
}

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)));
}

/** Temporary folders, each holding an install: removed at the end. */
const scratch: string[] = [];
function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

let server: RunningReferenceServer;
let store: WidgetStore;
/** The user's project, with the tarball installed. */
let project: string;
let install: Ran;

beforeAll(async () => {
  store = prefilledStore(ACCOUNT, EXISTING_WIDGETS);
  server = await startReferenceServer({ store });
  const packed = scratchDir('wcs-pack-');
  const pack = await run('npm', ['pack', '--pack-destination', packed], PROJECT_ROOT);
  expect(pack.exitCode, explain(pack)).toBe(0);
  const tarballs = readdirSync(packed).filter((f) => f.endsWith('.tgz'));
  expect(tarballs).toHaveLength(1);
  project = scratchDir('wcs-project-');
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'user-project', version: '1.0.0', private: true })}\n`);
  // Every dependency is in npm's cache after the repository's own `npm ci`.
  install = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(packed, tarballs[0]!)], project);
}, INSTALL_TIMEOUT_MS);
afterAll(async () => {
  await server?.close();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** npm's warning lines, but the machine's own. */
function warningsOf(ran: Ran): string[] {
  return `${ran.stdout}\n${ran.stderr}`.split('\n').filter((l) => /^npm (warn|WARN)/.test(l) && !MACHINE_WARNINGS.some((m) => m.test(l)));
}

describe('the repository\'s own install', () => {
  test('npm ci of the repository\'s package.json and lockfile prints no warning: no dependency has an install script, none is deprecated or conflicting', async () => {
    const copy = scratchDir('wcs-ci-');
    for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(PROJECT_ROOT, file), join(copy, file));
    const ci = await run('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], copy);
    expect(ci.exitCode, explain(ci)).toBe(0);
    expect(warningsOf(ci), explain(ci)).toEqual([]);
  }, INSTALL_TIMEOUT_MS);
});

describe('installed from the packed tarball into an empty project', () => {
  test('the install succeeds and prints no warning of the package\'s making (no install script, no deprecated or conflicting dependency)', () => {
    expect(install.exitCode, explain(install)).toBe(0);
    expect(warningsOf(install), explain(install)).toEqual([]);
  });

  test('the package ships compiled JavaScript: no TypeScript source, no tsx, esbuild or typescript to run it', () => {
    const installed = join(project, 'node_modules', 'widget-conformance');
    const typescript = filesUnder(installed).filter((f) => /\.[cm]?ts$/.test(f) && !f.endsWith('.d.ts'));
    expect(typescript, 'TypeScript files in the package').toEqual([]);
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    expect(Object.keys(manifest.dependencies ?? {}).filter((d) => COMPILERS.includes(d)), 'compilers among its dependencies').toEqual([]);
    for (const compiler of COMPILERS) {
      expect(existsSync(join(project, 'node_modules', compiler)), `${compiler} installed with the package`).toBe(false);
    }
  });

  test('node_modules/.bin holds the suite\'s two commands and those of vitest and what it brings, as docs/installing.md says', () => {
    const commands = readdirSync(join(project, 'node_modules', '.bin')).sort();
    expect(commands).toEqual([...HOISTED_COMMANDS, 'widget-cleanup', 'widget-conformance'].sort());
    const page = readFileSync(join(PROJECT_ROOT, 'docs', 'installing.md'), 'utf8');
    for (const command of HOISTED_COMMANDS) expect(page, `docs/installing.md names ${command}`).toContain(`\`${command}\``);
  });

  test('npx --no-install widget-conformance --base-url … runs the whole suite, passes, writes its reports in the project\'s directory, leaves the account\'s widgets alone, and names itself so in its reports', async () => {
    const ran = await run('npx', ['--no-install', 'widget-conformance', '--base-url', server.baseUrl], project, { WIDGET_TOKEN: server.tokens[0], WIDGET_SECOND_TOKEN: server.tokens[1] });
    expect(ran.exitCode, explain(ran)).toBe(0);
    const reports = join(project, 'reports');
    expect(readdirSync(reports).sort()).toEqual(['badge.svg', 'conformance.html', 'conformance.json', 'conformance.md', 'exchanges.har', 'junit.xml']);
    const report = JSON.parse(readFileSync(join(reports, 'conformance.json'), 'utf8')) as ConformanceReport;
    expect(report.baseUrl).toBe(server.baseUrl);
    expect(report.suiteErrors).toEqual([]);
    // Where installed, every command the run prints starts with the project's own copy, never the registry's.
    expect(report.command).toBe('npx --no-install widget-conformance');
    // Every scenario suite ran, named by its source as in the repository.
    const files = new Set(report.rules.flatMap((r) => r.tests.map((t) => t.file)));
    const suites = readdirSync(join(PROJECT_ROOT, 'suites')).filter((f) => f.endsWith('.test.ts')).map((f) => `suites/${f}`);
    expect([...files].sort()).toEqual(suites.sort());
    expect(ran.stdout).toContain('Reports: reports/junit.xml');
    expect(existsSync(join(project, 'node_modules', 'widget-conformance', 'reports')), 'nothing written in the installed package').toBe(false);
    expect(store.count(ACCOUNT), 'the widgets that were there before the run').toBe(EXISTING_WIDGETS);
  });

  test('npx --no-install widget-conformance serve --port 0 --latency 20 starts the reference server from the installed package, answers with its printed token, and stops on SIGTERM', async () => {
    const own = (k: string) => !k.startsWith('npm_') && k !== 'INIT_CWD' && !k.startsWith('WIDGET_');
    const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => own(k))), NO_COLOR: '1' };
    // A process group of its own, signalled as a whole as a terminal's Ctrl+C does: npx runs the
    // command through a shell that does not pass a signal sent to npx alone on to the server.
    const child = spawn('npx', ['--no-install', 'widget-conformance', 'serve', '--port', '0', '--latency', '20'], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    try {
      // Waits on the server's own last start-up line, not on a clock.
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('Press Ctrl+C to stop.')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`serve exited (${code}) before it was ready:\n${out}`)));
      });
      const baseUrl = /listening on (http:\/\/127\.0\.0\.1:\d+\/v1)$/m.exec(out)?.[1];
      const token = /^ {2}WIDGET_TOKEN=(\S+)$/m.exec(out)?.[1];
      expect(baseUrl && token, out).toBeTruthy();
      // Where installed, the suggested command is the installed one, not this repository's npm test.
      expect(out).toMatch(/^ {2}WIDGET_TOKEN=\S+ WIDGET_SECOND_TOKEN=\S+ npx --no-install widget-conformance --base-url http:\/\/127\.0\.0\.1:\d+\/v1$/m);
      const res = await fetch(`${baseUrl}/widgets`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status, out).toBe(200);
      expect(await res.json()).toMatchObject({ data: [] });
    } finally {
      // 'close': the server (npx's child) shares the pipes, so this waits for its last line too.
      const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('close', (code, signal) => resolve([code, signal])));
      process.kill(-child.pid!, 'SIGTERM');
      const [code, signal] = await closed;
      // npm ends itself by the signal it received, or with the server's exit code.
      expect(code === 0 || signal === 'SIGTERM', `${code} ${signal}\n${out}`).toBe(true);
    }
    expect(out, 'the server shut down cleanly').toContain('Widget reference server stopped.');
  });

  test('npx --no-install widget-conformance cleanup and npx --no-install widget-cleanup run the cleanup, which finds nothing to delete', async () => {
    const env = { WIDGET_TOKEN: server.tokens[0], WIDGET_SECOND_TOKEN: server.tokens[1] };
    for (const args of [['--no-install', 'widget-conformance', 'cleanup'], ['--no-install', 'widget-cleanup']]) {
      const ran = await run('npx', [...args, '--base-url', server.baseUrl], project, env);
      expect(ran.exitCode, explain(ran)).toBe(0);
    }
    expect(store.count(ACCOUNT)).toBe(EXISTING_WIDGETS);
  });
});
