/**
 * PROP-1, PROP-2, PROP-3 shrinking: one counterexample is shrunk, alone, within a budget of
 * requests and time; the report says when shrinking was cut short, when every input failed the
 * same way, and when the failure did not recur; the fast-check path is printed compactly.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InconclusiveError } from '../../../src/errors.ts';
import { ConformanceFailure } from '../../../src/harness/failure.ts';
import { checkProperty, compactPath, failureShape, type ShrinkBudget } from '../../../src/harness/property.ts';
import type { RuleContext } from '../../../src/harness/rule.ts';
import { Redactor } from '../../../src/shared/redact.ts';
import { ruleById } from '../../../src/rules.ts';
import { expectRefusal } from '../../../src/harness/property-refusals.ts';

const RUNS = 40;
const SEEDS = [1, 42, -7];
/** Never reached here: shrinking runs to its end. */
const AMPLE: ShrinkBudget = { requests: 1_000_000, ms: 60_000 };
/** Requests each try of the fake properties "sends". */
const REQUESTS_PER_TRY = 10;
/** The limit of the fake server: values above it fail. */
const LIMIT = 1000;

/** A rule test's context with a request counter that the fake predicates advance. */
function context(seed = 42): { t: RuleContext; stats: { requests: number } } {
  const stats = { requests: 0 };
  const t = {
    rule: ruleById('PROP-1'),
    settings: { seed, runs: RUNS, concurrency: 1, propertyBudgetMs: 60_000, targetLabel: 'embedded reference server' },
    api: { http: { redactor: new Redactor([]), stats } },
    annotate: async () => {},
  };
  return { t: t as unknown as RuleContext, stats };
}

const fail = (expected: string, received: string): never => {
  throw new ConformanceFailure(ruleById('PROP-1'), { expected, received }, new Redactor([]));
};

/** The failure message of a property that rejects; fails the test if it resolves. */
async function failureOf(promise: Promise<void>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error, 'the property fails').toBeInstanceOf(ConformanceFailure);
  return (error as Error).message;
}

describe('compactPath', () => {
  it('prints a short path whole', () => {
    expect(compactPath('12:1:0')).toBe('12:1:0');
  });

  it('prints a long path as its first and last segments and its length', () => {
    const path = ['3', ...Array.from({ length: 300 }, () => '1'), '2'].join(':');
    expect(compactPath(path)).toBe('3:1:1:…:1:2 (302 steps)');
  });
});

describe('failureShape', () => {
  it('is the same for failures that differ only in their generated values', () => {
    const a = new ConformanceFailure(ruleById('PROP-1'), { expected: 'name "a\\"b" [U+00E9] back after 3 tries', received: 'x' }, new Redactor([]));
    const b = new ConformanceFailure(ruleById('PROP-1'), { expected: 'name "zz" back after 12 tries', received: 'y' }, new Redactor([]));
    expect(failureShape(a)).toBe(failureShape(b));
    const other = new ConformanceFailure(ruleById('PROP-1'), { expected: 'nothing created', received: 'y' }, new Redactor([]));
    expect(failureShape(other)).not.toBe(failureShape(a));
  });
});

describe('checkProperty shrinking', () => {
  it('PROP-1 shrinks to the smallest failing value, from every seed, and says nothing of budgets', async () => {
    for (const seed of SEEDS) {
      const { t, stats } = context(seed);
      const message = await failureOf(checkProperty(t, 'limit', [fc.integer({ min: 0, max: 1_000_000 })], async (n) => {
        stats.requests += REQUESTS_PER_TRY;
        if (n > LIMIT) fail(`${LIMIT} or less`, `${n}`);
      }, { shrinkBudget: AMPLE }));
      expect(message, `seed ${seed}`).toContain(`received: ${LIMIT + 1}`);
      expect(message).not.toContain('cut short');
      expect(message).not.toContain('every generated input');
    }
  });

  it('PROP-1 stops shrinking at the request budget and reports the smallest counterexample so far', async () => {
    const { t, stats } = context();
    let triesAfterBudget = 0;
    const budget: ShrinkBudget = { requests: 5 * REQUESTS_PER_TRY, ms: 60_000 };
    const message = await failureOf(checkProperty(t, 'limit', [fc.integer({ min: 0, max: 1_000_000 })], async (n) => {
      if (stats.requests >= 100 * REQUESTS_PER_TRY) triesAfterBudget += 1;
      stats.requests += REQUESTS_PER_TRY;
      if (n > LIMIT) fail(`${LIMIT} or less`, `${n}`);
    }, { shrinkBudget: budget }));
    expect(message).toMatch(/shrinking was cut short after \d+ request\(s\) and [\d.]+ s \(budget: 50 requests or 60 s per property\)/);
    const received = Number(/received: (\d+)/.exec(message)![1]);
    expect(received, 'a failing value').toBeGreaterThan(LIMIT);
    expect(triesAfterBudget).toBe(0);
  });

  it('PROP-1 stops shrinking at the time budget', async () => {
    const { t } = context();
    const message = await failureOf(checkProperty(t, 'limit', [fc.integer({ min: 0, max: 1_000_000 })], async (n) => {
      if (n > LIMIT) fail(`${LIMIT} or less`, `${n}`);
    }, { shrinkBudget: { requests: 1_000_000, ms: 0 } }));
    expect(message).toContain('shrinking was cut short');
  });

  it('PROP-1 says when every generated input failed the same way, and shows the simplest', async () => {
    const { t } = context();
    const message = await failureOf(checkProperty(t, 'always', [fc.array(fc.string(), { minLength: 1, maxLength: 4 })], async (values) => {
      fail('a 2xx for a create', `500 for ${JSON.stringify(values)}`);
    }, { shrinkBudget: AMPLE }));
    expect(message).toMatch(/every generated input failed the same way \(\d+ of \d+ tries, shrinking included\): shown is the simplest/);
    expect(message).toContain('received: 500 for [""]');
  });

  it('PROP-1 does not say so when some input passed', async () => {
    const { t } = context();
    const message = await failureOf(checkProperty(t, 'limit', [fc.integer({ min: 0, max: 1_000_000 })], async (n) => {
      if (n > LIMIT) fail(`${LIMIT} or less`, `${n}`);
    }, { shrinkBudget: AMPLE }));
    expect(message).not.toContain('every generated input');
  });

  it('PROP-3 reports the run unshrunk when its failure does not recur on replay (it depended on the server\'s state)', async () => {
    const { t } = context();
    let failedOnce = false;
    const message = await failureOf(checkProperty(t, 'state', [fc.integer()], async (n) => {
      if (!failedOnce) {
        failedOnce = true;
        fail('a fresh id', `a reused id after ${n}`);
      }
    }, { shrinkBudget: AMPLE }));
    expect(message).toContain("not shrunk: the failing run passed when replayed (the failure depends on the server's state, not on the input alone)");
  });

  it('PROP-1 reports the same shrunk counterexample whatever the timing of the shards', async () => {
    const run = async (delays: boolean): Promise<string> => {
      const { t } = context();
      return failureOf(checkProperty(t, 'limit', [fc.integer({ min: 0, max: 1_000_000 })], async (n) => {
        if (delays) await new Promise<void>((resolve) => setTimeout(resolve, n % 7));
        if (n > LIMIT) fail(`${LIMIT} or less`, `${n}`);
      }, { shrinkBudget: AMPLE }));
    };
    expect(await run(true)).toBe(await run(false));
  });

  it('PROP-1 stops the later shards once an earlier one failed', async () => {
    const { t } = context();
    let tries = 0;
    await failureOf(checkProperty(t, 'always', [fc.integer()], async () => {
      tries += 1;
      fail('anything else', 'this');
    }, { shrinkBudget: AMPLE }));
    // At most one try per shard in the search, then the shrinking of shard 1 alone (an integer shrinks in a few dozen steps).
    expect(tries).toBeLessThan(RUNS);
  });

  it('PROP-1 ends inconclusive when it held but a refusal body was another rule\'s fault, and fails when it did not hold', async () => {
    const { t } = context();
    const withoutCode = { status: 400, headers: {}, text: '{}', json: { message: 'no' }, exchange: {} } as never;
    const evidence: Array<{ rule: string; received: string; exchanges?: unknown[] }> = [];
    const checkT = Object.assign(t, {
      check: (ok: boolean, detail: () => { expected: string; received: string }) => { if (!ok) fail(detail().expected, detail().received); },
      evidence: (rule: string, detail: { received: string; exchanges?: unknown[] }) => void evidence.push({ rule, ...detail }),
    });
    const held = checkProperty(checkT, 'refusals', [fc.integer()], async () => expectRefusal(checkT, withoutCode, 'a create whose name is "x"'), { shrinkBudget: AMPLE });
    const error = await held.then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(InconclusiveError);
    expect((error as InconclusiveError).dependsOn).toEqual(['FMT-2']);
    expect((error as Error).message).toContain('depends on FMT-2');
    // The rule it depends on gets the refusal as its evidence: "depends on FMT-2, which passed" cannot happen.
    expect(evidence.map((e) => e.rule)).toEqual(['FMT-2']);
    expect(evidence[0]?.received).toMatch(/^400 with a body that is not an Error object/);
    expect(evidence[0]?.exchanges).toHaveLength(1);
    // The same body with a 5xx: the refusal itself is wrong, which is PROP-1's to judge.
    const serverError = { status: 500, headers: {}, text: '{}', json: { message: 'no' }, exchange: {} } as never;
    const message = await failureOf(checkProperty(checkT, 'refusals', [fc.integer()], async () => expectRefusal(checkT, serverError, 'a create whose name is "x"'), { shrinkBudget: AMPLE }));
    expect(message).toContain('expected: a 4xx status for a create whose name is "x"');
    expect(message).toContain('received: 500 (5xx)');
  });
});
