/**
 * Requests counted for the test that sent them (harness/request-tally.ts), the cleanup of a widget
 * for the test that created it, and the runner's figures built from the workers' tallies
 * (cli/run/request-account.ts): the accounting conformance.json and the bench show.
 */
import { describe, expect, it } from 'vitest';
import { RequestTally, type RequestTallyData } from '../../../src/harness/request-tally.ts';
import { TestScopes } from '../../../src/harness/test-scope.ts';
import { requestAccount, withRequests } from '../../../src/cli/run/request-account.ts';
import type { RunOutcomes, TestOutcome } from '../../../src/report/model.ts';
import { ruleById } from '../../../src/rules.ts';
import { requestsPerRule, requestsTable } from '../../../tools/requests-per-rule.ts';

const BASE = 'http://127.0.0.1:1/v1';

/** A tally over its own scopes, and a way to run code as a test of it. */
function tallied(): { tally: RequestTally; as: <T>(title: string, body: () => Promise<T>) => Promise<T> } {
  const scopes = new TestScopes();
  return { tally: new RequestTally(scopes), as: (title, body) => scopes.run({ title, rule: title.split(' ')[0]!, evidence: () => undefined }, body) };
}

describe('RequestTally', () => {
  it('counts each request for the test whose code sent it, across awaits and concurrent tests', async () => {
    const { tally, as } = tallied();
    const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
    await Promise.all([
      as('A-1 a', async () => {
        tally.sent(`${BASE}/widgets`);
        await tick();
        tally.sent(`${BASE}/widgets`);
      }),
      as('B-1 b', async () => {
        await tick();
        tally.sent(`${BASE}/widgets?limit=1`);
      }),
    ]);
    expect(tally.data.tests).toEqual({ 'A-1 a': { sent: 2, cleanup: 0 }, 'B-1 b': { sent: 1, cleanup: 0 } });
    expect(tally.data.unowned).toBe(0);
  });

  it("counts what is sent outside every test for the test that created the widget in the path, anything else as no test's", async () => {
    const { tally, as } = tallied();
    await as('A-1 a', async () => tally.created('a b/c'));
    // The cleanup: the proof, the DELETE and the retrieve proving it gone, after the test ended.
    for (let i = 0; i < 3; i++) tally.sent(`${BASE}/widgets/${encodeURIComponent('a b/c')}`);
    tally.sent(`${BASE}/widgets`);
    tally.sent(`${BASE}/widgets/never-created`);
    tally.sent(`${BASE}/widgets/%E0%A4`);
    expect(tally.data).toEqual({ tests: { 'A-1 a': { sent: 0, cleanup: 3 } }, unowned: 3 });
  });

  it('keeps the first creator of an id, and notes no creator outside a test', async () => {
    const { tally, as } = tallied();
    tally.created('x');
    await as('A-1 a', async () => tally.created('y'));
    await as('B-1 b', async () => tally.created('y'));
    tally.sent(`${BASE}/widgets/x`);
    tally.sent(`${BASE}/widgets/y`);
    expect(tally.data).toEqual({ tests: { 'A-1 a': { sent: 0, cleanup: 1 } }, unowned: 1 });
  });
});

function test(rule: string, title: string): TestOutcome {
  return { rule, title, file: 'suites/x.test.ts', outcome: 'pass', messages: [], failures: [], warnings: [], durationMs: 1 };
}

describe('the runner adds the workers\' tallies up', () => {
  const a = test('CRUD-1', 'CRUD-1 a');
  const b = test('CRUD-1', 'CRUD-1 b');
  const c = test('FMT-1', 'FMT-1 c');
  const outcomes: RunOutcomes = { tests: [a, b, c], rules: [{ rule: ruleById('CRUD-1'), outcome: 'pass', tests: [a, b] }, { rule: ruleById('FMT-1'), outcome: 'pass', tests: [c] }], suiteErrors: [] };
  const tallies: RequestTallyData[] = [
    { tests: { 'CRUD-1 a': { sent: 2, cleanup: 3 }, 'FMT-1 c': { sent: 1, cleanup: 0 } }, unowned: 4 },
    { tests: { 'CRUD-1 a': { sent: 1, cleanup: 0 } }, unowned: 0 },
  ];

  it('gives each test its requests, in the tests and in the rules alike, and the attempt its totals', () => {
    const counted = withRequests(outcomes, tallies);
    expect(counted.tests.map((t) => t.requests)).toEqual([{ sent: 3, cleanup: 3 }, undefined, { sent: 1, cleanup: 0 }]);
    expect(counted.rules[0]!.tests[0]!.requests).toEqual({ sent: 3, cleanup: 3 });
    expect(counted.requests).toEqual({ tests: 4, cleanup: 7 });
  });

  it('puts the rest of the total on the runner and the second attempt, never below zero', () => {
    expect(requestAccount(20, 5, { tests: 4, cleanup: 7 })).toEqual({ tests: 4, cleanup: 7, runner: 5, secondAttempt: 4 });
    expect(requestAccount(5, 5, undefined)).toEqual({ tests: 0, cleanup: 0, runner: 5, secondAttempt: 0 });
  });

  it('the bench adds them up per rule, the costliest first, with the runner\'s apart', () => {
    const counted = withRequests(outcomes, tallies);
    const report = {
      requests: 20,
      requestsBy: requestAccount(20, 5, counted.requests),
      rules: counted.rules.map((r) => ({ id: r.rule.id, tests: r.tests.map((t) => (t.requests ? { requests: t.requests } : {})) })),
    };
    expect(requestsPerRule(report)).toEqual([{ rule: 'CRUD-1', sent: 3, cleanup: 3 }, { rule: 'FMT-1', sent: 1, cleanup: 0 }]);
    const table = requestsTable(report);
    expect(table).toContain('| CRUD-1 | 3 | 3 | 6 |');
    expect(table).toContain("| (workers, no test's) | | 4 | 4 |");
    expect(table).toContain('| (runner: first contact, inventory, final cleanup) | | | 5 |');
    expect(table).toContain('| (second attempt) | | | 4 |');
    expect(table).toContain('| **all** | | | **20** |');
  });
});
