/**
 * Intermittent failures, labelled. After the run, each rule that failed or warned is run once
 * more with the same seed and marker (a second vitest run over just those tests). A failure
 * that does not come back stays a failure, since a race is a fault, but every report labels it
 * intermittent with the evidence of both attempts. Only broken rules are run again, and never
 * after an interruption or past the run's deadline: the second attempt stays cheap.
 */
import { BROKEN, type RuleOutcome, type RunOutcomes, type SecondAttempt } from '../report/model.ts';

/** The rules worth a second attempt: those that failed or warned. */
export function rulesToRecheck(outcomes: RunOutcomes): ReadonlySet<string> {
  return new Set(outcomes.rules.filter((r) => BROKEN.has(r.outcome)).map((r) => r.rule.id));
}

/** The second attempt of one rule, as the reports carry it. */
function attemptOf(rule: RuleOutcome): SecondAttempt {
  return {
    outcome: rule.outcome,
    tests: rule.tests.map((t) => {
      const message = (t.messages[0] ?? t.warnings[0] ?? t.skipReason)?.split('\n')[0];
      return { title: t.title, outcome: t.outcome, durationMs: t.durationMs, ...(message ? { message } : {}) };
    }),
  };
}

/**
 * The first attempt's outcomes with the second attempt beside each rechecked rule. The outcome
 * never changes: a rule that passed the second time is labelled intermittent. A second attempt
 * with errors outside any rule proves nothing, so it labels nothing.
 */
export function withSecondAttempt(first: RunOutcomes, second: RunOutcomes): RunOutcomes {
  const again = new Map(second.rules.map((r) => [r.rule.id, r]));
  const trusted = second.suiteErrors.length === 0;
  const rules = first.rules.map((r): RuleOutcome => {
    const other = again.get(r.rule.id);
    if (!other || !BROKEN.has(r.outcome)) return r;
    const intermittent = trusted && other.outcome === 'pass';
    return { ...r, secondAttempt: attemptOf(other), ...(intermittent ? { intermittent: true } : {}) };
  });
  return { ...first, rules };
}
