/**
 * Runs a fast-check property inside a rule test: seeded from the run seed (every property
 * and shard derives its own, so a run replays from one number), bounded by --runs and a time budget,
 * and on failure a message with the shrunk counterexample, the seed, the fast-check path
 * and the command that replays just this rule.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { isSuiteError } from '../errors.ts';
import { ConformanceFailure } from './failure.ts';
import type { RuleContext } from './rule.ts';

/** The seed of one property, derived from the run seed and the property's key. */
export function propertySeed(runSeed: number, key: string): number {
  return createHash('sha256').update(`${runSeed}:${key}`).digest().readInt32LE(0);
}

/** The command that replays the rule with the same seed and runs. */
export function replayCommand(t: RuleContext): string {
  const s = t.settings;
  const target = s.targetLabel === 'embedded reference server'
    ? ''
    : ` --base-url ${s.baseUrl} --token "$WIDGET_TOKEN"${s.secondToken ? ' --second-token "$WIDGET_SECOND_TOKEN"' : ''}`;
  return `npm test --${target} --only ${t.rule.id} --seed ${s.seed} --runs ${s.runs}`;
}

/**
 * Each property's runs are split into this many shards, run side by side with seeds derived
 * from the run seed: a property's runs are sequential in fast-check, and a chain of runs one
 * after another would leave --concurrency unused against a slow server. Fixed (not tied to
 * --concurrency) so that --seed and --runs replay the same runs whatever the concurrency.
 */
export const PROPERTY_SHARDS = 4;

/** How many of `runs` the shard `index` of `shards` takes. */
export function shardRuns(runs: number, shards: number, index: number): number {
  return Math.floor(runs / shards) + (index < runs % shards ? 1 : 0);
}

/**
 * Checks the property; `key` names it among the rule's properties (it seeds it). Suite
 * errors (a timeout, a rate limit) end the property at once, without shrinking, as errors.
 */
export async function checkProperty<Ts extends [unknown, ...unknown[]]>(
  t: RuleContext,
  key: string,
  arbitraries: { [K in keyof Ts]: fc.Arbitrary<Ts[K]> },
  predicate: (...args: Ts) => Promise<void>,
): Promise<void> {
  let aborted: unknown;
  const property = fc.asyncProperty(...arbitraries, async (...args: Ts) => {
    // Once the suite cannot run, every further try passes: shrinking stops at once.
    if (aborted !== undefined) return;
    try {
      await predicate(...args);
    } catch (error) {
      if (isSuiteError(error)) aborted = error;
      throw error;
    }
  });
  const shards = Array.from({ length: PROPERTY_SHARDS }, (_, i) => ({ index: i, runs: shardRuns(t.settings.runs, PROPERTY_SHARDS, i) })).filter((sh) => sh.runs > 0);
  const results = await Promise.all(
    shards.map(async (sh) => ({
      ...sh,
      details: await fc.check(property, {
        seed: propertySeed(t.settings.seed, `${t.rule.id}:${key}#${sh.index}`),
        numRuns: sh.runs,
        interruptAfterTimeLimit: t.settings.propertyBudgetMs,
        markInterruptAsFailure: false,
      }),
    })),
  );
  const completed = results.reduce((n, r) => n + r.details.numRuns, 0);
  const interrupted = results.some((r) => r.details.interrupted);
  await t.annotate(`${completed} of ${t.settings.runs}${interrupted ? ` (stopped by the --property-budget of ${t.settings.propertyBudgetMs} ms)` : ''}`, 'runs');
  if (aborted !== undefined) throw aborted;
  const failed = results.find((r) => r.details.failed);
  if (!failed) return;
  const { details } = failed;
  const error = details.errorInstance;
  const replay = [
    `fast-check: shard ${failed.index + 1} of ${shards.length} failed after ${details.numRuns} run(s) and ${details.numShrinks} shrink(s); seed ${details.seed}, path ${details.counterexamplePath}`,
    `replay: ${replayCommand(t)}`,
  ].join('\n');
  if (error instanceof ConformanceFailure) {
    const note = [error.detail.note, replay].filter(Boolean).join('\n');
    throw new ConformanceFailure(error.rule, { ...error.detail, note }, t.api.http.redactor);
  }
  throw new Error(`${t.rule.id} property ${key} threw an unexpected error: ${(error as Error)?.message ?? String(error)}\n${replay}`);
}
