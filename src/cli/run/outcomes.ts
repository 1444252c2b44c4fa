/**
 * From vitest's test results to the suite's verdicts: per test and per rule, keeping
 * conformance failures (the server broke a rule) apart from suite errors (the suite could
 * not run), and SHOULD warnings apart from both. The shapes are the report layer's (report/model.ts).
 */
export type { Outcome, RuleOutcome, RunOutcomes, TestOutcome } from '../../report/model.ts';
import type { TestCase, TestModule } from 'vitest/node';
import type { FailureReport, Outcome, RuleOutcome, RunOutcomes, TestOutcome } from '../../report/model.ts';
import { sourcePath } from '../../paths.ts';
import { RULES, ruleById } from '../../rules.ts';
import { curlCommand } from '../../report/curl.ts';
import type { Exchange } from '../../shared/exchange.ts';
import { rootCauses } from '../../report/root-causes.ts';

/** The detail a ConformanceFailure carries through vitest's error serialisation. */
function failureOf(error: { message: string; detail?: unknown }): FailureReport {
  const d = (error.detail ?? {}) as Partial<FailureReport>;
  return {
    message: error.message,
    ...(typeof d.expected === 'string' ? { expected: d.expected } : {}),
    ...(typeof d.received === 'string' ? { received: d.received } : {}),
    ...(typeof d.note === 'string' ? { note: d.note } : {}),
    ...(Array.isArray(d.exchanges) ? { exchanges: d.exchanges, curl: (d.exchanges as Exchange[]).map((x) => curlCommand(x)) } : {}),
    ...(Array.isArray(d.runWidgets) ? { runWidgets: d.runWidgets.filter((id): id is string => typeof id === 'string') } : {}),
  };
}


/** The code of TokenRejectedError (errors.ts), which survives vitest's serialisation of errors. */
const TOKEN_REJECTED_CODE = 'ERR_TOKEN_REJECTED';
export const TOKEN_REFUSED_REASON = 'not run: the target stopped accepting a token during the run (no verdict)';
/** The code of RateLimitError (errors.ts): the target refused requests (429/503) past the wait budget. */
const RATE_LIMIT_CODE = 'ERR_RATE_LIMIT';
export const RATE_LIMITED_REASON = 'not run: the target refused requests (429/503) beyond the wait budget (no verdict)';

// When a rule has several tests, the worst outcome speaks for it. Inconclusive sits below error:
// a failure elsewhere explains it, while an error is a problem of its own.
const SEVERITY: Record<Outcome, number> = { skip: 0, pass: 1, warn: 2, inconclusive: 3, error: 4, fail: 5 };

/** An InconclusiveError after vitest's serialisation: its code survives, with dependsOn (own properties). */
function isInconclusive(error: { name?: string; code?: unknown }): boolean {
  return error.code === 'ERR_INCONCLUSIVE';
}

/** Why a test that never ran is skipped: CI must never count it as passed. */
function notRunReason(interruptedBy: NodeJS.Signals | undefined): string {
  return interruptedBy ? `not run: the run was interrupted by ${interruptedBy}` : 'not run';
}

function testOutcome(test: TestCase, file: string, interruptedBy: NodeJS.Signals | undefined): TestOutcome {
  const result = test.result();
  const annotations = test.annotations();
  const warnings = annotations.filter((a) => a.type === 'warning').map((a) => a.message);
  const skipNote = annotations.find((a) => a.type === 'skip-reason')?.message;
  const errors = result.errors ?? [];
  const messages = errors.map((e) => e.message);
  const failures = errors.filter((e) => e.name === 'ConformanceFailure').map((e) => failureOf(e as { message: string; detail?: unknown }));
  const runs = annotations.find((a) => a.type === 'runs')?.message;
  // Explained by other rules only when every failure says so (a failure of its own is the rule's).
  const failureExplainers = errors.filter((e) => e.name === 'ConformanceFailure').map((e) => ((e as { detail?: { explainedBy?: unknown } }).detail?.explainedBy));
  const warningExplainers = annotations.filter((a) => a.type === 'explained-by').map((a) => a.message.split(','));
  const explainers = [...failureExplainers, ...warningExplainers];
  const explainedBy = explainers.length > 0 && explainers.every((x) => Array.isArray(x) && x.length > 0) && (failureExplainers.length > 0 || warningExplainers.length === warnings.length)
    ? [...new Set(explainers.flatMap((x) => (x as string[]).filter((id) => typeof id === 'string')))]
    : undefined;
  const inconclusive = errors.filter((e) => isInconclusive(e as { code?: unknown }));
  let outcome: Outcome;
  // A test stopped by a token the target refused mid-run ran into a setup problem (exit 2, said
  // in one line): it says nothing of the server, so it is not run, neither failed nor errored.
  const tokenRefused = result.state === 'failed' && errors.length > 0 && errors.every((e) => e.code === TOKEN_REJECTED_CODE);
  // The same for a test the target's refusals stopped (429/503 past the wait budget): a refusal
  // is never a rule's verdict; the run ends as a suite error, said in one line (exit 3).
  const rateLimited = result.state === 'failed' && errors.length > 0 && errors.every((e) => e.code === RATE_LIMIT_CODE);
  if (result.state === 'skipped' || result.state === 'pending' || tokenRefused || rateLimited) outcome = 'skip';
  else if (result.state === 'failed') {
    const judged = errors.length > 0 && errors.every((e) => e.name === 'ConformanceFailure' || isInconclusive(e as { code?: unknown }));
    // A failure the test did see outweighs what it could not check.
    outcome = !judged ? 'error' : failures.length > 0 ? 'fail' : 'inconclusive';
  } else outcome = warnings.length > 0 ? 'warn' : 'pass';
  // Inconclusive only because the test evaluated no check (errors.ts NothingObservedError; the flag survives serialisation).
  const observedNothing = outcome === 'inconclusive' && inconclusive.length > 0 && inconclusive.every((e) => (e as { observedNothing?: unknown }).observedNothing === true);
  const dependsOn = [...new Set(inconclusive.flatMap((e) => {
    const d = (e as { dependsOn?: unknown }).dependsOn;
    return Array.isArray(d) ? d.filter((x): x is string => typeof x === 'string') : [];
  }))];
  return {
    rule: test.meta().rule ?? '(none)',
    title: test.name,
    file,
    outcome,
    messages,
    failures,
    warnings,
    ...(runs ? { runs } : {}),
    ...(outcome === 'inconclusive' ? { dependsOn } : {}),
    ...(observedNothing ? { observedNothing: true as const } : {}),
    ...((outcome === 'fail' || outcome === 'warn') && explainedBy ? { explainedBy } : {}),
    ...(outcome === 'skip' ? { skipReason: tokenRefused ? TOKEN_REFUSED_REASON : rateLimited ? RATE_LIMITED_REASON : (skipNote ?? (result.state === 'skipped' && result.note && !interruptedBy ? result.note : notRunReason(interruptedBy))) } : {}),
    durationMs: Math.round(test.diagnostic()?.duration ?? 0),
  };
}

export interface CollectOptions {
  /** The rules --only selected: other tests are not part of the run. */
  readonly only?: ReadonlySet<string>;
  /** The test-name filters (--test, --last-failed): tests they leave out are not part of the run either. */
  readonly titles?: (title: string) => boolean;
  /** The signal that stopped the run: tests skipped without a reason of their own never ran because of it. */
  readonly interruptedBy?: NodeJS.Signals | undefined;
}

/** How many sightings of one rule's violation by one test the reports show. */
const EVIDENCE_SHOWN = 3;

/** The annotation type of evidence (harness/rule.ts EVIDENCE: the runner imports nothing of the workers). */
const EVIDENCE = 'evidence';

/** What a test saw of other rules, read back from its annotations. */
export interface Seen {
  readonly by: TestOutcome;
  readonly rule: string;
  readonly failure: FailureReport;
  /** The evidence says a widget was lost (harness/failure.ts FailureDetail.lost). */
  readonly lost?: true;
}

function evidenceOf(test: TestCase, by: TestOutcome): Seen[] {
  const seen: Seen[] = [];
  for (const a of test.annotations().filter((x) => x.type === EVIDENCE)) {
    let e: { rule?: unknown; message?: unknown; expected?: unknown; received?: unknown; note?: unknown; exchanges?: unknown; lost?: unknown };
    try {
      e = JSON.parse(a.message) as typeof e;
    } catch {
      continue;
    }
    if (typeof e.rule !== 'string' || typeof e.message !== 'string' || !RULES.some((r) => r.id === e.rule)) continue;
    seen.push({ by, rule: e.rule, failure: failureOf({ message: e.message, detail: e }), ...(e.lost === true ? { lost: true as const } : {}) });
  }
  return seen;
}

/**
 * Evidence belongs to its rule (harness/failure.ts Evidence): what a test of another rule saw
 * becomes a failed (MUST) or warned (SHOULD) test of the rule it breaks, one per rule and
 * observing test, titled by both, so the rule's outcome is computed from everything the run saw.
 */
export function evidenceTests(seen: readonly Seen[]): TestOutcome[] {
  const groups = new Map<string, Seen[]>();
  for (const s of seen) {
    const key = `${s.rule}\u0000${s.by.title}`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  return [...groups.values()].map((items): TestOutcome => {
    const [first] = items as [Seen, ...Seen[]];
    const rule = ruleById(first.rule);
    // A few sightings make the case; a test that met the fault at every create would repeat it.
    const distinct = items.filter((x, i) => items.findIndex((y) => y.failure.received === x.failure.received) === i);
    const failures = distinct.slice(0, EVIDENCE_SHOWN).map((i) => i.failure);
    if (items.length > failures.length) {
      const last = failures.pop() as FailureReport;
      failures.push({ ...last, note: `${last.note ? `${last.note}\n` : ''}${items.length} sightings in this test; ${EVIDENCE_SHOWN} shown` });
    }
    const must = rule.level === 'MUST';
    const observer = first.by.title;
    return {
      rule: rule.id,
      title: `${rule.id} violation seen by the test "${observer}"`,
      file: first.by.file,
      outcome: must ? 'fail' : 'warn',
      messages: must ? failures.map((f) => f.message) : [],
      failures: must ? failures : [],
      warnings: must ? [] : failures.map((f) => f.message.split('\n').slice(0, 3).map((l) => l.trim()).join(' | ')),
      seenBy: observer,
      durationMs: 0,
    };
  });
}

/** Collects the outcomes of a finished run. */
export function collectOutcomes(modules: readonly TestModule[], unhandled: readonly unknown[], options: CollectOptions = {}): RunOutcomes {
  const { only, titles, interruptedBy } = options;
  const tests: TestOutcome[] = [];
  const seen: Seen[] = [];
  const suiteErrors: string[] = [];
  for (const mod of modules) {
    // Named by its source, the same whether the TypeScript or its compiled form ran.
    const file = sourcePath(mod.relativeModuleId);
    for (const test of mod.children.allTests()) {
      // Tests --only left out are not skips: they are not part of this run.
      if (only && !only.has(test.meta().rule ?? '')) continue;
      if (titles && !titles(test.name)) continue;
      const outcome = testOutcome(test, file, interruptedBy);
      tests.push(outcome);
      seen.push(...evidenceOf(test, outcome));
    }
    for (const error of mod.errors()) suiteErrors.push(`${file}: ${error.message}`);
  }
  for (const error of unhandled) suiteErrors.push(`unhandled: ${(error as Error)?.message ?? String(error)}`);
  // Computed once every test has ended: a rule's outcome is from all the run saw, in any order.
  tests.push(...evidenceTests(seen));
  const lost = new Set([...lostRulesOf(modules, only), ...seen.filter((x) => x.lost).map((x) => x.rule)]);
  return voidOnFoundations(deferToRootCauses({ tests, rules: rulesOf(tests), suiteErrors }), lost);
}

/**
 * Rules with a failure that says the owner's retrieve did not find a widget of the run that no
 * delete touched (harness/failure.ts FailureDetail.lost): the server loses, splits or hides
 * widgets, which voids the rules that stand on finding them by id, as a failed foundation does.
 */
function lostRulesOf(modules: readonly TestModule[], only: ReadonlySet<string> | undefined): string[] {
  const rules: string[] = [];
  for (const mod of modules) {
    for (const test of mod.children.allTests()) {
      const rule = test.meta().rule;
      if (rule === undefined || (only && !only.has(rule))) continue;
      const errors = test.result().errors ?? [];
      if (errors.some((e) => e.name === 'ConformanceFailure' && (e as { detail?: { lost?: unknown } }).detail?.lost === true)) rules.push(rule);
    }
  }
  return rules;
}

/**
 * The outcome that speaks for a rule: the worst of its tests'. A test that observed nothing of the
 * server (harness/rule.ts) is no verdict either way, so it speaks only when no other test of the
 * rule judged anything: a rule whose tests all observed nothing is inconclusive; one that others
 * judged takes their verdict, and the run's verdict says it did not run in full (report/verdict.ts).
 */
export function ruleOutcomeOf(tests: readonly Pick<TestOutcome, 'outcome' | 'observedNothing'>[]): Outcome {
  const worst = tests.filter((t) => !t.observedNothing).reduce<Outcome>((w, t) => (SEVERITY[t.outcome] > SEVERITY[w] ? t.outcome : w), 'skip');
  return worst === 'skip' && tests.some((t) => t.observedNothing) ? 'inconclusive' : worst;
}

/** Each rule of the catalogue with tests in the run, the worst outcome of its tests speaking for it (ruleOutcomeOf). */
function rulesOf(tests: readonly TestOutcome[]): RuleOutcome[] {
  const rules: RuleOutcome[] = [];
  for (const rule of RULES) {
    const own = tests.filter((t) => t.rule === rule.id);
    if (own.length === 0) continue;
    rules.push({ rule, outcome: ruleOutcomeOf(own), tests: own });
  }
  return rules;
}

/**
 * One fault, the rule it breaks: a failed or warned test whose failures another rule's failure
 * would explain (an Error object's shape is FMT-2's) becomes inconclusive under that rule when it
 * failed or warned in this run; when it did not, the failure is the test's own and stays.
 * Decided on the outcomes as collected, so chains resolve through inconclusive rules (root-causes.ts).
 */
export function deferToRootCauses(outcomes: RunOutcomes): RunOutcomes {
  const broken = new Set(outcomes.rules.filter((r) => r.outcome === 'fail' || r.outcome === 'warn').map((r) => r.rule.id));
  const tests = outcomes.tests.map((t): TestOutcome => {
    if ((t.outcome !== 'fail' && t.outcome !== 'warn') || !t.explainedBy) return t;
    const by = t.explainedBy.filter((id) => id !== t.rule && broken.has(id));
    if (by.length === 0) return t;
    return { ...t, outcome: 'inconclusive', dependsOn: by, messages: t.messages.length > 0 ? t.messages : t.warnings };
  });
  if (tests.every((t, i) => t === outcomes.tests[i])) return outcomes;
  return { ...outcomes, tests, rules: rulesOf(tests) };
}

/**
 * A failed foundation rule (rules.ts `foundation`: ids told apart) voids the verdict of every rule
 * that requires it: each of their tests that passed, warned or failed becomes inconclusive naming
 * it. Which checks met a repeated id is a matter of timing; that every check finding widgets by
 * id stands on ids told apart is not, so the verdict is the same at any concurrency and order.
 */
export function voidOnFoundations(outcomes: RunOutcomes, lost: ReadonlySet<string> = new Set()): RunOutcomes {
  const direct = (id: string): readonly string[] => ruleById(id).requires ?? [];
  // A rule failed on a widget lost (CRUD-4: the owner's retrieve found nothing at an id no delete
  // touched) is a foundation in this run: what any check saw at an id may not be the widget's state.
  let failed = outcomes.rules.filter((r) => (r.rule.foundation || lost.has(r.rule.id)) && r.outcome === 'fail').map((r) => r.rule.id);
  // A foundation that stands on another failed one (DEL-2 on CRUD-3) is voided by it, not a cause.
  failed = failed.filter((id) => !failed.some((other) => other !== id && direct(id).includes(other)));
  if (failed.length === 0) return outcomes;
  const tests = outcomes.tests.map((t): TestOutcome => {
    // A skip the test decided on from what the server showed (a choice it made, seen at an id) is
    // voided too; a test that never ran (no second account, an interruption) is not.
    const decided = t.outcome === 'skip' && t.skipReason !== undefined && !t.skipReason.startsWith('not run') && !t.skipReason.includes('--second-token');
    if (t.outcome !== 'pass' && t.outcome !== 'warn' && t.outcome !== 'fail' && !decided) return t;
    // Declared directly: the rules whose own checks find widgets by id (rules.ts IDS).
    const by = failed.filter((id) => id !== t.rule && direct(t.rule).includes(id));
    if (by.length === 0) return t;
    // A failed foundation that itself stands on another failed one (DEL-2 on CRUD-3) goes too.
    const gone = by.filter((id) => lost.has(id) && !ruleById(id).foundation);
    const shared = by.filter((id) => !gone.includes(id));
    const text = `no verdict: this check finds widgets by id, and ${[
      ...(shared.length ? [`${shared.join(' and ')} failed in this run, so what it saw at an id may have been another widget`] : []),
      ...(gone.length ? [`${gone.join(' and ')} failed in this run on a widget its owner could no longer retrieve though no delete was sent for it, so what it saw at an id may not be the widget's state`] : []),
    ].join('; and ')}`;
    return { ...t, outcome: 'inconclusive', dependsOn: by, messages: [text, ...t.messages, ...t.warnings] };
  });
  return { ...outcomes, tests, rules: rulesOf(tests) };
}

/** The rules each inconclusive rule of the run depends on (its tests' dependsOn, merged). */
export function dependsOnOf(rule: RuleOutcome): string[] {
  return [...new Set(rule.tests.filter((t) => t.outcome === 'inconclusive').flatMap((t) => t.dependsOn ?? []))];
}

/** Inconclusive rules that no failed rule explains (none, or only a SHOULD warning): the run is incomplete. */
export function unexplainedInconclusive(outcomes: RunOutcomes): string[] {
  const { inconclusive } = rootCauses(outcomes.rules.map((r) => ({ id: r.rule.id, outcome: r.outcome, dependsOn: dependsOnOf(r) })));
  const failed = new Set(outcomes.rules.filter((r) => r.outcome === 'fail').map((r) => r.rule.id));
  return [...inconclusive].filter(([, e]) => !e.explainedBy.some((id) => failed.has(id))).map(([id]) => id);
}

/**
 * 0 conformant; 1 a rule failed that is not in the baseline; 3 the suite could not complete
 * (errors, or an inconclusive rule no failure explains, and no such failure). An inconclusive rule
 * never passes: explained by a failure, the failure decides the code (1, or 0 when the baseline
 * expects it); explained by a SHOULD warning only, or by nothing, the run is incomplete (3).
 */
export function exitCodeOf(outcomes: RunOutcomes, baseline: ReadonlySet<string> = new Set()): number {
  if (outcomes.rules.some((r) => r.outcome === 'fail' && !baseline.has(r.rule.id))) return 1;
  if (outcomes.suiteErrors.length > 0 || outcomes.rules.some((r) => r.outcome === 'error')) return 3;
  if (unexplainedInconclusive(outcomes).length > 0) return 3;
  return 0;
}
