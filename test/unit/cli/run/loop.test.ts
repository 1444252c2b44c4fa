/**
 * The implementer's loop on the runner's side: --write-baseline writes what --baseline reads
 * (round trip, one commented line per rule, refusing what is not a regular file), and
 * --last-failed reads the previous report: the broken tests, or one line naming why not.
 */
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBaseline } from '../../../../src/cli/run/baseline.ts';
import { brokenSelection, lastFailed, lastFailedLine } from '../../../../src/cli/run/last-failed.ts';
import { baselineText, checkBaselineTarget, writeBaseline } from '../../../../src/cli/run/write-baseline.ts';
import { ConfigError } from '../../../../src/config.ts';
import { buildReport } from '../../../../src/report/build.ts';
import type { Outcome, RunOutcomes, RunReport, TestOutcome } from '../../../../src/report/model.ts';
import { ruleById } from '../../../../src/rules.ts';

const dir = mkdtempSync(join(tmpdir(), 'wcs-loop-unit-'));

function test(rule: string, title: string, outcome: Outcome, extra: Partial<TestOutcome> = {}): TestOutcome {
  return { rule, title: `${rule} ${title}`, file: 'suites/x.test.ts', outcome, messages: [], failures: [], warnings: [], durationMs: 1, ...extra };
}

/** A report of a run with these tests, built as the runner builds it. */
function reportOf(tests: TestOutcome[], strict = false, target = 'http://h.example/v1'): RunReport {
  const rules = [...new Set(tests.map((t) => t.rule))].map((id) => {
    const own = tests.filter((t) => t.rule === id);
    const order: Outcome[] = ['skip', 'pass', 'warn', 'inconclusive', 'error', 'fail'];
    const outcome = own.map((t) => t.outcome).reduce((a, b) => (order.indexOf(b) > order.indexOf(a) ? b : a), 'skip' as Outcome);
    return { rule: ruleById(id), outcome, tests: own };
  });
  const outcomes: RunOutcomes = { tests, rules, suiteErrors: [] };
  return buildReport({
    suiteVersion: '0.0.0', target, baseUrl: target, startedAt: new Date(0), finishedAt: new Date(1000), seed: 7, config: {}, strict,
    stats: { requests: 1, retries: 0, rateLimitWaitMs: 0, refused: 0 } as never, exitCode: 1, interrupted: false,
    cleanup: { deleted: 0, problems: [], leftovers: [], verified: true },
  }, outcomes);
}

const TESTS = [
  test('ISO-2', "the second account cannot retrieve the first account's widget\n# not a comment", 'fail'),
  test('CRUD-1', 'a create answers the widget', 'pass'),
  test('MAL-2', 'description longer than the limit is refused', 'warn'),
  test('FMT-3', 'violation seen by the test "CRUD-1 a create answers the widget"', 'fail', { seenBy: 'CRUD-1 a create answers the widget' }),
];

describe('--write-baseline', () => {
  it('writes the failed rules, each after a comment with its statement and first failing test; --baseline reads back exactly them', () => {
    const report = reportOf(TESTS);
    const file = join(dir, 'baseline.txt');
    expect(writeBaseline(file, 'baseline.txt', report)).toBeUndefined();
    expect([...readBaseline(file)].sort()).toEqual(['FMT-3', 'ISO-2']);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain(`# ISO-2 (MUST) ${ruleById('ISO-2').statement}`);
    // A newline in a title cannot start a line of its own (it would be read as an id, or comment out the next one).
    expect(text.split('\n').filter((l) => !l.startsWith('#') && l.trim() !== '').sort()).toEqual(['FMT-3', 'ISO-2']);
  });

  it('lists warned rules too under --strict, and says when nothing failed', () => {
    expect([...readBaseline(writeTo('strict.txt', baselineText(reportOf(TESTS, true))))].sort()).toEqual(['FMT-3', 'ISO-2', 'MAL-2']);
    const empty = baselineText(reportOf([test('CRUD-1', 'x', 'pass')]));
    expect(empty).toContain('# No rule failed');
    expect([...readBaseline(writeTo('empty.txt', empty))]).toEqual([]);
  });

  it('refuses a directory and a symbolic link, before the run and when writing (a FIFO: test/e2e/loop-commands.test.ts)', () => {
    const sub = join(dir, 'a-dir');
    mkdirSync(sub);
    expect(() => checkBaselineTarget(sub, 'a-dir')).toThrow(ConfigError);
    expect(writeBaseline(sub, 'a-dir', reportOf(TESTS))).toMatch(/a-dir is a directory/);
    expect(() => readBaseline(sub)).toThrow(/not a regular file/);
    symlinkSync(join(dir, 'baseline.txt'), join(dir, 'link'));
    expect(() => checkBaselineTarget(join(dir, 'link'), 'link')).toThrow(/symbolic link/);
    expect(() => checkBaselineTarget(join(dir, 'new.txt'), 'new.txt')).not.toThrow();
  });
});

function writeTo(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe('--last-failed', () => {
  it('selects the failed and warned tests, and the test that saw evidence of another rule, with its rule', () => {
    const selection = brokenSelection(reportOf(TESTS));
    expect([...(selection.rules ?? [])].sort()).toEqual(['CRUD-1', 'FMT-3', 'ISO-2', 'MAL-2']);
    expect([...(selection.titles ?? [])].sort()).toEqual([TESTS[0]!.title, TESTS[1]!.title, TESTS[2]!.title].sort());
  });

  it('reads conformance.json of the report directory, for the same target (a trailing slash aside)', () => {
    const reports = join(dir, 'reports-same');
    mkdirSync(reports);
    writeFileSync(join(reports, 'conformance.json'), JSON.stringify(reportOf(TESTS)));
    expect([...(lastFailed(reports, 'reports-same', 'http://h.example/v1/').selection.titles ?? [])]).toHaveLength(3);
  });

  it('says in one line what it selected and from which run: when it started, its target, seed and verdict, the file, the rules and the tests', () => {
    const reports = join(dir, 'reports-line');
    mkdirSync(reports);
    const report = reportOf(TESTS);
    writeFileSync(join(reports, 'conformance.json'), JSON.stringify(report));
    const { line } = lastFailed(reports, 'reports-line', 'http://h.example/v1');
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toMatch(/^--last-failed: rerunning 3 tests of CRUD-1, FMT-3, ISO-2, MAL-2 that failed or warned in the run of 1970-01-01T00:00:00.000Z against http:\/\/h.example\/v1 \(seed 7, NOT CONFORMANT; reports-line\/conformance.json\): /);
    // Each selected title, quoted; the newline a title holds is escaped, never a second line.
    for (const t of [TESTS[0]!, TESTS[1]!, TESTS[2]!]) expect(line).toContain(JSON.stringify(t.title));
    expect(line).not.toContain(TESTS[3]!.title.slice(6));
  });

  it('names at most five tests, then how many more, and escapes what a report file holds for the terminal', () => {
    const many = Array.from({ length: 8 }, (_, i) => test('PAGE-3', `walk ${i} \u001b[31mred`, 'fail'));
    const line = lastFailedLine(reportOf(many), brokenSelection(reportOf(many)), 'r/conformance.json');
    expect(line).toContain('rerunning 8 tests of PAGE-3');
    expect(line).toMatch(/, and 3 more$/);
    expect(line).not.toContain('\u001b');
  });

  it('is one line when there is no previous run, it was against another target, the file is no report, or nothing broke', () => {
    const none = join(dir, 'reports-none');
    mkdirSync(none);
    expect(() => lastFailed(none, 'reports-none', 'http://h.example/v1')).toThrow(/--last-failed: no previous run in reports-none/);
    const other = join(dir, 'reports-other');
    mkdirSync(other);
    writeFileSync(join(other, 'conformance.json'), JSON.stringify(reportOf(TESTS)));
    expect(() => lastFailed(other, 'reports-other', 'embedded reference server')).toThrow(/was against "http:\/\/h.example\/v1", not "embedded reference server"/);
    const broken = join(dir, 'reports-broken');
    mkdirSync(broken);
    writeFileSync(join(broken, 'conformance.json'), '{"suite":');
    expect(() => lastFailed(broken, 'reports-broken', 'http://h.example/v1')).toThrow(/--last-failed: .*not JSON/);
    const clean = join(dir, 'reports-clean');
    mkdirSync(clean);
    writeFileSync(join(clean, 'conformance.json'), JSON.stringify(reportOf([test('CRUD-1', 'x', 'pass')])));
    expect(() => lastFailed(clean, 'reports-clean', 'http://h.example/v1')).toThrow(/failed and warned nothing: nothing to rerun/);
  });
});
