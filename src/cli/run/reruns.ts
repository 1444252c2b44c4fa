/**
 * Each failed or warned test's rerun command (report/rerun.ts), from the run's settings: the
 * same target, seed and runs, and the settings that change what a test sees when they are not
 * their defaults. Evidence a test saw of another rule is rerun through that test.
 */
import { OPTIONS, type SuiteConfig } from '../../config.ts';
import type { RunOutcomes, TestOutcome } from '../../report/model.ts';
import { rerunCommand, titleFilter, type RerunSettings } from '../../report/rerun.ts';

/** Settings a test's outcome may depend on, repeated on its rerun when they are not the defaults. */
const REPEATED: ReadonlyArray<keyof SuiteConfig> = ['timeoutMs', 'clockToleranceMs', 'listSettleMs', 'maxWidgets', 'propertyBudgetMs', 'maxRetries', 'maxRetryWaitMs', 'maxRate', 'caFile', 'fileOrder', 'failOn'];

/** What a rerun repeats of this run's configuration. */
export function rerunSettings(config: SuiteConfig, embedded: boolean, withoutSecond: boolean): RerunSettings {
  const extra: Array<readonly [string, string]> = [];
  for (const key of REPEATED) {
    const def = OPTIONS.find((o) => o.key === key);
    const value = config[key];
    // The property budget as given, even at its default's value: not given, it scales with the pace instead.
    const given = key === 'propertyBudgetMs' ? config.propertyBudgetGiven : value !== def?.default;
    if (!def || value === undefined || !given) continue;
    extra.push([def.flag, String(value)]);
  }
  if (config.concurrencyGiven) extra.push(['--concurrency', String(config.concurrency)]);
  return {
    ...(embedded || config.baseUrl === undefined ? {} : { baseUrl: config.baseUrl }),
    seed: config.seed,
    runs: config.runs,
    strict: config.strict,
    withoutSecondToken: withoutSecond,
    extra,
    ...(config.headers ? { headers: true } : {}),
  };
}

/** The outcomes with a rerun command on every failed or warned test. */
export function withReruns(outcomes: RunOutcomes, settings: RerunSettings): RunOutcomes {
  const ruleOf = new Map(outcomes.tests.map((t) => [t.title, t.rule]));
  const titlesOf = (rule: string): string[] => outcomes.tests.filter((t) => t.rule === rule).map((t) => t.title);
  const withRerun = (t: TestOutcome): TestOutcome => {
    if (t.outcome !== 'fail' && t.outcome !== 'warn') return t;
    const title = t.seenBy ?? t.title;
    const rule = t.seenBy === undefined ? t.rule : (ruleOf.get(t.seenBy) ?? t.rule);
    const rules = t.seenBy === undefined ? [t.rule] : [rule, t.rule];
    return { ...t, rerun: rerunCommand(settings, rules, titleFilter(title, rule, titlesOf(rule))) };
  };
  const tests = outcomes.tests.map(withRerun);
  const byTest = new Map(outcomes.tests.map((t, i) => [t, tests[i]!]));
  return { ...outcomes, tests, rules: outcomes.rules.map((r) => ({ ...r, tests: r.tests.map((t) => byTest.get(t) ?? withRerun(t)) })) };
}
