/**
 * The reusable GitHub Action (action.yml), its `run:` steps run with bash as a runner runs them
 * (test/support/action-runner.ts), from a scratch copy of the action's checkout, against loopback
 * servers: the install step installs only what running needs (`npm ci --omit=dev`, and the
 * compiler alone, at the lockfile's version, when dist/ must be compiled: the suite then runs
 * with nothing but the runtime packages), keyed to npm's cache by the action's lockfile, and is
 * skipped when the action is used again in the job; the outputs (verdict, exit code, counts)
 * agree with conformance.json; the step summary holds the suite's Markdown summary; the reports
 * land in the caller's workspace; the upload (under a name of the job's and matrix entry's own)
 * and JUnit steps (which cannot run here) run whatever the outcome and point at files the run
 * produced; `mode: cleanup` deletes what a killed run journalled; the last step fails the job
 * with the suite's exit code; no token appears in any output, summary, log or report, and no line
 * the action writes itself (a refusal, an annotation) shows any input's value. `npm` is a
 * stand-in (test/support/action-checkout.ts): no registry here.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { beforeAll, describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { startServer } from '../../src/reference/server.ts';
import { DEFAULT_TOKENS, ReferenceService } from '../../src/reference/service.ts';
import { WidgetStore } from '../../src/reference/store.ts';
import type { ConformanceReport } from '../support/suite-runner.ts';
import { runSuite } from '../support/suite-runner.ts';
import { loadAction, runAction, type ActionRun, type RunActionOptions } from '../support/action-runner.ts';
import { actionCheckout, fakeNpm, npmCalls } from '../support/action-checkout.ts';
import type { ActionFile } from '../support/action-file.ts';
import { AUTH_FAULTS } from '../servers/faults/index.ts';
import type { TestServer } from '../servers/serve.ts';

const [TOKEN, SECOND] = ((): [string, string] => {
  const entries = Object.entries(DEFAULT_TOKENS);
  const first = entries[0]!;
  return [first[0], entries.find(([, account]) => account !== first[1])![0]];
})();
/** A short selection: the action's steps, not the rules, are under test. */
const ONLY = '--only AUTH,ISO';
const TIMEOUT_MS = 180_000;
const LOCK_VERSION_OF_TYPESCRIPT = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> }).packages['node_modules/typescript']!.version;

/** The runner's environment: none of this test process's WIDGET_*, npm or GitHub variables. */
function baseEnv(): Record<string, string> {
  const keep = (k: string) => !k.startsWith('WIDGET_') && !k.startsWith('npm_') && !k.startsWith('GITHUB_') && !k.startsWith('RUNNER_') && k !== 'INIT_CWD' && k !== 'NODE_PATH';
  return { ...(Object.fromEntries(Object.entries(process.env).filter(([k]) => keep(k))) as Record<string, string>), NO_COLOR: '1' };
}

let npm: { bin: string; log: string };
beforeAll(() => {
  npm = fakeNpm();
});

interface RunOn {
  readonly workspace?: string;
  readonly action?: ActionFile;
  /** The action's checkout (default: a fresh copy with dist/ compiled). */
  readonly actionPath?: string;
  readonly matrix?: RunActionOptions['matrix'];
}

async function runOn(server: TestServer | ReferenceService | undefined, withValues: Record<string, string>, on: RunOn = {}): Promise<ActionRun> {
  const handler = server instanceof ReferenceService ? server : (server?.handler ?? new ReferenceService());
  const running = await startServer(handler);
  try {
    return await runAtUrl(running.baseUrl, withValues, on);
  } finally {
    await running.close();
  }
}

function runAtUrl(baseUrl: string, withValues: Record<string, string>, on: RunOn = {}): Promise<ActionRun> {
  return runAction({
    with: { 'base-url': baseUrl, ...withValues },
    baseEnv: baseEnv(),
    pathPrefix: npm.bin,
    actionPath: on.actionPath ?? actionCheckout({ compiled: true }),
    ...(on.workspace ? { workspace: on.workspace } : {}),
    ...(on.action ? { action: on.action } : {}),
    ...(on.matrix ? { matrix: on.matrix } : {}),
  });
}

function step(run: ActionRun, name: RegExp) {
  const found = run.steps.find((s) => name.test(s.name));
  if (!found) throw new Error(`no step ${name}`);
  return found;
}

function explain(run: ActionRun): string {
  return run.steps.map((s) => `## ${s.name} (ran ${s.ran}, exit ${s.exitCode})\n${s.stdout.slice(-2000)}\n${s.stderr.slice(-2000)}`).join('\n');
}

/** Every text the run produced: step logs, outputs, summaries, every file in the workspace and in RUNNER_TEMP (the scripts as run, the output files). */
function everything(run: ActionRun): string {
  const files = [run.workspace, run.runnerTemp].flatMap((dir) =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8')),
  );
  return [...run.steps.flatMap((s) => [s.stdout, s.stderr, s.summary, JSON.stringify(s.outputs), JSON.stringify(s.with ?? {})]), JSON.stringify(run.outputs), ...files].join('\n');
}

function expectNoToken(run: ActionRun): void {
  const text = everything(run);
  for (const token of [TOKEN, SECOND]) expect(text.includes(token), 'a token in an output, summary, log or report').toBe(false);
}

/** What the action's own steps said (every step but the suite's run, whose output is the suite's): its log lines, annotations, summaries and outputs. */
function actionsOwnWords(run: ActionRun, suiteRan: boolean): string {
  return run.steps.filter((s) => !(suiteRan && s.name === 'Run the conformance suite')).flatMap((s) => [s.stdout, s.stderr, s.summary, JSON.stringify(s.outputs)]).join('\n');
}

/** Each input value given that shows in `text`. */
function inputValuesIn(text: string, given: Record<string, string>): string[] {
  return Object.entries(given).filter(([, value]) => value.length >= 6 && text.includes(value)).map(([name]) => name);
}

function reportIn(run: ActionRun): ConformanceReport {
  return JSON.parse(readFileSync(join(run.outputs['report-dir']!, 'conformance.json'), 'utf8')) as ConformanceReport;
}

/** The counts the action should output, summed from conformance.json's summary. */
function countsOf(report: ConformanceReport): Record<string, string> {
  const sum = (outcome: string) => String(Object.values(report.summary).reduce((n, level) => n + ((level as Record<string, number>)[outcome] ?? 0), 0));
  return { passed: sum('pass'), failed: sum('fail'), warned: sum('warn'), skipped: sum('skip'), errors: sum('error'), inconclusive: sum('inconclusive') };
}

describe('the GitHub Action, its run steps run as a runner runs them', { timeout: TIMEOUT_MS }, () => {
  test('a conformant server: npm ci --omit=dev in the action\'s checkout with npm\'s cache keyed on its lockfile, reports in the workspace, outputs from conformance.json, the suite\'s summary, upload and JUnit pointed at them, the job green', async () => {
    const actionPath = actionCheckout({ compiled: true });
    const run = await runOn(undefined, { token: TOKEN, 'second-token': SECOND, args: ONLY }, { actionPath });
    expect(run.failed, explain(run)).toBe(false);
    // The runtime dependencies only, through npm's cache of the suite's own; dist/ was compiled: no compiler installed.
    const cache = step(run, /^Restore npm's cache/);
    expect(cache.ran).toBe(true);
    expect(cache.uses).toMatch(/^actions\/cache\/restore@v\d+$/);
    const lockHash = createHash('sha256').update(readFileSync(join(actionPath, 'package-lock.json'))).digest('hex').slice(0, 32);
    expect(cache.with).toEqual({ path: join(run.runnerTemp, 'widget-conformance-npm-cache'), key: `widget-conformance-npm-Linux-X64-${lockHash}` });
    // No cache was found (the stand-in restores nothing): saved right after the install, under the same key.
    const saved = step(run, /^Save npm's cache/);
    expect(saved.ran).toBe(true);
    expect(saved.with).toEqual(cache.with);
    expect(npmCalls(npm.log).filter((c) => c.startsWith(`${actionPath} `))).toEqual([`${actionPath} ci --omit=dev --prefer-offline --no-audit --no-fund --cache ${cache.with!.path}`]);
    expect(readFileSync(join(actionPath, 'node_modules', '.widget-conformance-install'), 'utf8').trim()).toBe(cache.with!.key);
    const reports = join(run.workspace, 'reports');
    expect(readdirSync(reports).sort()).toEqual(expect.arrayContaining(['conformance.json', 'conformance.md', 'junit.xml']));
    const report = JSON.parse(readFileSync(join(reports, 'conformance.json'), 'utf8')) as ConformanceReport;
    expect(run.outputs, explain(run)).toMatchObject({
      'exit-code': '0',
      verdict: report.verdict,
      'gate-passed': 'true',
      'known-failures': '0',
      'report-dir': reports,
      'artifact-name': 'widget-conformance-reports-conformance',
      counts: JSON.stringify(report.summary),
      ...countsOf(report),
    });
    expect(Number(run.outputs.passed)).toBeGreaterThan(0);
    // Every declared output has a value; the run step writes no output the action does not declare but `junit` and `upload` (for the later steps).
    const written = Object.keys(step(run, /^Run the conformance suite$/).outputs).sort();
    expect(written).toEqual([...Object.keys(loadAction().outputs), 'junit', 'upload'].sort());
    // The suite's own summary, appended to the run step's GITHUB_STEP_SUMMARY.
    const summary = step(run, /^Run the conformance suite$/).summary;
    expect(summary).toBe(`${readFileSync(join(reports, 'conformance.md'), 'utf8')}\n`);
    const upload = step(run, /Upload/);
    expect(upload.ran).toBe(true);
    expect(upload.uses).toMatch(/^actions\/upload-artifact@v\d+$/);
    expect(upload.with).toMatchObject({ path: reports, name: 'widget-conformance-reports-conformance' });
    const junit = step(run, /JUnit/);
    expect(junit.ran).toBe(true);
    expect(junit.with).toMatchObject({ report_paths: join(reports, 'junit.xml'), fail_on_failure: 'false' });
    expect(step(run, /^Gate/).exitCode).toBe(0);
    expectNoToken(run);
    expect(inputValuesIn(actionsOwnWords(run, true), run.inputs), 'an input value in a line of the action\'s own').toEqual([]);
  });

  test('a fresh checkout: the compiler alone, at the lockfile\'s version, compiles dist/, the suite runs with the runtime packages only; used again in the job (mode: cleanup), nothing is installed again', async () => {
    const actionPath = actionCheckout({ compiled: false });
    const before = npmCalls(npm.log).length;
    const run = await runOn(undefined, { token: TOKEN, 'second-token': SECOND, args: '--only AUTH' }, { actionPath });
    expect(run.failed, explain(run)).toBe(false);
    expect(run.outputs['exit-code'], explain(run)).toBe('0');
    const calls = npmCalls(npm.log).slice(before).filter((c) => c.startsWith(`${actionPath} `));
    expect(calls, 'npm ci of the runtime packages, then the compiler alone').toHaveLength(2);
    expect(calls[0]).toMatch(/ ci --omit=dev /);
    expect(calls[1]).toBe(`${actionPath} install --no-save --no-package-lock --prefer-offline --no-audit --no-fund --cache ${join(run.runnerTemp, 'widget-conformance-npm-cache')} --prefix ${join(run.runnerTemp, 'widget-conformance-typescript')} typescript@${LOCK_VERSION_OF_TYPESCRIPT}`);
    // No package of the test toolchain is in the checkout: the compiler was found in its own folder.
    const installed = readdirSync(join(actionPath, 'node_modules'));
    for (const tool of ['typescript', '@stryker-mutator', 'playwright-core', '@seriousme']) expect(installed, tool).not.toContain(tool);
    expect(existsSync(join(actionPath, 'dist', 'src', 'cli', 'run', 'main.js')), 'dist/ compiled in the checkout').toBe(true);

    const again = await runOn(undefined, { token: TOKEN, 'second-token': SECOND, mode: 'cleanup' }, { actionPath, workspace: run.workspace });
    expect(again.failed, explain(again)).toBe(false);
    expect(step(again, /^Restore npm's cache/).ran, 'no cache restored').toBe(false);
    expect(step(again, /^Install/).ran, 'nothing installed again').toBe(false);
    expect(step(again, /^Save npm's cache/).ran, 'nor saved').toBe(false);
    expect(npmCalls(npm.log).slice(before).filter((c) => c.startsWith(`${actionPath} `))).toHaveLength(2);
  });

  test('a server breaking AUTH-2: exit code 1 as the job\'s, uploads and JUnit still run; with a baseline of its failures the gate passes and the verdict stays not conformant', async () => {
    const fault = AUTH_FAULTS.find((f) => f.name === 'token-prefix-match')!;
    const broken = [fault.rule, ...Object.keys(fault.alsoBreaks ?? {})];
    const failing = await runOn(fault.make(), { token: TOKEN, 'second-token': SECOND, args: '--only AUTH' });
    expect(failing.outputs['exit-code'], explain(failing)).toBe('1');
    expect(failing.outputs.verdict).toBe(reportIn(failing).verdict);
    expect(failing.outputs.verdict).not.toMatch(/^(conformant|partial)$/);
    expect(failing.outputs['gate-passed']).toBe('false');
    expect(Number(failing.outputs.failed)).toBeGreaterThanOrEqual(1);
    expect(failing.failed).toBe(true);
    expect(step(failing, /^Gate/).exitCode).toBe(1);
    expect(step(failing, /^Gate/).stdout).toContain('::error::widget-conformance exited 1');
    expect(step(failing, /Upload/).ran).toBe(true);
    expect(step(failing, /JUnit/).ran).toBe(true);
    const failingReports = failing.outputs['report-dir']!;
    expect(step(failing, /^Run the conformance suite$/).summary).toBe(`${readFileSync(join(failingReports, 'conformance.md'), 'utf8')}\n`);
    expectNoToken(failing);

    const workspace = mkdtempSync(join(tmpdir(), 'wcs-action-ws-'));
    writeFileSync(join(workspace, 'known-failures.txt'), `# the prefix match, to fix\n${broken.join('\n')}\n`);
    const gated = await runOn(fault.make(), { token: TOKEN, 'second-token': SECOND, args: '--only AUTH', baseline: 'known-failures.txt', 'report-dir': 'out/conformance', 'artifact-name': 'my-conformance' }, { workspace });
    // The gate passing is not conformance: the verdict stays the failing one.
    expect(gated.outputs.verdict).toBe(reportIn(gated).verdict);
    expect(gated.outputs.verdict).toBe(failing.outputs.verdict);
    expect(gated.outputs, explain(gated)).toMatchObject({ 'exit-code': '0', 'gate-passed': 'true', 'known-failures': String(broken.length), 'report-dir': join(workspace, 'out/conformance'), 'artifact-name': 'my-conformance' });
    expect(step(gated, /Upload/).with).toMatchObject({ name: 'my-conformance' });
    expect(gated.failed).toBe(false);
    expectNoToken(gated);
  });

  test('in a matrix, each entry uploads under a name of its own: the job, the entry\'s index and a hash of its values', async () => {
    const names = [];
    for (const [index, values] of [[0, { node: 20, target: 'a' }], [1, { node: 22, target: 'a' }]] as const) {
      const run = await runOn(undefined, { token: TOKEN, 'second-token': SECOND, args: '--only AUTH-1' }, { matrix: { values, index } });
      expect(run.outputs['exit-code'], explain(run)).toBe('0');
      const hash = createHash('sha256').update(JSON.stringify(values, null, 2)).digest('hex').slice(0, 8);
      expect(run.outputs['artifact-name']).toBe(`widget-conformance-reports-conformance-${index}-${hash}`);
      expect(step(run, /Upload/).with).toMatchObject({ name: run.outputs['artifact-name'] });
      names.push(run.outputs['artifact-name']);
    }
    expect(new Set(names).size).toBe(2);
  });

  test('no second token: the suite stops with exit 2 before any request, the summary says so, nothing is uploaded, and the job fails with 2', async () => {
    const run = await runOn(undefined, { token: TOKEN });
    expect(run.outputs, explain(run)).toMatchObject({ 'exit-code': '2', verdict: '', passed: '' });
    expect(step(run, /^Run the conformance suite$/).summary).toContain('The suite exited 2 (usage or configuration error) without writing a report of this run');
    expect(step(run, /JUnit/).ran, 'nothing to publish').toBe(false);
    expect(step(run, /Upload/).ran, 'nothing of this run to upload').toBe(false);
    expect(step(run, /^Gate/).exitCode).toBe(2);
    expectNoToken(run);
  });

  test('a run stopped by a refused token in a workspace that holds an earlier run\'s reports: the outputs and the artifact are not that run\'s', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'wcs-action-ws-'));
    const service = new ReferenceService();
    const running = await startServer(service);
    try {
      const earlier = await runAtUrl(running.baseUrl, { token: TOKEN, 'second-token': SECOND, args: '--only AUTH-1' }, { workspace });
      expect(earlier.outputs['exit-code'], explain(earlier)).toBe('0');
      const refused = await runAtUrl(running.baseUrl, { token: `${TOKEN}x`, 'second-token': SECOND, args: '--only AUTH-1' }, { workspace });
      expect(refused.outputs, explain(refused)).toMatchObject({ 'exit-code': '2', verdict: '', passed: '' });
      expect(step(refused, /^Run the conformance suite$/).outputs.junit).toBe('');
      expect(existsSync(join(workspace, 'reports', 'conformance.json')), 'the earlier reports stay for --last-failed').toBe(true);
      expect(step(refused, /Upload/).ran, 'the earlier run\'s reports are not this run\'s artifact').toBe(false);
      expect(step(refused, /JUnit/).ran).toBe(false);
      expect(step(refused, /^Run the conformance suite$/).summary).toContain('without writing a report of this run');
    } finally {
      await running.close();
    }
  });

  test('without-second-token: the run goes ahead without the isolation rules', async () => {
    const run = await runOn(undefined, { token: TOKEN, 'without-second-token': 'true', args: '--only AUTH,ISO' });
    expect(run.outputs['exit-code'], explain(run)).toBe('0');
    // The verdict word is the report's: passed through, never made conformant by a run without isolation rules.
    expect(run.outputs.verdict).toBe(reportIn(run).verdict);
    expect(run.outputs.verdict).not.toBe('conformant');
  });

  test('the token check can fail: a run step with the token pasted into its script (`${{ inputs.token }}` in run:) leaves it in the script the runner writes', async () => {
    const leaky = structuredClone(loadAction());
    const run = leaky.runs.steps.find((s) => s.id === 'run')! as { run?: string };
    run.run = 'test -n "${{ inputs.token }}"\necho "exit-code=0" >> "$GITHUB_OUTPUT"';
    const ran = await runOn(undefined, { token: TOKEN, 'second-token': SECOND }, { action: leaky });
    expect(ran.outputs['exit-code'], explain(ran)).toBe('0');
    expect(everything(ran)).toContain(TOKEN);
  });

  // Inputs the action refuses: the refusal names the input or flag, never a value given to any input.
  const REFUSED: ReadonlyArray<readonly [string, Record<string, string>, string]> = [
    ['a token in args as --token=VALUE', { args: `--only AUTH --token=${TOKEN}` }, '::error::args: --token is refused here (its value is not shown)'],
    ['a token in args as --second-token VALUE', { args: `--second-token ${SECOND} --only AUTH` }, '::error::args: --second-token is refused here'],
    ['an unknown mode', { mode: `cleanup-${SECOND}` }, '::error::the mode input must be run or cleanup (its value is not shown)'],
    ['a switch that is neither true nor false', { strict: `yes-${TOKEN}` }, "::error::the strict input must be 'true' or 'false' (its value is not shown)"],
  ];
  for (const [what, inputs, annotation] of REFUSED) {
    test(`${what} is refused: exit 2, the suite not run, and no input's value in any line, annotation, summary or output of any step`, async () => {
      const given = { token: TOKEN, 'second-token': SECOND, 'report-dir': 'reports-of-a-refused-run', 'artifact-name': 'an-artifact-name', ...inputs };
      const run = await runOn(undefined, given);
      expect(run.outputs['exit-code'], explain(run)).toBe('2');
      expect(step(run, /^Run the conformance suite$/).stdout).toContain(annotation);
      expect(existsSync(join(run.workspace, 'reports-of-a-refused-run')), 'the suite did not run').toBe(false);
      expect(step(run, /^Gate/).exitCode).toBe(2);
      expect(step(run, /Upload/).ran).toBe(false);
      expect(inputValuesIn(actionsOwnWords(run, false), run.inputs)).toEqual([]);
      expectNoToken(run);
    });
  }

  test('mode: cleanup, after a run killed with SIGKILL: the cleanup command with the same target, tokens and report directory deletes what the run journalled', async () => {
    const store = new WidgetStore();
    const mine = store.create('alice', { name: 'a widget of the user' });
    let kill!: () => void;
    const midway = new Promise<void>((resolve) => (kill = resolve));
    let requests = 0;
    const service = new (class extends ReferenceService {
      override async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
        if ((requests += 1) === 150) kill();
        return super.handle(req, res);
      }
    })({ store });
    const running = await startServer(service);
    try {
      const workspace = mkdtempSync(join(tmpdir(), 'wcs-action-ws-'));
      const reportDir = join(workspace, 'reports');
      await runSuite(['--base-url', running.baseUrl, '--token', TOKEN, '--second-token', SECOND, '--report-dir', reportDir], { reportDir, interrupt: { signal: 'SIGKILL', when: midway } });
      expect(readdirSync(reportDir).filter((f) => f.startsWith('widget-journal-')), 'the journal survives SIGKILL').toHaveLength(1);
      const left = store.count('alice') + store.count('bob');
      expect(left, 'the killed run left widgets').toBeGreaterThan(1);
      const cleanup = await runAtUrl(running.baseUrl, { token: TOKEN, 'second-token': SECOND, mode: 'cleanup' }, { workspace });
      const out = step(cleanup, /^Run the conformance suite$/);
      // The kill may cut a create's answer: its widget cannot be found safely, and cleanup says so (exit 3).
      const lost = Number(/(\d+) create\(s\) lost their answer/.exec(out.stdout)?.[1] ?? 0);
      expect(cleanup.outputs['exit-code'], explain(cleanup)).toBe(lost === 0 ? '0' : '3');
      expect(store.count('alice') + store.count('bob') - 1, explain(cleanup)).toBeLessThanOrEqual(lost);
      expect(store.get('alice', mine.id), 'the user\'s own widget').toEqual(mine);
      expect(out.summary).toMatch(/^### Widget Service conformance: cleanup\n\nThe cleanup exited [03] /);
      expect(step(cleanup, /Upload/).ran).toBe(false);
      expect(step(cleanup, /^Gate/).exitCode).toBe(Number(cleanup.outputs['exit-code']));
      expectNoToken(cleanup);
    } finally {
      await running.close();
    }
  });
});
