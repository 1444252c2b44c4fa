/**
 * Blame (issue 11): a fault is reported under the rule it breaks, and nowhere else. Each server
 * of servers/faults/attribution.ts runs the whole suite, property rules included; the test
 * asserts the exact set of rules that fail or warn, that the checks the fault disturbs end
 * inconclusive naming the rule that explains them ("depends on CRUD-3"), and that a failure
 * names what differs. A fault whose verdict could depend on timing (`timing`) is run at every
 * setting of SETTINGS (concurrency 1, 4 and 8, both file orders, under CPU load) and held to its
 * exact sets at each.
 */
import { describe, expect, test } from 'vitest';
import { ATTRIBUTION_FAULTS } from '../servers/faults/attribution.ts';
import { SETTINGS } from '../servers/faults/case.ts';
import { runAgainst } from '../servers/serve.ts';
import { explain, type ConformanceReport } from '../support/suite-runner.ts';

/** Few property runs: enough for the faults to show in PROP-3's sequences, fast on a shared machine. */
const PROPERTY_RUNS = '15';

/** A whole run, property rules included, on a machine shared with other runs. */
const RUN_TIMEOUT_MS = 400_000;

type RuleReport = ConformanceReport['rules'][number];

/** Every message a rule's tests carry: failures, errors and warnings. */
function messagesOf(rule: RuleReport): string[] {
  return rule.tests.flatMap((t) => [...(t.failures ?? []).map((f) => f.message), ...(t.errors ?? []), ...(t.warnings ?? [])]);
}

/**
 * True when the rule ended without a verdict: 'inconclusive' (or 'error', as such outcomes were
 * reported before there was an inconclusive outcome) with every message naming the rule that
 * explains it. A rule whose checks were partly inconclusive and partly passed counts too.
 */
function inconclusiveOn(rule: RuleReport, explainedBy: string): boolean {
  const outcome: string = rule.outcome;
  // The report's own account of it: a check that said what it depends on, or a failure marked
  // as explained by another rule (harness/failure.ts explainedBy) that did fail in this run.
  if (outcome === 'inconclusive' && rule.inconclusive?.explainedBy.includes(explainedBy)) return true;
  if (outcome !== 'inconclusive' && outcome !== 'error') return false;
  return messagesOf(rule).length > 0 && messagesOf(rule).every((m) => m.includes(`depends on ${explainedBy}`));
}

/** A property's run count says the budget stopped it only when it ran at least as long as the budget's time (issue 20: "stopped by the --property-budget of 60000 ms" on a test of 60 ms). */
function budgetNotesBeyondDuration(rules: readonly RuleReport[]): string[] {
  return rules.flatMap((r) => r.tests)
    .filter((t) => {
      // The budget given (--property-budget), or the default's floor of time (it is counted in requests past it).
      const m = /stopped by (?:the --property-budget of (\d+) ms|its default budget: ([\d.]+) s and)/.exec(t.runs ?? '');
      const budgetMs = m === null ? undefined : m[1] !== undefined ? Number(m[1]) : Number(m[2]) * 1000;
      return budgetMs !== undefined && t.durationMs < budgetMs;
    })
    .map((t) => `${t.title}: ${t.runs} after ${t.durationMs} ms`);
}

describe.concurrent('blame', () => {
  for (const fault of ATTRIBUTION_FAULTS) {
    // A fault whose verdict could depend on timing is held to its exact sets at every setting (case.ts SETTINGS).
    for (const setting of fault.timing ? SETTINGS : [undefined]) {
      test(`the fault "${fault.name}" (${fault.description}) fails ${fault.fails.join(', ')} only; what it disturbs is inconclusive on ${fault.explainedBy}${setting ? `, ${setting.label}` : ''}`, async () => {
        const run = await runAgainst(fault.make(), ['--runs', PROPERTY_RUNS, ...(fault.args ?? []), ...(setting?.args ?? [])], { load: setting?.load === true });
        const why = explain(run);
        const rules = run.report?.rules ?? [];
        expect(rules.length, why).toBeGreaterThan(0);
        const failed = rules.filter((r) => r.outcome === 'fail' || r.outcome === 'warn').map((r) => r.id);
        const allowed = new Set([...fault.fails, ...(fault.mayFail ?? [])]);
        // The exact set: every rule the fault breaks, and no other.
        expect(failed.filter((id) => !allowed.has(id)), `collateral failures\n${why}`).toEqual([]);
        expect(fault.fails.filter((id) => !failed.includes(id)), `not caught\n${why}`).toEqual([]);
        // What did not pass and did not fail is inconclusive, and names the rule that explains it.
        const undecided = rules.filter((r) => r.outcome !== 'pass' && r.outcome !== 'skip' && !failed.includes(r.id));
        const unexplained = undecided.filter((r) => !inconclusiveOn(r, fault.explainedBy)).map((r) => `${r.id}: ${r.outcome}`);
        expect(unexplained, `outcomes that neither pass nor fail nor depend on ${fault.explainedBy}\n${why}`).toEqual([]);
        const undecidedIds = undecided.map((r) => r.id);
        expect((fault.inconclusive ?? []).filter((id) => !undecidedIds.includes(id)), `expected inconclusive\n${why}`).toEqual([]);
        for (const [id, text] of Object.entries(fault.names ?? {})) {
          const messages = rules.filter((r) => r.id === id).flatMap((r) => r.tests.flatMap((t) => (t.failures ?? []).map((f) => f.message)));
          expect(messages.length, `${id} failures\n${why}`).toBeGreaterThan(0);
          for (const m of messages) expect(m, `${id} names the difference`).toMatch(text);
        }
        expect(budgetNotesBeyondDuration(rules), `a budget named that did not stop the property\n${why}`).toEqual([]);
        if (fault.timing) {
          // The exact sets, the same at every setting: no rule blamed that the fault does not break, no escape.
          expect(fault.mayFail ?? [], 'a timing-sensitive fault declares no rule that only may fail').toEqual([]);
          expect([...failed].sort(), `rules failed or warned\n${why}`).toEqual([...fault.fails].sort());
          expect([...undecidedIds].sort(), `rules inconclusive\n${why}`).toEqual([...(fault.inconclusive ?? [])].sort());
          expect(rules.filter((r) => r.outcome === 'error').map((r) => r.id), `rules ended in an error\n${why}`).toEqual([]);
          expect(rules.filter((r) => r.intermittent).map((r) => r.id), `rules labelled intermittent\n${why}`).toEqual([]);
        }
        expect(run.exitCode, why).toBe(1);
      }, RUN_TIMEOUT_MS);
    }
  }
});
