/**
 * Property seeding: a run replays from its seed alone. Every property, and every shard of it,
 * draws from a seed derived from the run seed and the property's name, never from how the run
 * was scheduled (--concurrency).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InconclusiveError } from '../../../src/errors.ts';
import { ConformanceFailure } from '../../../src/harness/failure.ts';
import { budgetSpent, checkProperty, PROPERTY_BUDGET_CAP_MS, PROPERTY_BUDGET_REQUESTS, PROPERTY_SHARDS, propertySeed, propertyTimeBound, shardRuns } from '../../../src/harness/property.ts';
import type { RuleContext } from '../../../src/harness/rule.ts';
import { Redactor } from '../../../src/shared/redact.ts';
import { localSuiteCommand } from '../../../src/report/rerun.ts';
import { ruleById } from '../../../src/rules.ts';

const RUN_SEED = 42;
const OTHER_RUN_SEED = 43;
const RUNS = 40;
/** Long enough that no property here is ever cut short by its budget. */
const BUDGET_MS = 60_000;
const FEW_CONCURRENT = 1;
const MANY_CONCURRENT = 16;

interface Fake {
  readonly t: RuleContext;
  /** What the property annotated, e.g. "40 of 40" runs. */
  readonly notes: string[];
}

/** The part of a rule test's context a property reads. */
function context(opts: { seed?: number; runs?: number; concurrency?: number; rule?: string } = {}): Fake {
  const notes: string[] = [];
  const t = {
    rule: ruleById(opts.rule ?? 'PROP-1'),
    settings: { seed: opts.seed ?? RUN_SEED, runs: opts.runs ?? RUNS, concurrency: opts.concurrency ?? FEW_CONCURRENT, propertyBudgetMs: BUDGET_MS, targetLabel: 'embedded reference server' },
    api: { http: { redactor: new Redactor([]) } },
    annotate: async (message: string) => void notes.push(message),
  };
  return { t: t as unknown as RuleContext, notes };
}

/** Every value the property drew, sorted: shards run side by side, so the order of arrival varies. */
async function drawn(fake: Fake, key = 'round-trip'): Promise<number[]> {
  const values: number[] = [];
  await checkProperty(fake.t, key, [fc.noBias(fc.integer())], async (n) => {
    // Let the shards interleave, as they do against a server.
    await new Promise<void>((resolve) => setImmediate(resolve));
    values.push(n);
  });
  return values.sort((a, b) => a - b);
}

describe('propertySeed', () => {
  it('is the same for the same run seed and key', () => {
    expect(propertySeed(RUN_SEED, 'PROP-1:a#0')).toBe(propertySeed(RUN_SEED, 'PROP-1:a#0'));
  });

  it('is a 32-bit integer, as fast-check takes it', () => {
    const seed = propertySeed(RUN_SEED, 'PROP-1:a#0');
    expect(Number.isInteger(seed) && seed >= -(2 ** 31) && seed < 2 ** 31).toBe(true);
  });

  it('differs between run seeds and between keys', () => {
    const seeds = [propertySeed(RUN_SEED, 'PROP-1:a#0'), propertySeed(OTHER_RUN_SEED, 'PROP-1:a#0'), propertySeed(RUN_SEED, 'PROP-1:b#0'), propertySeed(RUN_SEED, 'PROP-1:a#1')];
    expect(new Set(seeds).size).toBe(seeds.length);
  });
});

describe('shardRuns', () => {
  it('splits every number of runs into shards that add up to it and differ by at most one', () => {
    for (let runs = 0; runs <= 3 * PROPERTY_SHARDS + 1; runs += 1) {
      const sizes = Array.from({ length: PROPERTY_SHARDS }, (_, i) => shardRuns(runs, PROPERTY_SHARDS, i));
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(runs);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    }
  });
});

describe('checkProperty', () => {
  it('a property that completes no run within its budget is inconclusive, saying so, never a pass', async () => {
    const fake = context();
    const t = { ...fake.t, settings: { ...fake.t.settings, propertyBudgetMs: 1, propertyBudgetGiven: true } } as unknown as RuleContext;
    const error = await checkProperty(t, 'slow', [fc.integer()], async () => {
      await new Promise<void>((resolve) => setTimeout(resolve, 50));
    }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(InconclusiveError);
    expect((error as Error).message).toMatch(new RegExp(`^no verdict: 0 of ${RUNS} runs of the property completed \\(stopped by the --property-budget of 1 ms\\); a larger --property-budget`));
    expect(fake.notes).toEqual([`0 of ${RUNS} (stopped by the --property-budget of 1 ms)`]);
  });

  it('by default, a property\'s budget is counted in the run\'s requests: a server that paces the run gets as many answers, not as many seconds', async () => {
    const fake = context({ runs: 400 });
    const stats = { requests: 0 };
    // Each run sends 100 requests, at the server's pace: the budget's floor of time is past at once.
    const t = { ...fake.t, api: { http: { redactor: new Redactor([]), stats } }, settings: { ...fake.t.settings, propertyBudgetMs: 1 } } as unknown as RuleContext;
    await checkProperty(t, 'paced', [fc.integer()], async () => {
      await new Promise<void>((resolve) => setTimeout(resolve, 2));
      stats.requests += 100;
    });
    const [note] = fake.notes;
    const completed = Number(/^(\d+) of 400/.exec(note ?? '')?.[1]);
    // Stopped once the run had sent the budget's requests: each shard ends the run it is in.
    expect(completed * 100).toBeGreaterThanOrEqual(PROPERTY_BUDGET_REQUESTS);
    expect(completed * 100).toBeLessThan(PROPERTY_BUDGET_REQUESTS + PROPERTY_SHARDS * 100 * 2);
    expect(note).toContain(`(stopped by its default budget: 0.001 s and ${PROPERTY_BUDGET_REQUESTS} requests of the run since it began, at most ${PROPERTY_BUDGET_CAP_MS / 1000} s (--property-budget sets a time instead))`);
  });

  it('draws the same values from the same run seed whatever the concurrency', async () => {
    expect(await drawn(context({ concurrency: MANY_CONCURRENT }))).toEqual(await drawn(context({ concurrency: FEW_CONCURRENT })));
  });

  it('draws other values from another run seed', async () => {
    expect(await drawn(context({ seed: OTHER_RUN_SEED }))).not.toEqual(await drawn(context()));
  });

  it('draws other values for another property of the same rule', async () => {
    expect(await drawn(context(), 'sequences')).not.toEqual(await drawn(context(), 'round-trip'));
  });

  it('draws other values for the same property name in another rule', async () => {
    expect(await drawn(context({ rule: 'PROP-2' }))).not.toEqual(await drawn(context({ rule: 'PROP-1' })));
  });

  it('gives each shard its own seed: no run repeats another', async () => {
    const values = await drawn(context());
    expect(new Set(values).size).toBe(RUNS);
  });

  it('makes exactly the runs asked for, when there are fewer runs than shards too', async () => {
    for (const runs of [1, PROPERTY_SHARDS - 1, RUNS]) {
      const fake = context({ runs });
      expect(await drawn(fake)).toHaveLength(runs);
      expect(fake.notes).toEqual([`${runs} of ${runs}`]);
    }
  });

  it('reports a failure with its shard, seed and path and the command that replays the rule', async () => {
    const fake = context();
    const rule = ruleById('PROP-1');
    const failing = checkProperty(fake.t, 'round-trip', [fc.integer()], async () => {
      throw new ConformanceFailure(rule, { expected: 'the name back', received: 'another name' }, new Redactor([]));
    });
    await expect(failing).rejects.toBeInstanceOf(ConformanceFailure);
    await expect(failing).rejects.toThrow(/fast-check: shard \d of \d failed at run \d+ of \d+; \d+ shrink\(s\); seed -?\d+, path \S+/);
    await expect(failing).rejects.toThrow(`replay: ${localSuiteCommand()} --only PROP-1 --seed ${RUN_SEED} --runs ${RUNS}`);
  });
});

describe('the property budget', () => {
  const FLOOR = 60_000;
  it('by default, stops only once its floor of time has passed and the run has sent the budget\'s requests since it began, and always at the cap', () => {
    const scaled = { propertyBudgetMs: FLOOR };
    expect(budgetSpent(scaled, FLOOR - 1, PROPERTY_BUDGET_REQUESTS * 10), 'a fast server: the floor holds').toBe(false);
    expect(budgetSpent(scaled, FLOOR, PROPERTY_BUDGET_REQUESTS)).toBe(true);
    // 20 requests per second: 3,000 requests take 150 s, and the property may run that long.
    expect(budgetSpent(scaled, 149_000, 20 * 149)).toBe(false);
    expect(budgetSpent(scaled, 150_000, 20 * 150)).toBe(true);
    expect(budgetSpent(scaled, PROPERTY_BUDGET_CAP_MS - 1, 1)).toBe(false);
    expect(budgetSpent(scaled, PROPERTY_BUDGET_CAP_MS, 1), 'bounded, whatever the pace').toBe(true);
    expect(propertyTimeBound(scaled)).toBe(PROPERTY_BUDGET_CAP_MS);
  });

  it('given explicitly (--property-budget), is that wall-clock time, whatever the requests', () => {
    const given = { propertyBudgetMs: FLOOR, propertyBudgetGiven: true };
    expect(budgetSpent(given, FLOOR - 1, PROPERTY_BUDGET_REQUESTS * 10)).toBe(false);
    expect(budgetSpent(given, FLOOR, 0)).toBe(true);
    expect(propertyTimeBound(given)).toBe(FLOOR);
  });
});
