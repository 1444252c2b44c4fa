/**
 * Each failed or warned test's rerun command (report/rerun.ts) and replay file
 * (report/replay-file.ts), from the run's settings: the same target, seed and runs, and the
 * settings that change what a test sees when they are not their defaults. Evidence a test saw of
 * another rule is rerun and replayed through that test.
 */
import { join } from 'node:path';
import { OPTIONS, type SuiteConfig } from '../../config.ts';
import type { RunOutcomes, TestOutcome, TestReplay } from '../../report/model.ts';
import { REPLAY_KIND, replayFileName } from '../../report/replay-file.ts';
import { localSuiteCommand, replayCommand, rerunCommand, titleFilter, type RerunSettings } from '../../report/rerun.ts';

/** Settings a test's outcome may depend on, repeated on its rerun when they are not the defaults. */
const REPEATED: ReadonlyArray<keyof SuiteConfig> = ['timeoutMs', 'clockToleranceMs', 'listSettleMs', 'maxWidgets', 'propertyBudgetMs', 'maxRetries', 'maxRetryWaitMs', 'maxRate', 'caFile', 'fileOrder', 'failOn'];

/** The flags a rerun command or a replay file may carry besides the target, selection, seed, runs, --strict and --without-second-token. */
export const RERUN_FLAGS: ReadonlySet<string> = new Set([...REPEATED.map((key) => OPTIONS.find((o) => o.key === key)?.flag ?? ''), '--concurrency']);

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
    command: localSuiteCommand(),
    ...(embedded || config.baseUrl === undefined ? {} : { baseUrl: config.baseUrl }),
    seed: config.seed,
    runs: config.runs,
    strict: config.strict,
    withoutSecondToken: withoutSecond,
    extra,
    ...(config.headers ? { headers: true } : {}),
  };
}

/** Where a run's replay files go and what they record of it, beside its rerun settings. */
export interface ReplayPlace {
  /** The report directory as the user gave it (relative to their directory, or absolute): the command names the file so. */
  readonly reportDir: string;
  readonly suiteVersion: string;
  /** When the run started. */
  readonly recordedAt: Date;
}

/** The replay of a failing test: its file (the `n`-th of its rule) and the command that runs it. */
function replayOf(t: TestOutcome & { outcome: 'fail' | 'warn' }, run: { rules: string[]; test: string }, n: number, settings: RerunSettings, place: ReplayPlace): TestReplay {
  const file = replayFileName(t.rule, n);
  return {
    file,
    command: replayCommand(settings.command, join(place.reportDir, file)),
    content: {
      kind: REPLAY_KIND,
      version: 1,
      suiteVersion: place.suiteVersion,
      ...(settings.baseUrl === undefined ? {} : { baseUrl: settings.baseUrl }),
      rule: t.rule,
      test: t.title,
      outcome: t.outcome,
      run,
      seed: settings.seed,
      runs: settings.runs,
      strict: settings.strict,
      withoutSecondToken: settings.withoutSecondToken,
      settings: settings.extra ?? [],
      headers: settings.headers === true,
      recordedAt: place.recordedAt.toISOString(),
    },
  };
}

/** The outcomes with a rerun command (and, given a place, a replay file) on every failed or warned test. */
export function withReruns(outcomes: RunOutcomes, settings: RerunSettings, place?: ReplayPlace): RunOutcomes {
  const ruleOf = new Map(outcomes.tests.map((t) => [t.title, t.rule]));
  const titlesOf = (rule: string): string[] => outcomes.tests.filter((t) => t.rule === rule).map((t) => t.title);
  const numbered = new Map<string, number>();
  const withRerun = (t: TestOutcome): TestOutcome => {
    if (t.outcome !== 'fail' && t.outcome !== 'warn') return t;
    const title = t.seenBy ?? t.title;
    const rule = t.seenBy === undefined ? t.rule : (ruleOf.get(t.seenBy) ?? t.rule);
    const rules = t.seenBy === undefined ? [t.rule] : [rule, t.rule];
    const rerun = rerunCommand(settings, rules, titleFilter(title, rule, titlesOf(rule)));
    if (!place) return { ...t, rerun };
    const n = (numbered.get(t.rule) ?? 0) + 1;
    numbered.set(t.rule, n);
    return { ...t, rerun, replay: replayOf({ ...t, outcome: t.outcome }, { rules, test: title }, n, settings, place) };
  };
  const tests = outcomes.tests.map(withRerun);
  const byTest = new Map(outcomes.tests.map((t, i) => [t, tests[i]!]));
  return { ...outcomes, tests, rules: outcomes.rules.map((r) => ({ ...r, tests: r.tests.map((t) => byTest.get(t) ?? withRerun(t)) })) };
}
