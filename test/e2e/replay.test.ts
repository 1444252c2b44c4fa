/**
 * Reproduction end to end: a run against a faulty server gives every failure a curl command
 * per exchange that names $WIDGET_TOKEN (never its value) in conformance.json, the console, the
 * Markdown and the HTML, writes exchanges.har valid against schemas/har.schema.json, and a
 * replay file per failing test that `widget-conformance replay FILE` runs again: one line, exit 1
 * when the failure reproduces (ISO-2, and PAGE-3's cursor that skips widgets), 0 when it does
 * not, 2 for a file that is not one; the replay deletes what it made.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Redactor } from '../../src/shared/redact.ts';
import { startReferenceServer, startServer } from '../../src/reference/server.ts';
import { readBaseline } from '../../src/cli/run/baseline.ts';
import { ISO_FAULTS } from '../servers/faults/iso.ts';
import { formatIssues, validateSchema } from '../../src/schema.ts';
import { CRUD_FAULTS } from '../servers/faults/crud.ts';
import { PAGE_FAULTS } from '../servers/faults/page.ts';
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
      // Starting with this checkout's bin as seen from the run's directory: a command that cannot fetch a package.
      expect(t.rerun, t.title).toMatch(/^node \S*bin\/widget-conformance\.mjs --base-url \S+ --only \S+ --test .+ --seed -?\d+ --runs \d+/);
      expect(t.rerun).not.toMatch(/--(second-)?token|npm test/);
    }
    // Every failed test carries its replay file and the one command that runs it.
    for (const t of failed) {
      expect(t.replay?.file, t.title).toMatch(/^replay\/[A-Z]+-\d+-\d+\.json$/);
      expect(existsSync(join(run.reportDir, t.replay!.file)), t.title).toBe(true);
      expect(t.replay?.command, t.title).toMatch(/ replay \S+\.json$/);
    }
    const files = ['conformance.json', 'conformance.md', 'conformance.html', 'junit.xml', 'exchanges.har'].map((f) => readFileSync(join(run.reportDir, f), 'utf8'));
    const [, markdown, html] = files;
    expect(markdown).toContain('"${WIDGET_TOKEN}"');
    expect(markdown).toContain('Rerun it with the whole report:');
    expect(markdown).toMatch(/Replay this test .*\n\n```sh\n\S.* replay \S+\.json\n```/);
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
  test('ISO-2 with --keep-failing: the widget stays (listed, journalled), its curl gets the same answer, the rerun command fails the same test, the replay command says in one line that it failed again (exit 1) and deletes what it made, --last-failed reruns it, --write-baseline writes what --baseline reads, and cleanup removes the kept widget', async () => {
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
      expect(cleanupLine).toMatch(/`node \S*bin\/widget-conformance\.mjs cleanup --base-url …`/);
      expect(readdirSync(dir).some((f) => f.startsWith('widget-journal-')), 'the journal stays for cleanup').toBe(true);

      // (b) the last request's curl, run with sh while the server is up, gets the same failing answer from the kept widget; the console says the widget was kept.
      const curl = failure.curl!.at(-1)!;
      expect(curl).toContain('"${WIDGET_SECOND_TOKEN}"');
      expect(run.stdout).toMatch(/\(the widget it names, "[^"]+", was kept by --keep-failing/);
      const replayed = await runShell(['-c', curl], env, dir);
      expect(replayed.code, replayed.stderr).toBe(0);
      expect(replayed.stdout).toMatch(/^HTTP\/1\.1 200 /m);
      const name = (JSON.parse(failing.response!.body) as { name: string }).name;
      expect(replayed.stdout, 'the other account still reads the kept widget').toContain(JSON.stringify(name));

      // (a) the rerun command, executed as printed, fails the same test and runs only it.
      expect(test.rerun, explain(run)).toMatch(/^node \S*bin\/widget-conformance\.mjs --base-url \S+ --only ISO-2 --test .+ --seed 7 /);
      // Pasted in the user's directory (no package there): it runs this suite, never one from a registry.
      const rerunDir = mkdtempSync(join(tmpdir(), 'wcs-rerun-'));
      const rerun = await runShell(['-c', `${test.rerun!} --report-dir '${rerunDir}'`], env, dir);
      expect(rerun.code, rerun.stdout + rerun.stderr).toBe(1);
      const again = JSON.parse(readFileSync(join(rerunDir, 'conformance.json'), 'utf8')) as typeof run.report & object;
      expect(again.rules.flatMap((r) => r.tests.map((t) => [t.title, t.outcome])), 'only the failing test, failing again').toEqual([[test.title, 'fail']]);
      expect(again.partial).toBe(true);
      // (d) the replay command, executed as printed: the test runs again (its widget made afresh), one line says it failed again, exit 1.
      expect(test.replay?.command, explain(run)).toMatch(/ replay \S*replay\/ISO-2-1\.json$/);
      const replay = await runShell(['-c', test.replay!.command], env, dir);
      expect(replay.code, replay.stdout + replay.stderr).toBe(1);
      expect(replay.stdout.trim().split('\n')).toHaveLength(1);
      expect(replay.stdout).toMatch(/^reproduced: ISO-2 \(MUST\) failed again: ISO-2 the second account cannot retrieve the first account's widget: expected a 4xx status .*; received 200/);
      expect(replay.stdout).toContain(running.baseUrl);
      // It deleted what it made: its own run proved every widget gone, and kept nothing.
      const replayReport = JSON.parse(readFileSync(join(dir, 'replay', 'ISO-2-1.run', 'conformance.json'), 'utf8')) as typeof run.report & object;
      expect(replayReport.cleanup.verified, replayReport.cleanup.problems.join('; ')).toBe(true);
      expect(replayReport.cleanup.kept ?? []).toEqual([]);
      for (const text of [replay.stdout, replay.stderr, readFileSync(join(dir, test.replay!.file), 'utf8')]) expect(spellings.text(text)).toBe(text);

      // --last-failed reads the first run's report (same target) and reruns that test alone.
      const last = await runSuite(['--base-url', running.baseUrl, '--last-failed', '--report-dir', dir], { env, reportDir: dir, cwd: dir });
      expect(last.exitCode, explain(last)).toBe(1);
      expect(last.report?.selection?.lastFailed).toBe(true);
      expect(last.report?.partial).toBe(true);
      expect(last.report!.rules.flatMap((r) => r.tests.map((t) => t.title))).toEqual([test.title]);

      // --write-baseline wrote what --baseline reads.
      expect([...readBaseline(baselineFile)]).toEqual(['ISO-2']);

      // No token in any spelling in anything the user is given.
      for (const text of [curl, test.rerun!, run.stdout, run.stderr, readFileSync(baselineFile, 'utf8'), readFileSync(join(dir, 'conformance.md'), 'utf8')]) expect(spellings.text(text)).toBe(text);

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

describe('widget-conformance replay FILE', () => {
  test('PAGE-3 on a cursor that skips a widget: the message says the cursor skipped it and which page request should have shown it, even with --list-settle-ms; --keep-failing keeps the walk\'s widgets (journalled, cleanup deletes them); the replay exits 1 saying so in one line; against a server that pages right it exits 0; a file that is not a replay file exits 2', async () => {
    const skips = PAGE_FAULTS.find((f) => f.name === 'cursor-skips-boundary-widget')!;
    const served = skips.make();
    const running = await startServer(served.handler);
    const reference = await startReferenceServer();
    const env = { WIDGET_TOKEN: served.tokens[0], WIDGET_SECOND_TOKEN: served.tokens[1] };
    try {
      const dir = mkdtempSync(join(tmpdir(), 'wcs-replay-'));
      // With a settle window: the message must still blame the cursor, never the list's latency.
      const run = await runSuite(['--base-url', running.baseUrl, '--only', 'PAGE-3', '--keep-failing', '--list-settle-ms', '2000', '--seed', '11', '--report-dir', dir], { env, reportDir: dir, cwd: dir });
      expect(run.exitCode, explain(run)).toBe(1);
      expect(outcomesOf(run.report), explain(run)).toEqual({ 'PAGE-3': 'fail' });
      // The cause named: the cursor skipped widgets a plain list made before the walk showed, and which page request should have shown each; no word of list latency.
      const received = run.report!.rules[0]!.tests.flatMap((t) => (t.failures ?? []).map((f) => f.received ?? ''));
      expect(received.length, explain(run)).toBeGreaterThan(0);
      for (const text of received) {
        expect(text).toMatch(/the cursor skipped (it|them): a plain list made (before this walk|in the same quiet window as this walk) \(1 page at limit 100\) shows/);
        expect(text).toMatch(/stands (between|after) "[^"]+" \(page (\d+)\).*: the request for page \d+, with the cursor page \2 gave, should have shown it/);
        expect(text).not.toMatch(/list-settle-ms|appeared in the list|settle window|still not listed/);
      }
      expect(run.stdout).toContain('the cursor skipped them');
      // The walk's widgets of the run are kept, not only the one its last request names (the walk shows none by id in a URL).
      const kept = run.report!.cleanup.kept ?? [];
      expect(kept.length, explain(run)).toBeGreaterThanOrEqual(7);
      const failed = run.report!.rules[0]!.tests.filter((t) => t.outcome === 'fail');
      expect(failed.map((t) => t.replay?.file)).toEqual(failed.map((_, i) => `replay/PAGE-3-${i + 1}.json`));
      const file = join(dir, failed[0]!.replay!.file);

      const again = await runSuite(['replay', file], { env, reportDir: false, cwd: dir });
      expect(again.exitCode, again.stdout + again.stderr).toBe(1);
      expect(again.stdout.trim().split('\n')).toHaveLength(1);
      expect(again.stdout).toMatch(/^reproduced: PAGE-3 \(MUST\) failed again: PAGE-3 a walk at limit 1 /);
      expect(JSON.parse(readFileSync(file, 'utf8')).settings).toEqual([['--list-settle-ms', '2000']]);

      // The same file pointed at a server whose cursors skip nothing: the failure does not come back.
      const fixed = join(dir, 'fixed.json');
      writeFileSync(fixed, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), baseUrl: reference.baseUrl }));
      const clean = await runSuite(['replay', fixed], { env: { WIDGET_TOKEN: reference.tokens[0], WIDGET_SECOND_TOKEN: reference.tokens[1] }, reportDir: false, cwd: dir });
      expect(clean.exitCode, clean.stdout + clean.stderr).toBe(0);
      expect(clean.stdout).toMatch(/^did not reproduce: PAGE-3 a walk at limit 1 .*: it passed/);

      // Bad input: one line, exit 2, nothing sent.
      writeFileSync(join(dir, 'smuggled.json'), JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), settings: [['--token-command', 'touch pwned']] }));
      writeFileSync(join(dir, 'other.json'), '{"rules":[]}');
      const cases = [['other.json', /other\.json is not a replay file/], ['badge.svg', /badge\.svg is not JSON/], ['smuggled.json', /sets "--token-command", which a replay file never sets/], ['missing.json', /cannot read missing\.json/]] as const;
      for (const [bad, said] of cases) {
        const refused = await runSuite(['replay', bad], { env, reportDir: false, cwd: dir });
        expect(refused.exitCode, refused.stderr).toBe(2);
        expect(refused.stderr.trim().split('\n').filter((l) => l.startsWith('widget-conformance:'))).toHaveLength(1);
        expect(refused.stderr).toMatch(said);
      }
      expect(existsSync(join(dir, 'pwned'))).toBe(false);

      // The kept widgets, later: cleanup deletes them through the journal.
      const cleaned = await runSuite(['cleanup', '--base-url', running.baseUrl, '--report-dir', dir], { env, reportDir: false, cwd: dir });
      expect(cleaned.exitCode, explain(cleaned)).toBe(0);
      for (const k of kept) {
        const res = await fetch(`${running.baseUrl}/widgets/${encodeURIComponent(k.id)}`, { headers: { authorization: `Bearer ${served.tokens[0]}` } });
        expect(res.status, k.id).toBe(404);
      }
    } finally {
      await running.close();
      await reference.close();
    }
  });
});
