/**
 * Runs a fast-check property inside a rule test: seeded from the run seed (every property
 * and shard derives its own, so a run replays from one number), bounded by --runs and a budget
 * (budgetSpent below: requests at the server's pace by default, wall-clock time when
 * --property-budget is given), and on failure a message with the shrunk counterexample, the
 * seed, the fast-check path and the command that replays just this rule.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { InconclusiveError, isSuiteError } from '../errors.ts';
import { ConformanceFailure } from './failure.ts';
import { takeBodyDefect } from './property-refusals.ts';
import type { RuleContext } from './rule-context.ts';
import { localSuiteCommand, rerunCommand } from '../report/rerun.ts';
import { PROPERTY_BUDGET_CAP_MS, PROPERTY_BUDGET_REQUESTS } from '../config.ts';

/** The seed of one property, derived from the run seed and the property's key. */
export function propertySeed(runSeed: number, key: string): number {
  return createHash('sha256').update(`${runSeed}:${key}`).digest().readInt32LE(0);
}

/**
 * The command that replays the rule with the same seed and runs, starting with the suite command
 * of this process (report/rerun.ts: never one that fetches a package); the tokens come from
 * WIDGET_TOKEN and WIDGET_SECOND_TOKEN, never from the command line (npm would echo them).
 */
export function replayCommand(t: RuleContext): string {
  const s = t.settings;
  const embedded = s.targetLabel === 'embedded reference server';
  return rerunCommand({
    command: localSuiteCommand(),
    ...(embedded ? {} : { baseUrl: s.baseUrl }),
    seed: s.seed,
    runs: s.runs,
    strict: s.strict,
    withoutSecondToken: !embedded && s.secondToken === undefined,
  }, [t.rule.id]);
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

/** One shard of a property: its place, its runs (the first shard's include the examples) and its seed. */
export interface Shard {
  readonly index: number;
  readonly runs: number;
  readonly seed: number;
}

/**
 * The shards of the property `key` (rule id and property name, e.g. `PROP-1:name`): `runs`
 * random runs split PROPERTY_SHARDS ways, the first shard also running the `examples` first.
 * Pure, so that a test can draw exactly the values a run sends (property-power.test.ts).
 */
export function propertyShards(runSeed: number, key: string, runs: number, examples: number): Shard[] {
  return Array.from({ length: PROPERTY_SHARDS }, (_, i) => ({
    index: i,
    runs: shardRuns(runs, PROPERTY_SHARDS, i) + (i === 0 ? examples : 0),
    seed: propertySeed(runSeed, `${key}#${i}`),
  })).filter((sh) => sh.runs > 0);
}

/**
 * How long shrinking one property's counterexample may go on: each try is a round of requests
 * against the target, so shrinking is stopped after this many requests or this long, and the
 * smallest counterexample found so far is reported, saying that shrinking was cut short.
 * Generators that shrink well (arbitraries.ts) reach a minimal counterexample well within it.
 */
export const SHRINK_BUDGET: ShrinkBudget = { requests: 500, ms: 5_000 };

export interface ShrinkBudget {
  readonly requests: number;
  readonly ms: number;
}

export interface PropertyOptions<Ts = unknown> {
  /** The shrinking budget (default SHRINK_BUDGET). */
  readonly shrinkBudget?: ShrinkBudget;
  /**
   * Inputs tried on every run before the random ones (fast-check's `examples`): the stated
   * bounds, the values that trip truthiness and coercion, one value per class of character
   * servers mishandle. They run in the first shard on top of --runs (random runs), so every
   * run tries all of them whatever --runs says: they are what makes the named fault families
   * of test/unit/harness/property-power.test.ts met on every seed.
   */
  readonly examples?: readonly Ts[];
}

/** A path of more segments than this is printed as its first and last segments. */
const PATH_SHOWN = 8;

/** A fast-check path, compact: `12:1:0:…:3 (57 steps)` when long; --seed replays it whole. */
export function compactPath(path: string): string {
  const steps = path.split(':');
  if (steps.length <= PATH_SHOWN) return path;
  return `${steps.slice(0, 3).join(':')}:…:${steps.slice(-2).join(':')} (${steps.length} steps)`;
}

/**
 * What a failure says regardless of the generated values: the first line of its expectation
 * with quoted strings, code point lists and numbers masked. Two failures with the same shape
 * failed the same way.
 */
export function failureShape(error: unknown): string {
  const text = error instanceof ConformanceFailure ? error.detail.expected : error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!.replace(/"(?:[^"\\]|\\.)*"/g, '"…"').replace(/ ?\[U\+[^\]]*\]/g, '').replace(/\d+/g, 'N');
}

/**
 * The default budget of a property (no --property-budget given) is counted in requests, not
 * time: the property stops once the run has sent PROPERTY_BUDGET_REQUESTS requests since it
 * began, and not before --property-budget's default time (60 s) has passed. Against a fast server
 * that is the 60 s it always was; against one that paces the run (a rate limit, latency) it is the
 * time that server takes to answer that many requests, so a slow server's properties get as many
 * answers as a fast one's, up to PROPERTY_BUDGET_CAP_MS (config.ts holds both numbers, which
 * --help states).
 */
export { PROPERTY_BUDGET_CAP_MS, PROPERTY_BUDGET_REQUESTS };

/** What a property's budget reads of the settings: --property-budget, and whether it was given. */
export interface BudgetSettings {
  readonly propertyBudgetMs: number;
  /** --property-budget was given (flag, variable or .env): a wall-clock limit, as given. */
  readonly propertyBudgetGiven?: boolean;
}

/** True once a property that began `elapsedMs` ago, while the run sent `requests` requests, has spent its budget. */
export function budgetSpent(s: BudgetSettings, elapsedMs: number, requests: number): boolean {
  if (s.propertyBudgetGiven) return elapsedMs >= s.propertyBudgetMs;
  return elapsedMs >= PROPERTY_BUDGET_CAP_MS || (elapsedMs >= s.propertyBudgetMs && requests >= PROPERTY_BUDGET_REQUESTS);
}

/** The longest a property may run by its budget (the test that runs it must be allowed longer). */
export function propertyTimeBound(s: BudgetSettings): number {
  return s.propertyBudgetGiven ? s.propertyBudgetMs : PROPERTY_BUDGET_CAP_MS;
}

/** The budget in words, for a property it stopped: "the --property-budget of 1500 ms", or the default's rule. */
export function budgetText(s: BudgetSettings): string {
  if (s.propertyBudgetGiven) return `the --property-budget of ${s.propertyBudgetMs} ms`;
  return `its default budget: ${s.propertyBudgetMs / 1000} s and ${PROPERTY_BUDGET_REQUESTS} requests of the run since it began, at most ${PROPERTY_BUDGET_CAP_MS / 1000} s (--property-budget sets a time instead)`;
}

/** Thrown by a predicate to make fast-check stop at once and keep the counterexample found so far. */
const interrupt = (): never => {
  throw new fc.PreconditionFailure(true);
};

/** Requests the run's client has sent (both accounts share it); 0 where there is none (unit tests). */
function requestsSent(t: RuleContext): number {
  return (t.api.http as { stats?: { requests: number } }).stats?.requests ?? 0;
}

interface ShardResult {
  readonly index: number;
  readonly seed: number;
  readonly runs: number;
  /** What the search phase found, as fast-check reported it. */
  readonly details: Pick<fc.RunDetails<unknown>, 'failed' | 'interrupted' | 'numRuns' | 'counterexamplePath' | 'errorInstance'>;
}

/** The step of Date.now(), the clock of fast-check's interruptAfterTimeLimit. */
const DATE_NOW_STEP_MS = 1;

/**
 * Checks the property; `key` names it among the rule's properties (it seeds it). Suite
 * errors (a timeout, a rate limit) end the property at once, without shrinking, as errors.
 *
 * Two phases. Search: the shards run side by side and each stops at its first failure
 * (endOnFailure); once a shard failed, the shards after it stop too, since only the first
 * failing shard is reported, and which one that is does not depend on timing. Shrink: that
 * shard's failing run is replayed from its seed and path and shrunk alone, within
 * SHRINK_BUDGET. Shrinking one counterexample, not one per failing shard, is most of the saving.
 */
export async function checkProperty<Ts extends [unknown, ...unknown[]]>(
  t: RuleContext,
  key: string,
  arbitraries: { [K in keyof Ts]: fc.Arbitrary<Ts[K]> },
  predicate: (...args: Ts) => Promise<void>,
  options: PropertyOptions<Ts> = {},
): Promise<void> {
  // The first shard runs the examples; its seed and path replay them too (shrink below).
  const examplesOf = (index: number): Ts[] => (index === 0 ? [...(options.examples ?? [])] : []);
  let aborted: unknown;
  let firstFailed = Number.POSITIVE_INFINITY;
  /** Set when the budget stopped a shard (before a run: the run in progress always ends). */
  let budgetStop = false;
  const startRequests = requestsSent(t);
  const started = performance.now();
  const shards = propertyShards(t.settings.seed, `${t.rule.id}:${key}`, t.settings.runs, options.examples?.length ?? 0);
  const planned = shards.reduce((n, sh) => n + sh.runs, 0);

  const search = async (shard: { index: number; runs: number; seed: number }): Promise<ShardResult> => {
    const property = fc.asyncProperty(...arbitraries, async (...args: Ts) => {
      // Once the suite cannot run, or an earlier shard failed, this shard stops at once.
      if (aborted !== undefined || shard.index > firstFailed) interrupt();
      if (budgetSpent(t.settings, performance.now() - started, requestsSent(t) - startRequests)) {
        budgetStop = true;
        interrupt();
      }
      try {
        await predicate(...args);
      } catch (error) {
        if (isSuiteError(error)) aborted ??= error;
        else firstFailed = Math.min(firstFailed, shard.index);
        throw error;
      }
    });
    const details = await fc.check(property, {
      seed: shard.seed,
      numRuns: shard.runs,
      examples: examplesOf(shard.index),
      endOnFailure: true,
      // The budget's bound in time, kept by fast-check too (between runs, as budgetSpent is checked).
      interruptAfterTimeLimit: propertyTimeBound(t.settings),
      markInterruptAsFailure: false,
    });
    const { failed, interrupted, numRuns, counterexamplePath, errorInstance } = details;
    return { ...shard, details: { failed, interrupted, numRuns, counterexamplePath, errorInstance } };
  };
  const results = await Promise.all(shards.map(search));
  const elapsedMs = performance.now() - started;

  const failed = aborted === undefined ? results.find((r) => r.details.failed && r.details.counterexamplePath !== null) : undefined;
  const completed = results.reduce((n, r) => n + r.details.numRuns, 0);
  // Say what really stopped it: fast-check reports an interruption alike for the time budget and
  // for the stop this code asks for (a suite error, an inconclusive check, an earlier shard's failure).
  const interrupted = results.some((r) => r.details.interrupted);
  // fast-check keeps its time limit on Date.now(), whole milliseconds: its limit can pass up to
  // 1 ms (of performance.now()) sooner than this clock says, before any run began.
  const stoppedByBudget = !failed && aborted === undefined && interrupted && (budgetStop || elapsedMs + DATE_NOW_STEP_MS >= propertyTimeBound(t.settings));
  const why = failed ? ' (stopped at the first failure)'
    : aborted !== undefined ? ` (stopped after ${Math.round(elapsedMs)} ms: ${isInconclusiveStop(aborted) ? 'a check reached no verdict' : 'the suite could not go on'})`
    : stoppedByBudget ? ` (stopped by ${budgetText(t.settings)})` : '';
  await t.annotate(`${completed} of ${planned}${why}`, 'runs');
  if (aborted !== undefined) throw aborted;
  // A property that completed no run checked nothing: never a pass (a budget smaller than one
  // run against a slow target cuts every run short).
  if (!failed && completed === 0 && t.settings.runs > 0) {
    takeBodyDefect(t);
    throw new InconclusiveError(`no verdict: 0 of ${planned} runs of the property completed${why}; a larger --property-budget gives it time for at least one`);
  }
  if (!failed) {
    const dependent = takeBodyDefect(t);
    if (dependent) throw dependent;
    return;
  }
  takeBodyDefect(t);
  const shrunk = await shrink(t, failed, arbitraries, predicate, options.shrinkBudget ?? SHRINK_BUDGET, examplesOf(failed.index));
  const error = shrunk.error;
  const runIndex = Number(failed.details.counterexamplePath!.split(':')[0]);
  const replay = [
    `fast-check: shard ${failed.index + 1} of ${shards.length} failed at run ${runIndex + 1} of ${failed.runs}; ${shrunk.numShrinks} shrink(s); seed ${failed.seed}, path ${compactPath(shrunk.path)}`,
    ...shrunk.notes,
    `replay: ${replayCommand(t)}`,
  ].join('\n');
  if (error instanceof ConformanceFailure) {
    const note = [error.detail.note, replay].filter(Boolean).join('\n');
    throw new ConformanceFailure(error.rule, { ...error.detail, note }, t.api.http.redactor);
  }
  throw new Error(`${t.rule.id} property ${key} threw an unexpected error: ${(error as Error)?.message ?? String(error)}\n${replay}`);
}

interface Shrunk {
  readonly error: unknown;
  readonly path: string;
  readonly numShrinks: number;
  /** What the report should say about how the counterexample was reached. */
  readonly notes: string[];
}

/** Replays the failing shard's run from its seed and path, and shrinks it within the budget. */
async function shrink<Ts extends [unknown, ...unknown[]]>(
  t: RuleContext,
  failed: ShardResult,
  arbitraries: { [K in keyof Ts]: fc.Arbitrary<Ts[K]> },
  predicate: (...args: Ts) => Promise<void>,
  budget: ShrinkBudget,
  examples: Ts[],
): Promise<Shrunk> {
  const first = failed.details.errorInstance;
  const shapes = new Set([failureShape(first)]);
  let tries = 0;
  let failures = 0;
  let cut: string | undefined;
  const startRequests = requestsSent(t);
  const started = performance.now();
  const property = fc.asyncProperty(...arbitraries, async (...args: Ts) => {
    // The replayed run passed: the failure depends on the server's state, not on the input alone.
    if (tries > 0 && failures === 0) interrupt();
    const requests = requestsSent(t) - startRequests;
    const ms = performance.now() - started;
    if (tries > 0 && (requests >= budget.requests || ms >= budget.ms)) {
      cut ??= `shrinking was cut short after ${requests} request(s) and ${(ms / 1000).toFixed(1)} s (budget: ${budget.requests} requests or ${budget.ms / 1000} s per property): the counterexample is the smallest found so far, not necessarily the smallest`;
      interrupt();
    }
    tries += 1;
    try {
      await predicate(...args);
    } catch (error) {
      if (isSuiteError(error)) {
        // The counterexample so far stands; the suite error is the tests' to report.
        cut ??= `shrinking stopped when a request failed (${(error as Error).message.split('\n')[0]}): the counterexample is the smallest found before`;
        interrupt();
      }
      failures += 1;
      shapes.add(failureShape(error));
      throw error;
    }
  });
  // The same examples as the search, or the path would name another run.
  const details = await fc.check(property, { seed: failed.seed, path: failed.details.counterexamplePath!, numRuns: failed.runs, examples });
  if (!details.failed || details.counterexamplePath === null) {
    return {
      error: first,
      path: failed.details.counterexamplePath!,
      numShrinks: 0,
      notes: ["not shrunk: the failing run passed when replayed (the failure depends on the server's state, not on the input alone)"],
    };
  }
  const notes = cut ? [cut] : [];
  // Every try failed, the first run of the shard included, and in the same way: the input does not matter.
  if (failures === tries && failed.details.numRuns === 1 && tries > 1 && shapes.size === 1) {
    notes.push(`every generated input failed the same way (${tries} of ${tries} tries, shrinking included): shown is the simplest`);
  }
  return { error: details.errorInstance, path: details.counterexamplePath, numShrinks: details.numShrinks, notes };
}

/** True for the stop an InconclusiveError asks for (its code survives where the class may not). */
function isInconclusiveStop(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ERR_INCONCLUSIVE';
}
