/**
 * Where the run's requests went: each test's own (its code's, and its widgets' cleanup), read from
 * the workers' tallies (harness/request-tally.ts) after the first attempt, and the run's total by
 * origin. conformance.json carries both; `npm run bench` adds them up per rule.
 */
import type { RequestTallyData } from '../../harness/request-tally.ts';
import type { RunOutcomes } from '../../report/model.ts';
import type { RequestAccount } from '../../shared/request-account.ts';

/** The outcomes with each test's requests, and the attempt's requests (tests' own, cleanup) beside them. */
export function withRequests(outcomes: RunOutcomes, tallies: readonly RequestTallyData[]): RunOutcomes {
  const byTitle = new Map<string, { sent: number; cleanup: number }>();
  let unowned = 0;
  for (const tally of tallies) {
    unowned += tally.unowned;
    for (const [title, n] of Object.entries(tally.tests)) {
      const sum = byTitle.get(title) ?? { sent: 0, cleanup: 0 };
      byTitle.set(title, { sent: sum.sent + n.sent, cleanup: sum.cleanup + n.cleanup });
    }
  }
  const counted = new Map([...byTitle].map(([title, n]) => [title, n]));
  const withCount = <T extends { title: string }>(t: T): T => {
    const n = counted.get(t.title);
    return n === undefined ? t : { ...t, requests: n };
  };
  const tests = outcomes.tests.map(withCount);
  const same = new Map(outcomes.tests.map((t, i) => [t, tests[i]!]));
  const all = [...byTitle.values()];
  return {
    ...outcomes,
    tests,
    rules: outcomes.rules.map((r) => ({ ...r, tests: r.tests.map((t) => same.get(t) ?? withCount(t)) })),
    requests: { tests: all.reduce((n, x) => n + x.sent, 0), cleanup: all.reduce((n, x) => n + x.cleanup, 0) + unowned },
  };
}

/** The run's requests by origin: `total` as the clients counted them, `runner` the runner's own, `first` the first attempt's. */
export function requestAccount(total: number, runner: number, first: RunOutcomes['requests']): RequestAccount {
  const tests = first?.tests ?? 0;
  const cleanup = first?.cleanup ?? 0;
  return { tests, cleanup, runner, secondAttempt: Math.max(0, total - tests - cleanup - runner) };
}
