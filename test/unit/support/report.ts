/** Run reports built from made-up outcomes, as the runner builds them (report/build.ts), for the renderers' unit tests. */
import { buildReport, type RunInfo } from '../../../src/report/build.ts';
import type { FailureReport, Outcome, RunOutcomes, RunReport, TestOutcome } from '../../../src/report/model.ts';
import { ruleById } from '../../../src/rules.ts';
import { ruleOutcomeOf } from '../../../src/cli/run/outcomes.ts';

/** One test of a rule, with what its outcome needs (a message for fail and error). */
export function testOf(rule: string, outcome: Outcome, extra: Partial<TestOutcome> = {}): TestOutcome {
  const failures: FailureReport[] = outcome === 'fail' ? [{ message: `${rule} failed\n  expected: a\n  received: b` }] : [];
  return {
    rule,
    title: `${rule} a test (${outcome})`,
    file: 'suites/x.test.ts',
    outcome,
    messages: failures.map((f) => f.message),
    failures,
    warnings: [],
    durationMs: 12,
    ...extra,
  };
}

/** Run outcomes from tests; each rule's outcome as cli/outcomes.ts decides it (ruleOutcomeOf). */
export function outcomesOf(tests: readonly TestOutcome[], suiteErrors: string[] = []): RunOutcomes {
  const ids = [...new Set(tests.map((t) => t.rule))];
  const rules = ids.map((id) => {
    const own = tests.filter((t) => t.rule === id);
    return { rule: ruleById(id), outcome: ruleOutcomeOf(own), tests: own };
  });
  return { tests: [...tests], rules, suiteErrors };
}

/** The report of a run with these outcomes. */
export function reportOf(outcomes: RunOutcomes, info: Partial<RunInfo> = {}): RunReport {
  return buildReport(
    {
      suiteVersion: '1.0.0',
      target: 'embedded reference server',
      baseUrl: 'http://127.0.0.1:1/v1',
      startedAt: new Date('2026-01-02T03:04:05Z'),
      finishedAt: new Date('2026-01-02T03:04:09.5Z'),
      seed: 42,
      config: {},
      strict: false,
      stats: { requests: 10, retries: 0, rateLimitWaitMs: 0, refused: 0 } as RunInfo['stats'],
      exitCode: 0,
      interrupted: false,
      cleanup: { deleted: 0, problems: [], leftovers: [], verified: true },
      ...info,
    },
    outcomes,
  );
}
