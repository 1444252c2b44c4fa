/**
 * Reproduction end to end: a run against a faulty server gives every failure a curl command
 * per exchange that names $WIDGET_TOKEN (never its value) in conformance.json, the console, the
 * Markdown and the HTML, and writes exchanges.har valid against schemas/har.schema.json.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Redactor } from '../../src/shared/redact.ts';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { startServer } from '../../src/reference/server.ts';
import { readBaseline } from '../../src/cli/run/baseline.ts';
import { ISO_FAULTS } from '../servers/faults/iso.ts';
import { formatIssues, validateSchema } from '../../src/schema.ts';
import { CRUD_FAULTS } from '../servers/faults/crud.ts';
import { runAgainst } from '../servers/serve.ts';
import { TOKENS } from '../servers/support.ts';
import { explain, outcomesOf, runSuite } from '../support/suite-runner.ts';

const fault = CRUD_FAULTS.find((f) => f.name === 'retrieve-drops-description')!;

describe('replay', () => {
  test('every failure carries a curl command per exchange naming $WIDGET_TOKEN, no token value anywhere, and exchanges.har is valid HAR 1.2', async () => {
    const run = await runAgainst(fault.make(), ['--only', 'CRUD,AUTH']);
    expect(run.exitCode, explain(run)).toBe(1);
    const failures = run.report!.rules.flatMap((r) => r.tests.flatMap((t) => t.failures ?? []));
    expect(failures.length, explain(run)).toBeGreaterThan(0);
    for (const f of failures) {
      expect(f.curl?.length, f.message).toBe(f.exchanges?.length);
      for (const command of f.curl ?? []) {
        expect(command).toMatch(/--path-as-is/);
        expect(command).toContain('"${WIDGET_TOKEN}"');
      }
    }
    // Every failed test carries the one command that reruns it, never npm test, never a token flag.
    const failed = run.report!.rules.flatMap((r) => r.tests).filter((t) => t.outcome === 'fail');
    for (const t of failed) {
      expect(t.rerun, t.title).toMatch(/^npx widget-conformance --base-url \S+ --only \S+ --test .+ --seed -?\d+ --runs \d+/);
      expect(t.rerun).not.toMatch(/--(second-)?token|npm test/);
    }
    for (const f of failures) expect(f.replay, f.message).toMatch(/^#!\/bin\/sh\n# export WIDGET_TOKEN/);
    const files = ['conformance.json', 'conformance.md', 'conformance.html', 'junit.xml', 'exchanges.har'].map((f) => readFileSync(join(run.reportDir, f), 'utf8'));
    const [, markdown, html] = files;
    expect(markdown).toContain('"${WIDGET_TOKEN}"');
    expect(markdown).toContain('Rerun this test:');
    expect(html).toContain('<pre class="curl"');
    // The failure messages (the console's) come through vitest's reporter, on either stream.
    expect(run.stdout + run.stderr).toContain('"${WIDGET_TOKEN}"');
    expect(run.stdout).toMatch(/Reports: .*exchanges\.har/);
    expect(run.stdout).toMatch(/^Replay: .*export WIDGET_TOKEN/m);
    // Every spelling the redactor knows, in every output: none may hold a token.
    const spellings = new Redactor(TOKENS);
    for (const text of [...files, run.stdout, run.stderr]) expect(spellings.text(text)).toBe(text);
    const har = JSON.parse(files[4]!) as { log: { entries: Array<{ _id?: string }> } };
    const issues = validateSchema('har', har);
    expect(issues, formatIssues(issues)).toEqual([]);
    // Every exchange of every failure, then the profile's evidence, each with its _id (report/har.ts).
    const evidence = (run.report?.profile?.evidence ?? []).length;
    expect(har.log.entries.filter((e) => e._id === undefined).length, 'failure exchanges').toBe(failures.flatMap((f) => f.exchanges ?? []).length);
    expect(har.log.entries.filter((e) => e._id !== undefined).length, 'profile evidence').toBe(evidence);
  });
});

/** Runs `sh` with these arguments and only the tokens (no WIDGET_* of the developer's) in its environment. */
function runShell(args: readonly string[], env: Record<string, string>, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('WIDGET_') && !k.startsWith('npm_') && k !== 'INIT_CWD'));
    const child = spawn('sh', [...args], { cwd, env: { ...base, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the implementer's loop", () => {
  test('ISO-2 with --keep-failing: the widget stays (listed, journalled), the replay reproduces the answer, the rerun command fails the same test, --last-failed reruns it, --write-baseline writes what --baseline reads, and cleanup removes the kept widget', async () => {
    const iso = ISO_FAULTS.find((f) => f.name === 'retrieve-ignores-account')!;
    const served = iso.make();
    const running = await startServer(served.handler);
    // Tokens in the environment only, as a user gives them.
    const env = { WIDGET_TOKEN: served.tokens[0], WIDGET_SECOND_TOKEN: served.tokens[1] };
    const spellings = new Redactor(TOKENS);
    try {
      const dir = mkdtempSync(join(tmpdir(), 'wcs-loop-'));
      const baselineFile = join(dir, 'known.txt');
      const run = await runSuite(['--base-url', running.baseUrl, '--only', 'ISO-2', '--keep-failing', '--seed', '7', '--report-dir', dir, '--write-baseline', baselineFile], { env, reportDir: dir, cwd: dir });
      expect(run.exitCode, explain(run)).toBe(1);
      expect(outcomesOf(run.report), explain(run)).toEqual({ 'ISO-2': 'fail' });
      const test = run.report!.rules[0]!.tests.find((t) => t.outcome === 'fail')!;
      const failure = test.failures![0]!;
      const failing = failure.exchanges!.at(-1)!;
      expect(failing.response?.status, 'the run saw the cross-account retrieve answered 200').toBe(200);

      // (c) the widget is kept: listed by id in the report and on the Cleanup line, with the command that deletes it later.
      const kept = run.report!.cleanup.kept ?? [];
      expect(kept.length, explain(run)).toBeGreaterThan(0);
      expect(run.report!.cleanup.verified).toBe(false);
      const cleanupLine = run.stdout.split('\n').find((l) => l.startsWith('Cleanup:')) ?? '';
      expect(cleanupLine).not.toContain('nothing left behind');
      expect(cleanupLine).toContain('KEPT');
      for (const k of kept) expect(cleanupLine).toContain(JSON.stringify(k.id));
      expect(cleanupLine).toContain('widget-conformance cleanup');
      expect(readdirSync(dir).some((f) => f.startsWith('widget-journal-')), 'the journal stays for cleanup').toBe(true);

      // (b) the replay, run with sh while the server is up, gets the same failing answer from the kept widget.
      expect(failure.replay, explain(run)).toBeDefined();
      const script = failure.replay!;
      expect(script).toContain('"${WIDGET_SECOND_TOKEN}"');
      expect(script.split('\n')[2]).toMatch(/kept by --keep-failing/);
      writeFileSync(join(dir, 'replay.sh'), script);
      const replayed = await runShell([join(dir, 'replay.sh')], env, dir);
      expect(replayed.code, replayed.stderr).toBe(0);
      expect(replayed.stdout).toMatch(/^HTTP\/1\.1 200 /m);
      const name = (JSON.parse(failing.response!.body) as { name: string }).name;
      expect(replayed.stdout, 'the other account still reads the kept widget').toContain(JSON.stringify(name));

      // (a) the rerun command, executed as printed, fails the same test and runs only it.
      expect(test.rerun, explain(run)).toMatch(/^npx widget-conformance --base-url \S+ --only ISO-2 --test .+ --seed 7 /);
      const rerunDir = mkdtempSync(join(tmpdir(), 'wcs-rerun-'));
      const rerun = await runShell(['-c', `${test.rerun!} --report-dir '${rerunDir}'`], env, PROJECT_ROOT);
      expect(rerun.code, rerun.stdout + rerun.stderr).toBe(1);
      const again = JSON.parse(readFileSync(join(rerunDir, 'conformance.json'), 'utf8')) as typeof run.report & object;
      expect(again.rules.flatMap((r) => r.tests.map((t) => [t.title, t.outcome])), 'only the failing test, failing again').toEqual([[test.title, 'fail']]);
      expect(again.partial).toBe(true);
      // Without --keep-failing the widget went at cleanup: that run's replay creates it again first, captures the new id, and still reproduces the answer.
      const recreating = again.rules[0]!.tests[0]!.failures![0]!.replay!;
      expect(recreating, recreating).toMatch(/were deleted at cleanup: this replay creates each again/);
      expect(recreating).toContain('"${WIDGET_TOKEN}"');
      writeFileSync(join(rerunDir, 'replay.sh'), recreating);
      const recreated = await runShell([join(rerunDir, 'replay.sh')], env, rerunDir);
      expect(recreated.code, recreated.stderr).toBe(0);
      expect(recreated.stdout.match(/^HTTP\/1\.1 200 /gm)?.length, recreated.stdout).toBe(1);
      const againName = (JSON.parse(again.rules[0]!.tests[0]!.failures![0]!.exchanges!.at(-1)!.response!.body) as { name: string }).name;
      expect(recreated.stdout, 'the other account reads the widget the replay made').toContain(JSON.stringify(againName));

      // --last-failed reads the first run's report (same target) and reruns that test alone.
      const last = await runSuite(['--base-url', running.baseUrl, '--last-failed', '--report-dir', dir], { env, reportDir: dir, cwd: dir });
      expect(last.exitCode, explain(last)).toBe(1);
      expect(last.report?.selection?.lastFailed).toBe(true);
      expect(last.report?.partial).toBe(true);
      expect(last.report!.rules.flatMap((r) => r.tests.map((t) => t.title))).toEqual([test.title]);

      // --write-baseline wrote what --baseline reads.
      expect([...readBaseline(baselineFile)]).toEqual(['ISO-2']);

      // No token in any spelling in anything the user is given.
      for (const text of [script, test.rerun!, run.stdout, run.stderr, readFileSync(baselineFile, 'utf8'), readFileSync(join(dir, 'conformance.md'), 'utf8')]) expect(spellings.text(text)).toBe(text);

      // cleanup, later, deletes the kept widgets under the usual proof: the owner's retrieve then finds nothing.
      const cleaned = await runSuite(['cleanup', '--base-url', running.baseUrl, '--report-dir', dir], { env, reportDir: false, cwd: dir });
      expect(cleaned.exitCode, explain(cleaned)).toBe(0);
      for (const k of kept) {
        const res = await fetch(`${running.baseUrl}/widgets/${encodeURIComponent(k.id)}`, { headers: { authorization: `Bearer ${served.tokens[0]}` } });
        expect(res.status, k.id).toBe(404);
      }
      expect(readdirSync(dir).some((f) => f.startsWith('widget-journal-')), 'the journal went once every entry was proven gone').toBe(false);
      expect(existsSync(baselineFile)).toBe(true);
    } finally {
      await running.close();
    }
  });
});
