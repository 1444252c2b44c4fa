/**
 * Where run outcomes enter the report model: every string that may hold server text and was
 * not already made safe as data in the worker (a conformance failure is, field by field, see
 * harness/failure.ts) passes through `clean` once, before any formatter sees it. The suite's
 * own text (titles, rule statements, numbers, the target) is never passed through it.
 */
import type { CleanupReport, FailureReport, RunOutcomes, TestOutcome } from './model.ts';

/** A function that replaces every credential in a string (shared/redact.ts Redactor.text). */
export type Clean = (text: string) => string;

function testOf(t: TestOutcome, clean: Clean): TestOutcome {
  // A conformance failure's message was rendered from redacted data: passing it through again
  // would blank a short token's letters in the rule's own words.
  const rendered = new Set(t.failures.map((f: FailureReport) => f.message));
  return {
    ...t,
    messages: t.messages.map((m) => (rendered.has(m) ? m : clean(m))),
  };
}

/** The outcomes with every unsanitised message cleaned. */
export function sanitizeOutcomes(outcomes: RunOutcomes, clean: Clean): RunOutcomes {
  const tests = new Map(outcomes.tests.map((t) => [t, testOf(t, clean)]));
  return {
    tests: [...tests.values()],
    rules: outcomes.rules.map((r) => ({
      ...r,
      tests: r.tests.map((t) => tests.get(t) ?? testOf(t, clean)),
      ...(r.secondAttempt
        ? { secondAttempt: { ...r.secondAttempt, tests: r.secondAttempt.tests.map((a) => (a.message === undefined ? a : { ...a, message: clean(a.message) })) } }
        : {}),
    })),
    suiteErrors: outcomes.suiteErrors.map(clean),
    ...(outcomes.requests ? { requests: outcomes.requests } : {}),
  };
}

/** The cleanup's account with the server's ids and every reason cleaned. */
export function sanitizeCleanup(cleanup: CleanupReport, clean: Clean): CleanupReport {
  return {
    ...cleanup,
    problems: cleanup.problems.map(clean),
    leftovers: cleanup.leftovers.map((l) => ({ ...l, id: clean(l.id), reason: clean(l.reason) })),
    ...(cleanup.kept ? { kept: cleanup.kept.map((l) => ({ ...l, id: clean(l.id), reason: clean(l.reason) })) } : {}),
  };
}
