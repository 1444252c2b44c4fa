/**
 * Replay files (src/report/replay-file.ts, src/cli/run/replay.ts, reruns.ts, write-reports.ts):
 * each failing test gets one, numbered per rule, holding no credential; reading one checks every
 * field and refuses a setting a run never writes into one; the replay run's configuration keeps
 * the file's target, test, seed and settings and switches off what a replay never does; and its
 * one line and exit code follow from how the test ended (1 again, 0 not, 2 bad input, 3 not run).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../../src/config.ts';
import { replayConfig, replayOrRun, replayOutcome, replayRequest, type ReplayRequest } from '../../../../src/cli/run/replay.ts';
import { RERUN_FLAGS, rerunSettings, withReruns } from '../../../../src/cli/run/reruns.ts';
import { removeStaleReports, writeReports } from '../../../../src/cli/run/write-reports.ts';
import { Redactor } from '../../../../src/shared/redact.ts';
import { readReplayFile, renderReplayFile, ReplayFileError, type ReplayFile } from '../../../../src/report/replay-file.ts';
import { outcomesOf, reportOf, testOf } from '../../support/report.ts';

const TOKEN = 'tok-Primary-0123456789abcdef';
const BASE = 'http://127.0.0.1:8080/v1';

/** The configuration of a run given these flags, its tokens from the environment as a user gives them. */
function configOf(...argv: string[]): ReturnType<typeof resolveConfig> {
  return resolveConfig(argv, { WIDGET_TOKEN: TOKEN, WIDGET_SECOND_TOKEN: `${TOKEN}2` }, { envFile: '/nonexistent/.env' });
}

/** The failing run's outcomes with replays: two failed ISO-2 tests, a warned PAGE-9, and DEL-2 evidence seen by a PROP-3 test. */
function failingRun(config = configOf('--base-url', BASE, '--seed', '7', '--list-settle-ms', '300')) {
  const outcomes = outcomesOf([
    testOf('ISO-2', 'fail', { title: 'ISO-2 the second account cannot retrieve the first account\'s widget' }),
    testOf('ISO-2', 'fail', { title: 'ISO-2 another one' }),
    testOf('PAGE-9', 'warn', { title: 'PAGE-9 at limit 1, a page with has_more false carries no next_cursor', warnings: ['PAGE-9 …'] }),
    testOf('PROP-3', 'pass', { title: 'PROP-3 a widget lives until deleted' }),
    testOf('DEL-2', 'fail', { title: 'DEL-2 violation seen by the test "PROP-3 a widget lives until deleted"', seenBy: 'PROP-3 a widget lives until deleted' }),
    testOf('CRUD-1', 'pass'),
  ]);
  return withReruns(outcomes, rerunSettings(config, false, false), { reportDir: 'reports', suiteVersion: '0.1.0', recordedAt: new Date('2026-11-28T10:00:00Z') });
}

describe('replay files of a failing run', () => {
  it('one per failed or warned test, numbered per rule, with the command that replays it and every setting the outcome depends on, no credential', () => {
    const outcomes = failingRun();
    const replays = outcomes.tests.flatMap((t) => (t.replay ? [[t.title, t.replay.file, t.replay.command] as const] : []));
    expect(replays.map(([, file]) => file)).toEqual(['replay/ISO-2-1.json', 'replay/ISO-2-2.json', 'replay/PAGE-9-1.json', 'replay/DEL-2-1.json']);
    for (const [, file, command] of replays) expect(command).toMatch(new RegExp(` replay reports/${file.replace('.', '\\.')}$`));
    const first = outcomes.tests[0]!.replay!.content;
    expect(first).toMatchObject({ baseUrl: BASE, rule: 'ISO-2', outcome: 'fail', seed: 7, runs: 12, settings: [['--list-settle-ms', '300']], run: { rules: ['ISO-2'], test: first.test } });
    // Evidence is replayed through the test that saw it, selecting both rules.
    expect(outcomes.tests.find((t) => t.rule === 'DEL-2')!.replay!.content.run).toEqual({ rules: ['PROP-3', 'DEL-2'], test: 'PROP-3 a widget lives until deleted' });
    for (const [, , command] of replays) expect(new Redactor([TOKEN]).text(command)).toBe(command);
    const text = replays.map(([title]) => renderReplayFile(outcomes.tests.find((t) => t.title === title)!.replay!.content)).join('');
    expect(text).not.toContain(TOKEN.slice(4, 14));
  });

  it('none without a place to write them (a replay writes none of its own)', () => {
    const outcomes = withReruns(outcomesOf([testOf('ISO-2', 'fail')]), rerunSettings(configOf('--base-url', BASE), false, false));
    expect(outcomes.tests[0]!.rerun).toBeDefined();
    expect(outcomes.tests[0]!.replay).toBeUndefined();
  });

  it('are written under replay/ beside the reports, listed once, and removed with the previous run\'s reports (a replay folder that is a symlink is never written through)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wcs-replay-files-'));
    const outcomes = failingRun();
    const report = reportOf(outcomes);
    const { files, problems } = await writeReports(dir, report, new Redactor([TOKEN]), outcomes.tests.flatMap((t) => (t.replay ? [t.replay] : [])));
    expect(problems).toEqual([]);
    expect(files.filter((f) => f.startsWith(join(dir, 'replay')))).toEqual([join(dir, 'replay', '*.json')]);
    expect(readdirSync(join(dir, 'replay')).sort()).toEqual(['DEL-2-1.json', 'ISO-2-1.json', 'ISO-2-2.json', 'PAGE-9-1.json']);
    expect(readReplayFile(readFileSync(join(dir, 'replay', 'ISO-2-1.json'), 'utf8'), (f) => RERUN_FLAGS.has(f)).test).toBe('ISO-2 the second account cannot retrieve the first account\'s widget');
    // The replay's own reports in a folder beside the files stay: they may hold a journal for `cleanup`.
    mkdirSync(join(dir, 'replay', 'ISO-2-1.run'));
    writeFileSync(join(dir, 'replay', 'notes.json'), '{}');
    expect(removeStaleReports(dir)).toEqual([]);
    expect(readdirSync(join(dir, 'replay')).sort()).toEqual(['ISO-2-1.run', 'notes.json']);

    const planted = mkdtempSync(join(tmpdir(), 'wcs-replay-elsewhere-'));
    const other = mkdtempSync(join(tmpdir(), 'wcs-replay-symlink-'));
    symlinkSync(planted, join(other, 'replay'));
    const written = await writeReports(other, report, new Redactor([TOKEN]), outcomes.tests.flatMap((t) => (t.replay ? [t.replay] : [])));
    expect(written.problems.join('\n')).toMatch(/could not write the replay files/);
    expect(readdirSync(planted)).toEqual([]);
  });
});

/** A replay file as a run writes it, with these fields changed. */
function fileWith(change: Record<string, unknown> = {}): string {
  const content = failingRun().tests[0]!.replay!.content;
  return JSON.stringify({ ...content, ...change });
}

describe('reading a replay file', () => {
  const read = (text: string): ReplayFile => readReplayFile(text, (f) => RERUN_FLAGS.has(f));

  it('reads what a run writes', () => {
    expect(read(fileWith()).rule).toBe('ISO-2');
  });

  it.each([
    ['not JSON', 'x', /is not JSON/],
    ['another JSON document', '{"rules":[]}', /is not a replay file of this suite/],
    ['another version', fileWith({ version: 2 }), /has version 2/],
    ['a seed out of range', fileWith({ seed: 2 ** 40 }), /no valid "seed"/],
    ['a title with a control character', fileWith({ test: 'ISO-2 a\u001b]0;x\u0007' }), /no valid "test"/],
    ['three rules to select', fileWith({ run: { rules: ['A-1', 'B-1', 'C-1'], test: 'x' } }), /no valid "run"/],
    ['a token command among the settings', fileWith({ settings: [['--token-command', 'curl evil']] }), /sets "--token-command", which a replay file never sets/],
    ['a report directory among the settings', fileWith({ settings: [['--report-dir', '/etc']] }), /sets "--report-dir"/],
  ])('refuses %s, saying why in one line', (_, text, said) => {
    expect(() => read(text)).toThrow(ReplayFileError);
    expect(() => read(text)).toThrow(said);
  });
});

describe('the replay run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wcs-replay-request-'));
  mkdirSync(join(dir, 'reports', 'replay'), { recursive: true });
  writeFileSync(join(dir, 'reports', 'replay', 'ISO-2-1.json'), fileWith());

  it('runs the file\'s test alone with its target, seed and settings, its reports beside the file; nothing kept, no baseline read or written', () => {
    const request = replayRequest(['reports/replay/ISO-2-1.json'], dir) as ReplayRequest;
    expect(request.argv).toEqual(['--base-url', BASE, '--only', 'ISO-2', '--test', "/^ISO-2 the second account cannot retrieve the first account's widget$/", '--seed', '7', '--runs', '12', '--list-settle-ms', '300']);
    expect(request.reportDir).toBe(join(dir, 'reports', 'replay', 'ISO-2-1.run'));
    const env = { WIDGET_TOKEN: TOKEN, WIDGET_SECOND_TOKEN: `${TOKEN}2`, WIDGET_KEEP_FAILING: 'true', WIDGET_WRITE_BASELINE: 'known.txt', WIDGET_BASELINE: 'known.txt', WIDGET_SEED: '99' };
    const { config, replay } = replayOrRun(['replay', 'reports/replay/ISO-2-1.json'], dir, (argv) => resolveConfig(argv, env, { envFile: '/nonexistent/.env' }));
    expect(replay?.path).toBe('reports/replay/ISO-2-1.json');
    expect(config).toMatchObject({ baseUrl: BASE, seed: 7, only: 'ISO-2', listSettleMs: 300, keepFailing: false, lastFailed: false, reportDir: request.reportDir, token: TOKEN });
    expect(config.writeBaseline).toBeUndefined();
    expect(config.baseline).toBeUndefined();
  });

  it('refuses a file whose target is not the one the environment names: the tokens would go there', () => {
    const env = { WIDGET_BASE_URL: 'https://mine.example/v1', WIDGET_TOKEN: TOKEN, WIDGET_SECOND_TOKEN: `${TOKEN}2` };
    expect(() => replayOrRun(['replay', 'reports/replay/ISO-2-1.json'], dir, (argv) => resolveConfig(argv, env, { envFile: '/nonexistent/.env' }))).toThrow(
      `replay: reports/replay/ISO-2-1.json targets ${BASE}, but WIDGET_BASE_URL (or .env) names https://mine.example/v1: a replay sends your tokens to its file's target; unset WIDGET_BASE_URL to replay it there`,
    );
    // The same target is no conflict.
    expect(replayOrRun(['replay', 'reports/replay/ISO-2-1.json'], dir, (argv) => resolveConfig(argv, { ...env, WIDGET_BASE_URL: `${BASE}/` }, { envFile: '/nonexistent/.env' })).config.baseUrl).toBe(BASE);
  });

  it('of a run against the embedded reference server takes no target or token from the environment', () => {
    writeFileSync(join(dir, 'embedded.json'), fileWith({ baseUrl: undefined }));
    const request = replayRequest(['embedded.json'], dir) as ReplayRequest;
    const config = replayConfig(configOf('--base-url', 'https://mine.example/v1', ...request.argv), request);
    expect(config.baseUrl).toBeUndefined();
    expect(config.token).toBeUndefined();
  });

  it.each([
    [[], /replay takes one replay file and no options/],
    [['a.json', 'b.json'], /replay takes one replay file/],
    [['--seed', '1'], /replay takes one replay file/],
    [['reports'], /reports is not a regular file/],
    [['nowhere.json'], /cannot read nowhere\.json: ENOENT/],
  ])('refuses the arguments %j in one line', (args, said) => {
    expect(() => replayRequest(args, dir)).toThrow(said);
  });

  it('refuses a file naming a rule the catalogue does not have', () => {
    writeFileSync(join(dir, 'unknown-rule.json'), fileWith({ rule: 'XYZ-9' }));
    expect(() => replayRequest(['unknown-rule.json'], dir)).toThrow(/names the rule "XYZ-9", which this suite's catalogue does not have/);
  });

  it('answers --help', () => {
    expect(replayRequest(['--help'], dir)).toBe('help');
    expect(existsSync(join(dir, '--help'))).toBe(false);
  });
});

describe('the replay\'s one line and exit code', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wcs-replay-outcome-'));
  writeFileSync(join(dir, 'f.json'), fileWith());
  const request = replayRequest(['f.json'], dir) as ReplayRequest;
  const title = request.file.test;
  const failure = { message: 'ISO-2 …', expected: 'a 4xx status for a retrieve of another account\'s widget', received: '200 (2xx)\nmore' };
  const reportWith = (outcome: 'pass' | 'fail' | 'skip' | 'error', extra: object = {}, runExit = 1) => reportOf(outcomesOf([testOf('ISO-2', outcome, { title, ...(outcome === 'fail' ? { failures: [failure] } : {}), ...extra })]), { exitCode: runExit, target: BASE });

  it('1 when the test fails again, in the suite\'s words: the rule, what was expected and received, the seed and the target', () => {
    const { code, line } = replayOutcome(reportWith('fail'), request, 1, 'f.run');
    expect(code).toBe(1);
    expect(line).toBe(`reproduced: ISO-2 (MUST) failed again: ${title}: expected a 4xx status for a retrieve of another account's widget; received 200 (2xx) (seed 7; against ${BASE}; reports in f.run)`);
  });

  it('0 when it passes, saying when the run saw it fail', () => {
    const { code, line } = replayOutcome(reportWith('pass', {}, 0), request, 0, 'f.run');
    expect(code).toBe(0);
    expect(line).toMatch(/^did not reproduce: ISO-2 .*: it passed; the run of 2026-11-28T10:00:00\.000Z saw it fail \(seed 7; /);
  });

  it('3 when it could not run, with the reason; 2 when the suite has no such test; the run\'s own code after a setup problem or a signal', () => {
    expect(replayOutcome(reportWith('skip', { skipReason: 'not run: the run was interrupted by SIGINT' }, 0), request, 3, 'f.run')).toMatchObject({ code: 3, line: expect.stringMatching(/^could not replay: .* ended skip: not run: the run was interrupted/) });
    expect(replayOutcome(reportWith('error', { messages: ['TransportError: timeout'] }, 3), request, 3, 'f.run').code).toBe(3);
    expect(replayOutcome(reportOf(outcomesOf([])), request, 3, 'f.run')).toMatchObject({ code: 2, line: expect.stringMatching(/names the test .* which this suite \(version 1\.0\.0\) does not have \(the file was written by version 0\.1\.0\)/) });
    expect(replayOutcome(reportWith('fail'), request, 2, 'f.run').code).toBe(2);
    expect(replayOutcome(reportWith('fail'), request, 130, 'f.run').code).toBe(130);
  });

  it('says when the replay could not prove every widget it made gone', () => {
    const report = { ...reportWith('fail'), cleanup: { deleted: 0, problems: [], leftovers: [{ account: 'primary', id: 'w1', reason: 'x' }], verified: false } };
    expect(replayOutcome(report, request, 1, 'f.run').line).toMatch(/the replay did not prove every widget it made gone: see f\.run\/conformance\.md$/);
  });
});
