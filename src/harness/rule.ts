/**
 * `rule()`: the one way a suite declares a test. It titles the test with its rule id, tags
 * it (annotations rule, level, section, which the runner reads back: cli/outcomes.ts), and applies the rule's level: a MUST failure
 * fails the test; a SHOULD failure is recorded as a warning and fails only under --strict.
 */
import { test, type TestContext } from 'vitest';
import type { WidgetApi } from '../client/api.ts';
import { InconclusiveError, NothingObservedError, UnprovenDeleteError } from '../errors.ts';
import { unprovenBecauseLost, unprovenBecauseOfRetrieve } from './prerequisites.ts';
import { mayDependOn, ruleById, type Rule } from '../rules.ts';
import { perWorker, runContext, type RunContext } from './context.ts';
import { ConformanceFailure, evidenceOf, explainedByWhen, type Evidence, type FailureDetail } from './failure.ts';
import type { RuleContext } from './rule-context.ts';
import { onBrokenTest } from './failing-widgets.ts';
import { SeededRandom } from './random.ts';

export interface RuleOptions {
  /** Runs alone, after the concurrent tests before it: for tests whose writes would disturb other tests' walks. */
  readonly sequential?: boolean;
}

export type { RuleContext };

export const SECOND_TOKEN_HINT = 'needs a second account: set --second-token or WIDGET_SECOND_TOKEN to run it';

/** Tests one rule may declare at most: a name's number is `n × NAME_SLOTS + the test's slot`. */
export const NAME_SLOTS = 100;
const SLOTS_KEY = Symbol.for('widget-conformance.name-slots');

/**
 * The test's slot among its rule's tests, in declaration order (the order of the code, files in
 * the run's file order): the same in a run of every test and in a rerun of this one alone, since
 * vitest collects every test of a file whatever its name filter. Kept on globalThis, as the run
 * context is, so that every suite file of the worker shares it.
 */
function slotOf(id: string, title: string): number {
  const byRule = perWorker(SLOTS_KEY, () => new Map<string, Map<string, number>>());
  const slots = byRule.get(id) ?? new Map<string, number>();
  byRule.set(id, slots);
  const slot = slots.get(title) ?? slots.size;
  slots.set(title, slot);
  if (slot >= NAME_SLOTS) throw new Error(`${id} declares more than ${NAME_SLOTS} tests: widget names would no longer be unique (harness/rule.ts NAME_SLOTS)`);
  return slot;
}

/**
 * The number of a test's `count`-th name (1-based): unique among the names of the run's tests, and
 * at least NAME_SLOTS, above the numbers of what several tests share (RuleContext.shared). Six
 * digits keep a name within 32 characters: a test may make 9,999 names so (a property run with a
 * --runs in the thousands makes more, and its later names are longer).
 */
export function nameNumber(count: number, slot: number): number {
  return count * NAME_SLOTS + slot;
}

/** Declares a test of one rule; the title must say the outcome, e.g. `unknown ids answer an Error`. */
export function rule(id: string, title: string, body: (t: RuleContext) => Promise<void>, options: RuleOptions = {}): void {
  const r = ruleById(id);
  const slot = slotOf(id, `${id} ${title}`);
  // `concurrent: false` (not `sequential`, which vitest 4 ignores under sequence.concurrent) makes
  // the test wait for the concurrent tests before it and run alone.
  test(`${id} ${title}`, { meta: { rule: id }, ...(options.sequential ? { concurrent: false } : {}) }, async (ctx: TestContext) => {
    await ctx.annotate(r.id, 'rule');
    await ctx.annotate(r.level, 'level');
    await ctx.annotate(r.section, 'section');
    const run = runContext();
    // The catalogue says which rules need a second account (Rule.secondAccount): the one declaration.
    if (r.secondAccount && !run.second) {
      await ctx.annotate(SECOND_TOKEN_HINT, 'skip-reason');
      ctx.skip(SECOND_TOKEN_HINT);
    }
    const skip = async (reason: string): Promise<never> => {
      await ctx.annotate(reason, 'skip-reason');
      return ctx.skip(reason);
    };
    const seen: Evidence[] = [];
    const observed: Observed = { checks: 0 };
    const used = new Set<string>();
    const t = makeRuleContext(r, run, { skip, annotate: ctx.annotate, seen, used, title: `${id} ${title}`, slot, observed });
    try {
      // Widgets told apart by id are the ground most checks stand on: once the server gave two
      // live widgets one id, a failure may come from that alone, and CRUD-3 explains it (for the
      // rules that declare it: explainedBy reads the catalogue).
      // Whatever the body causes runs in the test's scope: its requests are counted for it, and
      // the checks registered per exchange give it what they find (test-scope.ts).
      await run.scopes.run({ title: `${id} ${title}`, rule: id, evidence: t.evidence }, () => (!run.ownership ? body(t) : explainedByWhen(() => run.ownership.repeated, ['CRUD-3'], r, () => body(t))));
      concludeObserved(observed);
    } catch (error) {
      if (error instanceof InconclusiveError) throw undeclared(r, error) ?? error;
      // A failure names the run's widgets it shows, and under --keep-failing they stay (failing-widgets.ts).
      if (error instanceof ConformanceFailure) (error as { detail: FailureDetail }).detail = onBrokenTest(run, `${id} ${title}`, error.detail, used);
      if (error instanceof UnprovenDeleteError && error.why === 'credential') {
        // A write with a credential that is no account's own, not sent because another account
        // shows a widget of its own at the id (ids numbered per account): the check cannot be made
        // without risk to that widget on this server, and the server broke nothing.
        await skip(`the write this check needs was not sent: ${error.reason}`);
      }
      if (error instanceof UnprovenDeleteError) {
        // Two live widgets were given one id by creates of this run (recorded): the widget at the
        // id may be the other one, deleted already. CRUD-3 explains the missing delete.
        if (error.broken === undefined && run.ownership?.repeated && r.id !== 'CRUD-3' && mayDependOn(r.id, 'CRUD-3')) {
          const inconclusive = new InconclusiveError(`no verdict: the delete this check needs was not sent: ${error.reason}; creates of this run were answered with one id for two live widgets (CRUD-3's to judge)`, ['CRUD-3']);
          throw undeclared(r, inconclusive) ?? inconclusive;
        }
        // A delete the suite would not send because a retrieve never shows the widget as created
        // (its run marker altered) is CRUD-4's fault, recorded with the fields the retrieve changes.
        if (mayDependOn(r.id, 'CRUD-4')) await unprovenBecauseOfRetrieve(t, t.api, error);
        // A widget of this run that its owner's retrieve no longer finds (no delete was sent for
        // it): CRUD-4's, recorded with the answer, whichever rule's check met it (issue 30).
        if (mayDependOn(r.id, 'CRUD-4') || r.id === 'CRUD-4') await unprovenBecauseLost(t, [run.primary, ...(run.second ? [run.second] : [])], error);
        // A delete the ownership ledger refused because the server broke a rule (a create answered
        // an existing id, a retrieve contradicting itself): this check has no verdict, that rule
        // explains it. Said as what the ledger recorded, never as "this server breaks" a rule that
        // may have no recorded failure (the runner's note says whether it failed).
        if (error.broken !== undefined && error.broken !== r.id) {
          const inconclusive = new InconclusiveError(`no verdict: the delete this check needs was not sent: ${error.reason} (which is ${error.broken}'s to judge)`, [error.broken]);
          throw undeclared(r, inconclusive) ?? inconclusive;
        }
      }
      if (error instanceof ConformanceFailure && r.level === 'SHOULD') {
        await ctx.annotate(firstLines(error.message), 'warning');
        // A warning another rule's failure would explain (failure.ts explainedBy): the runner decides.
        if (error.detail.explainedBy?.length) await ctx.annotate(error.detail.explainedBy.join(','), 'explained-by');
        if (run.settings.strict) throw error;
        return;
      }
      throw error;
    } finally {
      // Whatever the test concluded, what it saw of other rules goes to the runner.
      for (const e of seen) await ctx.annotate(JSON.stringify(e), EVIDENCE);
    }
  });
}

/** Why a test that evaluated no check has no verdict (the runner says it of the rule: report/root-causes.ts). */
export const NOTHING_OBSERVED = 'no verdict: the test made no observation of the server (no check of its rule was evaluated against an answer), so it neither passed nor failed';

/** The checks of its rule a test evaluated against an answer (makeRuleContext counts them). */
export interface Observed {
  checks: number;
}

/** Ends a test whose body returned having evaluated no check: it checked nothing, so no verdict, never a pass. */
export function concludeObserved(observed: Readonly<Observed>): void {
  if (observed.checks === 0) throw new NothingObservedError(NOTHING_OBSERVED);
}

/** The annotation type that carries an Evidence record (failure.ts) to the runner. */
export const EVIDENCE = 'evidence';

/**
 * A check may end inconclusive only on a rule its rule declares it requires (rules.ts): one that
 * names another is a problem of the suite, said as such (an error, never a silent inconclusive).
 */
function undeclared(r: Rule, error: InconclusiveError): Error | undefined {
  const stray = error.dependsOn.filter((id) => !mayDependOn(r.id, id));
  if (stray.length === 0) return undefined;
  return new Error(`${r.id} ended inconclusive on ${stray.join(', ')}, which src/rules.ts does not declare among its requirements: a problem of the suite (please report it). ${error.message}`);
}

/** What makeRuleContext needs of the test beside the rule and the run. */
export interface TestSlot {
  readonly skip: (reason: string) => Promise<never>;
  readonly annotate: TestContext['annotate'];
  /** Evidence of other rules this test saw, for the runner. */
  readonly seen: Evidence[];
  /** The widgets the test said it relies on (RuleContext.uses). */
  readonly used: Set<string>;
  readonly title: string;
  /** The test's place among its rule's tests (slotOf). */
  readonly slot: number;
  /** The checks of the rule the test evaluated, counted here (concludeObserved reads them). */
  readonly observed: Observed;
}

/**
 * The context a rule's test gets. `observed.checks` counts the checks of the rule evaluated
 * against an answer (check, fail, and evidence of the rule itself, which is a failure); the shared
 * helpers reach it only through those, so a helper counts exactly when it evaluated something.
 */
export function makeRuleContext(r: Rule, run: RunContext, test: TestSlot): RuleContext {
  const { skip, annotate, seen, used, title, slot, observed } = test;
  const { settings: s, primary: api, second } = run;
  let names = 0;
  const { redactor } = api.http;
  const fail = (detail: FailureDetail): never => {
    observed.checks += 1;
    throw new ConformanceFailure(r, detail, redactor);
  };
  return {
    rule: r,
    settings: s,
    api,
    get second(): WidgetApi {
      // A rule that cannot do without it is marked secondAccount (and skipped without one); others ask t.settings.secondToken first.
      if (!second) throw new Error(`${r.id} uses the second account, which this run does not have: mark the rule secondAccount in src/rules.ts, or ask t.settings.secondToken first`);
      return second;
    },
    name: () => `${s.marker} ${r.id} ${nameNumber((names += 1), slot)}`,
    random: SeededRandom.of(s.seed, title),
    shared: (n, ruleId = r.id) => {
      if (!Number.isInteger(n) || n < 0 || n >= NAME_SLOTS) throw new Error(`${r.id}: a shared name's number is from 0 to ${NAME_SLOTS - 1}, got ${n}`);
      const owner = ruleById(ruleId).id;
      return { name: `${s.marker} ${owner} ${n}`, random: SeededRandom.of(s.seed, `${owner} shared ${n}`) };
    },
    annotate: async (message, type) => void (await annotate(message, type)),
    fail,
    evidence(ruleId: string, detail: FailureDetail): void {
      if (ruleId === r.id) fail(detail);
      // Its widgets named, and under --keep-failing kept, as for a failure of the test's own.
      seen.push(evidenceOf(ruleById(ruleId), onBrokenTest(run, title, detail, used), redactor));
    },
    check(condition: boolean, detail: () => FailureDetail): void {
      observed.checks += 1;
      if (!condition) fail(detail());
    },
    skip,
    listAfter: (account, since) => run.snapshots.after(account, since),
    quietly: (walk) => run.gate.quiet(walk),
    uses: (ids) => {
      for (const id of ids) used.add(id);
    },
    exchanges: run.exchanges,
  };
}

/** The rule line and the expected/received lines of a failure: enough for a warning. */
function firstLines(message: string): string {
  return message.split('\n').slice(0, 3).map((l) => l.trim()).join(' | ');
}
