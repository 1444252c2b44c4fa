/**
 * The tests of a run: the suites once, then a second attempt at each rule that failed or warned
 * (recheck.ts decides which, and what the second attempt may label). vitest itself is loaded
 * only here, when the tests start: it is most of the start-up, and --help, --list or a usage
 * error need none of it.
 */
import type { SuiteSettings } from '../../harness/settings.ts';
import { readRequestTallies, refusedBeyondBudget, tokenRejected } from '../../harness/worker-to-runner.ts';
import { withRequests } from './request-account.ts';
import { narrowsTests, testNamePattern, titleSelected, type Selection } from '../shared/selection.ts';
import type { Interrupt } from './interrupt.ts';
import { collectOutcomes, type RunOutcomes } from './outcomes.ts';
import { rulesToRecheck, withSecondAttempt } from './recheck.ts';
import { TestProgress } from './progress-reporter.ts';
import type { RunProgress } from './progress.ts';
import { RULES } from '../../rules.ts';

export interface TestRun {
  readonly settings: SuiteSettings;
  /** --only: the rules selected; every rule when absent. */
  readonly only?: ReadonlySet<string>;
  /** --test, `--only RULE.text` and --last-failed: the tests selected within those rules. */
  readonly selection?: Selection;
  readonly interrupt: Interrupt;
  /** The run's deadline (a Date.now() value): no second attempt starts past it. */
  readonly deadline: number;
  /** The run's stats folder, where a worker says a token was rejected. */
  readonly statsDir: string;
  /** The run's progress line: each attempt tells it how far its tests are. */
  readonly progress?: RunProgress;
  /** False: no second attempt (a replay judges the first attempt alone). Default true. */
  readonly secondAttempt?: boolean;
}

/** The outcomes of the run's tests, with each rechecked rule's second attempt beside it. */
export async function runTests(run: TestRun): Promise<RunOutcomes> {
  // Each test's requests, read before a second attempt's workers add theirs (request-account.ts).
  const first = withRequests(await attempt(run, run.only), readRequestTallies(run.statsDir).map((w) => w.tally));
  // A second attempt at each failed or warned rule, same seed and marker, to label the
  // failures that do not come back (recheck.ts). Never after a signal, past the deadline,
  // once a token stopped working or the target refused requests past the wait budget. Its widgets are the run's: the final cleanup covers them.
  const recheck = rulesToRecheck(first);
  if (recheck.size === 0 || run.secondAttempt === false || run.interrupt.signal !== undefined || Date.now() >= run.deadline || tokenRejected(run.statsDir) || refusedBeyondBudget(run.statsDir)) return first;
  // One line here; what it showed is one line under each finding at the end (console-report.ts).
  process.stdout.write(`Second attempt (same seed) at ${[...recheck].join(', ')}: is each failure steady or intermittent?\n`);
  const second = await attempt(run, recheck, 'second attempt');
  return run.interrupt.signal === undefined ? withSecondAttempt(first, second) : first;
}

/** One vitest run over the selected rules' tests (all when `only` is absent), closed once its outcomes are read. */
async function attempt(run: TestRun, only: ReadonlySet<string> | undefined, progressLabel?: string): Promise<RunOutcomes> {
  const { runSuites } = await import('./run-vitest.ts');
  // The test filters hold on the second attempt too: it reruns the selected tests of the rules that broke.
  const selection: Selection = { ...(run.selection ?? {}), ...(only ? { rules: only } : {}) };
  const narrowed = narrowsTests(selection);
  // Without a test-name filter, every selected rule will be judged: "5 of 42 rules done" from the start.
  const expected = narrowed ? undefined : (only ?? new Set(RULES.map((r) => r.id)));
  const progress = new TestProgress({ ...(progressLabel ? { label: progressLabel } : {}), ...(only ? { only } : {}), ...(expected ? { expected } : {}) });
  run.progress?.phase(() => progress.status());
  const vitest = await runSuites({
    settings: run.settings,
    progress,
    ...(only || narrowed ? { testNamePattern: testNamePattern(selection) } : {}),
    onStart: (v) => run.interrupt.adopt(v),
  });
  const outcomes = collectOutcomes(vitest.state.getTestModules(), vitest.state.getUnhandledErrors(), {
    ...(only ? { only } : {}),
    ...(narrowed ? { titles: (title: string) => titleSelected(selection, title) } : {}),
    interruptedBy: run.interrupt.signal,
  });
  await vitest.close();
  return outcomes;
}
