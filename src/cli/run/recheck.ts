/**
 * Intermittent failures, labelled. After the run, each rule that failed or warned is run once
 * more with the same seed and marker (a second vitest run over just those tests). A failure
 * that does not come back stays a failure, since a race is a fault, but every report labels it
 * intermittent with the evidence of both attempts. Only broken rules are run again, and never
 * after an interruption or past the run's deadline: the second attempt stays cheap.
 */
import { BROKEN, type RuleOutcome, type RunOutcomes, type SecondAttempt } from '../../report/model.ts';

/**
 * The rules worth a second attempt: those that failed or warned, and the rules of the tests that
 * saw evidence against them (cli/outcomes.ts evidenceTests): the second attempt must run the
 * checks that saw the fault, not only the rule's own.
 */
export function rulesToRecheck(outcomes: RunOutcomes): ReadonlySet<string> {
  const broken = outcomes.rules.filter((r) => BROKEN.has(r.outcome));
  const observers = new Set(broken.flatMap((r) => r.tests.filter((t) => BROKEN.has(t.outcome) && t.seenBy).map((t) => t.seenBy as string)));
  const observerRules = outcomes.tests.filter((t) => observers.has(t.title)).map((t) => t.rule);
  return new Set([...broken.map((r) => r.rule.id), ...observerRules]);
}

/**
 * The tests of the first attempt that gave the rule its failure or warning, by title: its own
 * broken tests and the tests that saw evidence against it.
 */
function witnesses(rule: RuleOutcome): string[] {
  return rule.tests.filter((t) => BROKEN.has(t.outcome)).map((t) => t.seenBy ?? t.title);
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
 * never changes: a rule is labelled intermittent only when the second attempt ran again every
 * test that saw its fault (its own, and those that saw evidence against it), each ran to an end
 * (passed, warned, failed or inconclusive: not skipped or errored), and none saw it again. A
 * second attempt with errors outside any rule proves nothing, so it labels nothing.
 */
export function withSecondAttempt(first: RunOutcomes, second: RunOutcomes): RunOutcomes {
  const again = new Map(second.rules.map((r) => [r.rule.id, r]));
  const trusted = second.suiteErrors.length === 0;
  const ranAgain = new Set(second.tests.filter((t) => t.outcome !== 'skip' && t.outcome !== 'error').map((t) => t.title));
  const rules = first.rules.map((r): RuleOutcome => {
    const other = again.get(r.rule.id);
    if (!other || !BROKEN.has(r.outcome)) return r;
    const intermittent = trusted && other.outcome === 'pass' && witnesses(r).every((title) => ranAgain.has(title));
    return { ...r, secondAttempt: attemptOf(other), ...(intermittent ? { intermittent: true } : {}) };
  });
  return { ...first, rules };
}
