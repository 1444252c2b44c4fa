/**
 * The console a CI log receives (report/console-report.ts, cli/run/summary.ts): ten failing rules
 * with long evidence, a SHOULD warning repeated many times, a known failure, an inconclusive
 * rule: each failure printed once with its evidence, a second attempt as one line, every line
 * bounded, no JSON dump, one summary and one verdict line; colour only when asked.
 */
import { describe, expect, it } from 'vitest';
import { colourWanted, settleColour } from '../../../src/cli/run/colour.ts';
import { renderSummary } from '../../../src/cli/run/summary.ts';
import type { Exchange } from '../../../src/shared/exchange.ts';
import { ANSI_PAINT, LINE_MAX, NO_PAINT, replayLines } from '../../../src/report/console-report.ts';
import type { CleanupReport, FailureReport, TestOutcome } from '../../../src/report/model.ts';
import { ruleById, RULES } from '../../../src/rules.ts';
import { outcomesOf, reportOf, testOf } from '../support/report.ts';

const FAILING = ['FMT-1', 'FMT-2', 'CRUD-1', 'CRUD-4', 'CRUD-5', 'DEL-1', 'ISO-2', 'AUTH-1', 'AUTH-2', 'MAL-1'];

const huge = (n: number): string => `{"name":"${'x'.repeat(n)}","nested":{"a":[1,2,3]}}`;

function exchange(i: number): Exchange {
  return {
    request: { method: 'POST', url: `http://127.0.0.1:1/v1/widgets?i=${i}`, headers: { 'content-type': 'application/json', authorization: 'Bearer [redacted]' }, body: huge(2000) },
    response: { status: 500, statusText: 'Internal Server Error', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: 'x'.repeat(5000), stack: ['a', 'b'] }, null, 2) },
    durationMs: 12,
  } as unknown as Exchange;
}

function failure(rule: string, i: number): FailureReport {
  const xs = [exchange(i), exchange(i + 1), exchange(i + 2)];
  return {
    message: `${rule} failed`,
    expected: `a 201 with the widget\n${'e'.repeat(900)}`,
    received: `500 with ${huge(3000)}\nsecond line\nthird\nfourth\nfifth\nsixth`,
    note: 'n'.repeat(700),
    exchanges: xs,
    curl: xs.map((_x, j) => `printf '${huge(1500)}' | curl --silent --request 'POST' --header 'authorization: Bearer '"\${WIDGET_TOKEN}" --data-binary @- 'http://127.0.0.1:1/v1/widgets?i=${i + j}'`),
  };
}

function failingTests(rule: string): TestOutcome[] {
  return [0, 1, 2, 3].map((i) => testOf(rule, 'fail', { title: `${rule} check ${i} ${'t'.repeat(400)}`, failures: [failure(rule, i)], messages: [`${rule} failed`] }));
}

function tenFailures() {
  const tests: TestOutcome[] = RULES.filter((r) => !FAILING.includes(r.id) && !['PAGE-8', 'PAGE-1', 'DEL-2'].includes(r.id)).map((r) => testOf(r.id, 'pass'));
  for (const id of FAILING) tests.push(...failingTests(id));
  const rule8 = ruleById('PAGE-8');
  // PAGE-8 repeats its rule text in each of its 21 warnings.
  for (let i = 0; i < 21; i += 1) tests.push(testOf('PAGE-8', 'warn', { title: `PAGE-8 bad limit ${i}`, warnings: [`PAGE-8 (SHOULD, ${rule8.section}): ${rule8.statement} | expected: a 4xx for limit=${i} | received: 500 ${'w'.repeat(400)}`] }));
  tests.push(testOf('PAGE-1', 'fail', { title: 'PAGE-1 pages' }));
  tests.push(testOf('DEL-2', 'inconclusive', { title: 'DEL-2 reuse', dependsOn: ['CRUD-4'], messages: [`no verdict: ${JSON.stringify({ deeply: { nested: 'object' } }, null, 2)}`] }));
  const outcomes = outcomesOf(tests);
  // The second attempt: CRUD-1 passed again (intermittent), the rest failed the same.
  const rules = outcomes.rules.map((r) =>
    FAILING.includes(r.rule.id) ? { ...r, secondAttempt: { outcome: r.rule.id === 'CRUD-1' ? ('pass' as const) : ('fail' as const), tests: [] }, ...(r.rule.id === 'CRUD-1' ? { intermittent: true } : {}) } : r,
  );
  return reportOf({ ...outcomes, rules }, { exitCode: 1, baseline: { file: 'known.txt', ids: new Set(['PAGE-1']) } });
}

const EXTRA = { seconds: 12.5, reports: ['reports/conformance.md'], settingsFile: 'none', cleanup: 'nothing left behind' };

describe('the console of a run with ten failing rules', () => {
  const report = tenFailures();
  const text = renderSummary(report, EXTRA);
  const lines = text.split('\n');

  it('prints each failing rule once, as a FAIL, with its evidence and one second-attempt line', () => {
    for (const id of FAILING) {
      expect(lines.filter((l) => l.startsWith(`✗ FAIL ${id} `)), id).toHaveLength(1);
      // Its first test's title appears once: no second dump of the same failure.
      expect(lines.filter((l) => l.includes(`${id} check 0`)), `${id}: the first test`).toHaveLength(1);
    }
    expect(lines.filter((l) => l.trim() === 'same on the second attempt (same seed)')).toHaveLength(9);
    expect(lines.filter((l) => l.includes('intermittent: failed on the first attempt, passed on the second (same seed); still a failure'))).toHaveLength(1);
    expect(text).toMatch(/ {6}expected: a 201 with the widget/);
    expect(text).toMatch(/ {6}received: 500 with /);
    expect(text).toContain('(2 more lines in conformance.md)');
    expect(text).toContain('exchanges (last 2 of 3; all in conformance.html):');
    expect(text).toContain('curl (the last request; tokens from the environment):');
  });

  it('bounds every line, and says where the rest is', () => {
    const long = lines.filter((l) => l.length > LINE_MAX);
    expect(long).toEqual([]);
    expect(text).toContain('…, full text in conformance.md');
    // At most about 30 lines a failing rule, whatever its evidence: 2,141 lines for ten rules was the complaint.
    expect(lines.length, 'a short log').toBeLessThan(FAILING.length * 30 + 40);
  });

  it('dumps no JSON: no line is a JSON document or a piece of a pretty-printed one', () => {
    for (const l of lines) {
      expect(l, 'pretty-printed JSON').not.toMatch(/^\s*[{}[\]],?$|^\s*"[\w-]+": /);
    }
    expect(text).not.toContain('"deeply": {');
  });

  it('marks the warning WARN (never ✓ or FAIL), once, without repeating its rule text', () => {
    const page8 = lines.filter((l) => l.includes('PAGE-8'));
    expect(page8).toHaveLength(1);
    expect(page8[0]).toMatch(/^ {2}! WARN PAGE-8 +SHOULD expected: a 4xx for limit=0 \| received: 500 w+.*\(21 warnings in all: conformance\.md\)$/);
    expect(text.split(ruleById('PAGE-8').statement).length - 1).toBe(0);
    expect(text).not.toContain('✓');
  });

  it('marks the known failure KNOWN under its own heading, never FAIL', () => {
    expect(text).toContain('Known failures (in the baseline, not failing the run): PAGE-1');
    expect(lines.filter((l) => l.includes('PAGE-1') && l.includes('FAIL'))).toEqual([]);
    expect(text).toMatch(/~ KNOWN PAGE-1 +MUST /);
  });

  it('has one summary and one verdict line, in the suite\'s words, and no test runner\'s summary', () => {
    expect(lines.filter((l) => l.startsWith('Rules ('))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('Verdict: '))).toEqual([`Verdict: NOT CONFORMANT: 10 rules failed: ${FAILING.slice(0, 8).join(', ')} and 2 more`]);
    expect(text).not.toMatch(/Test Files|Tests +\d+ (passed|failed)/);
  });
});

describe('replay commands', () => {
  it('are shown whole, split between options outside quotes, each line ending in a backslash but the last', () => {
    const command = `curl --silent --request 'GET' --header 'x-odd: a --b c' --header 'authorization: Bearer '"\${WIDGET_TOKEN}" ${'--header \'accept: application/json\' '.repeat(6)}'http://127.0.0.1:1/v1/widgets'`;
    const lines = replayLines(command, '  ');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(0, -1).every((l) => l.endsWith(' \\'))).toBe(true);
    const joined = lines.map((l) => l.trim().replace(/ \\$/, '')).join(' ');
    expect(joined).toBe(command);
    expect(lines.some((l) => l.includes("'x-odd: a --b c'"))).toBe(true);
  });
});

describe('colour', () => {
  it('NO_COLOR (any non-empty value) and FORCE_COLOR=0 or false mean none; FORCE_COLOR otherwise means colour; else a terminal decides', () => {
    expect(colourWanted({ NO_COLOR: '1' }, true)).toBe(false);
    expect(colourWanted({ NO_COLOR: '' }, true)).toBe(true);
    expect(colourWanted({ FORCE_COLOR: '0' }, true)).toBe(false);
    expect(colourWanted({ FORCE_COLOR: 'false' }, true)).toBe(false);
    expect(colourWanted({ FORCE_COLOR: '1' }, false)).toBe(true);
    expect(colourWanted({ FORCE_COLOR: '' }, false)).toBe(true);
    expect(colourWanted({}, false)).toBe(false);
    expect(colourWanted({ NO_COLOR: 'yes', FORCE_COLOR: '1' }, true)).toBe(false);
  });

  it('FORCE_COLOR=0 is taken out of the environment before vitest reads it, and NO_COLOR put in', () => {
    const env: Record<string, string | undefined> = { FORCE_COLOR: '0' };
    expect(settleColour(env, true)).toBe(NO_PAINT);
    expect(env).toEqual({ NO_COLOR: '1' });
    const forced: Record<string, string | undefined> = { FORCE_COLOR: '1' };
    expect(settleColour(forced, false)).toBe(ANSI_PAINT);
    expect(forced).toEqual({ FORCE_COLOR: '1' });
  });

  it('colours only the suite\'s own marks and verdict; server text stays escaped', () => {
    const report = tenFailures();
    const coloured = renderSummary(report, EXTRA, ANSI_PAINT);
    expect(coloured).toContain('\u001b[31m✗ FAIL\u001b[39m FMT-1');
    expect(coloured).toMatch(/Verdict: \u001b\[31m\u001b\[1mNOT CONFORMANT/);
    expect(renderSummary(report, EXTRA)).not.toContain('\u001b');
  });
});

describe('what the console says of the widget a failure\'s curl names', () => {
  const url = (id: string): string => `http://127.0.0.1:1/v1/widgets/${id}`;
  const retrieve = (id: string): Exchange => ({ request: { method: 'GET', url: url(id), headers: {} }, response: { status: 200, headers: {}, body: '{}' }, durationMs: 1 }) as unknown as Exchange;
  const consoleOf = (id: string, runWidgets: string[], cleanup: CleanupReport): string => {
    const failureOf: FailureReport = { message: 'ISO-2 failed', expected: 'a 4xx', received: '200', exchanges: [retrieve(id)], curl: [`curl '${url(id)}'`], runWidgets };
    const replay = { file: 'replay/ISO-2-1.json', command: 'npx --no-install widget-conformance replay reports/replay/ISO-2-1.json', content: {} as never };
    const report = reportOf(outcomesOf([testOf('ISO-2', 'fail', { failures: [failureOf], replay })]), { exitCode: 1, cleanup });
    return renderSummary(report, EXTRA);
  };
  const verified: CleanupReport = { deleted: 1, problems: [], leftovers: [], verified: true };

  it('a widget of the run deleted at the end: the curl gets a deleted widget\'s answer now, and the replay runs the test again', () => {
    const text = consoleOf('w1', ['w1'], verified);
    expect(text).toContain('(the widget it names, "w1", was deleted by the run: sent now, the request gets the answer for a deleted widget; the replay command below runs the test again, its widgets made afresh)');
    expect(text).toContain('      replay: npx --no-install widget-conformance replay reports/replay/ISO-2-1.json');
  });

  it('kept by --keep-failing, or not proven gone: said so', () => {
    expect(consoleOf('w1', ['w1'], { ...verified, verified: false, kept: [{ account: 'primary', id: 'w1', reason: 'kept' }] })).toContain('"w1", was kept by --keep-failing');
    expect(consoleOf('w1', ['w1'], { ...verified, verified: false, leftovers: [{ account: 'primary', id: 'w1', reason: 'x' }] })).toContain('"w1", was not proven gone at cleanup: see the Cleanup line');
  });

  it('nothing for an id that was never the run\'s widget (a made-up id, another account\'s): its answer is what it was', () => {
    expect(consoleOf('wcs-unknown-1', [], verified)).not.toContain('the widget it names');
  });
});
