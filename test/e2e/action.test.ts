/**
 * The reusable GitHub Action (action.yml), its `run:` steps run with bash as a runner runs them
 * (test/support/action-runner.ts), against loopback servers: the outputs (verdict, exit code,
 * counts) agree with conformance.json, the step summary holds the suite's Markdown summary, the
 * reports land in the caller's workspace, the upload and JUnit steps (which cannot run here) run
 * whatever the outcome and point at files the run produced, the last step fails the job with the
 * suite's exit code, and no token appears in any output, summary, log or report. `npm ci` is a
 * stand-in here (no registry, and the repository's node_modules must stay as they are): the test
 * checks it was asked for in the action's own checkout.
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { startServer } from '../../src/reference/server.ts';
import { DEFAULT_TOKENS, ReferenceService } from '../../src/reference/service.ts';
import type { ConformanceReport } from '../support/suite-runner.ts';
import { loadAction, runAction, type ActionRun, type RunActionOptions } from '../support/action-runner.ts';
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
const TIMEOUT_MS = 120_000;

/** The runner's environment: none of this test process's WIDGET_*, npm or GitHub variables. */
function baseEnv(): Record<string, string> {
  const keep = (k: string) => !k.startsWith('WIDGET_') && !k.startsWith('npm_') && !k.startsWith('GITHUB_') && !k.startsWith('RUNNER_') && k !== 'INIT_CWD';
  return { ...(Object.fromEntries(Object.entries(process.env).filter(([k]) => keep(k))) as Record<string, string>), NO_COLOR: '1' };
}

/** A folder holding an `npm` that records where and how it was called, and succeeds. */
let fakeBin: string;
let npmLog: string;
beforeAll(() => {
  fakeBin = mkdtempSync(join(tmpdir(), 'wcs-fake-npm-'));
  npmLog = join(fakeBin, 'calls');
  writeFileSync(npmLog, '');
  writeFileSync(join(fakeBin, 'npm'), `#!/usr/bin/env bash\necho "$PWD $*" >> ${JSON.stringify(npmLog)}\n`);
  chmodSync(join(fakeBin, 'npm'), 0o755);
});

async function runOn(server: TestServer | undefined, withValues: Record<string, string>, workspace?: string, action?: ActionFile): Promise<ActionRun> {
  const running = await startServer(server?.handler ?? new ReferenceService());
  try {
    const options: RunActionOptions = {
      with: { 'base-url': running.baseUrl, ...withValues },
      baseEnv: baseEnv(),
      pathPrefix: fakeBin,
      ...(workspace ? { workspace } : {}),
      ...(action ? { action } : {}),
    };
    return await runAction(options);
  } finally {
    await running.close();
  }
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

function reportIn(run: ActionRun): ConformanceReport {
  return JSON.parse(readFileSync(join(run.outputs['report-dir']!, 'conformance.json'), 'utf8')) as ConformanceReport;
}

/** The counts the action should output, summed from conformance.json's summary. */
function countsOf(report: ConformanceReport): Record<string, string> {
  const sum = (outcome: string) => String(Object.values(report.summary).reduce((n, level) => n + ((level as Record<string, number>)[outcome] ?? 0), 0));
  return { passed: sum('pass'), failed: sum('fail'), warned: sum('warn'), skipped: sum('skip'), errors: sum('error'), inconclusive: sum('inconclusive') };
}

describe('the GitHub Action, its run steps run as a runner runs them', { timeout: TIMEOUT_MS }, () => {
  test('a conformant server: npm ci in the action\'s checkout, reports in the workspace, outputs from conformance.json, the suite\'s summary, upload and JUnit pointed at them, the job green', async () => {
    const run = await runOn(undefined, { token: TOKEN, 'second-token': SECOND, args: ONLY });
    expect(run.failed, explain(run)).toBe(false);
    expect(readFileSync(npmLog, 'utf8')).toContain(`${PROJECT_ROOT} ci --no-audit --no-fund`);
    const reports = join(run.workspace, 'reports');
    expect(readdirSync(reports).sort()).toEqual(expect.arrayContaining(['conformance.json', 'conformance.md', 'junit.xml']));
    const report = JSON.parse(readFileSync(join(reports, 'conformance.json'), 'utf8')) as ConformanceReport;
    expect(run.outputs, explain(run)).toMatchObject({
      'exit-code': '0',
      verdict: report.verdict,
      'gate-passed': 'true',
      'known-failures': '0',
      'report-dir': reports,
      counts: JSON.stringify(report.summary),
      ...countsOf(report),
    });
    expect(Number(run.outputs.passed)).toBeGreaterThan(0);
    // Every declared output has a value; the run step writes no output the action does not declare but `junit` (for the publisher).
    const written = Object.keys(step(run, /^Run the conformance suite$/).outputs).sort();
    expect(written).toEqual([...Object.keys(loadAction().outputs), 'junit'].sort());
    // The suite's own summary, appended to the run step's GITHUB_STEP_SUMMARY.
    const summary = step(run, /^Run the conformance suite$/).summary;
    expect(summary).toBe(`${readFileSync(join(reports, 'conformance.md'), 'utf8')}\n`);
    const upload = step(run, /Upload/);
    expect(upload.ran).toBe(true);
    expect(upload.uses).toMatch(/^actions\/upload-artifact@v\d+$/);
    expect(upload.with).toMatchObject({ path: reports, name: 'widget-conformance-reports' });
    const junit = step(run, /JUnit/);
    expect(junit.ran).toBe(true);
    expect(junit.with).toMatchObject({ report_paths: join(reports, 'junit.xml'), fail_on_failure: 'false' });
    expect(step(run, /^Gate/).exitCode).toBe(0);
    expectNoToken(run);
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
    const gated = await runOn(fault.make(), { token: TOKEN, 'second-token': SECOND, args: '--only AUTH', baseline: 'known-failures.txt', 'report-dir': 'out/conformance' }, workspace);
    // The gate passing is not conformance: the verdict stays the failing one.
    expect(gated.outputs.verdict).toBe(reportIn(gated).verdict);
    expect(gated.outputs.verdict).toBe(failing.outputs.verdict);
    expect(gated.outputs, explain(gated)).toMatchObject({ 'exit-code': '0', 'gate-passed': 'true', 'known-failures': String(broken.length), 'report-dir': join(workspace, 'out/conformance') });
    expect(gated.failed).toBe(false);
    expectNoToken(gated);
  });

  test('no second token: the suite stops with exit 2 before any request, the summary says so, and the job fails with 2', async () => {
    const run = await runOn(undefined, { token: TOKEN });
    expect(run.outputs, explain(run)).toMatchObject({ 'exit-code': '2', verdict: '', passed: '' });
    expect(step(run, /^Run the conformance suite$/).summary).toContain('The suite exited 2 (usage or configuration error) before writing a report');
    expect(step(run, /JUnit/).ran, 'nothing to publish').toBe(false);
    expect(step(run, /^Gate/).exitCode).toBe(2);
    expectNoToken(run);
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
    const ran = await runOn(undefined, { token: TOKEN, 'second-token': SECOND }, undefined, leaky);
    expect(ran.outputs['exit-code'], explain(ran)).toBe('0');
    expect(everything(ran)).toContain(TOKEN);
  });

  test('a token in args is refused: exit 2, the suite not run, the token not echoed', async () => {
    const run = await runOn(undefined, { token: TOKEN, 'second-token': SECOND, args: `--only AUTH --token ${TOKEN}` });
    expect(run.outputs['exit-code'], explain(run)).toBe('2');
    expect(step(run, /^Run the conformance suite$/).stdout).toContain('::error::args: --token is refused here');
    expect(step(run, /^Gate/).exitCode).toBe(2);
    expect(step(run, /Upload/).ran).toBe(false);
    expectNoToken(run);
  });
});
