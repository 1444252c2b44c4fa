/**
 * The report of a run: one document, built once by the runner and rendered as
 * conformance.json, conformance.md and conformance.html. Everything in it is redacted.
 * Its shape is schemas/conformance-report.schema.json.
 */
import type { Exchange } from '../shared/exchange.ts';
import type { Level, Rule } from '../rules.ts';
import type { ProfileReport } from './profile.ts';
import type { ReplayFile } from './replay-file.ts';
import type { RequestAccount, TestRequests } from '../shared/request-account.ts';

/**
 * A test's or a rule's outcome; the runner collects them from vitest (cli/outcomes.ts).
 * `inconclusive`: the check could not reach a verdict because something it depends on is
 * broken (an InconclusiveError naming the rules whose failure explains it): never a pass.
 */
export type Outcome = 'pass' | 'fail' | 'warn' | 'skip' | 'error' | 'inconclusive';

/** Outcomes in which the server broke a rule (a SHOULD warning is a broken rule too). */
export const BROKEN: ReadonlySet<Outcome> = new Set<Outcome>(['fail', 'warn']);

/** The second attempt at a failed or warned rule, same seed and marker (cli/recheck.ts). */
export interface SecondAttempt {
  readonly outcome: Outcome;
  readonly tests: ReadonlyArray<{ readonly title: string; readonly outcome: Outcome; readonly durationMs: number; readonly message?: string }>;
}

export interface TestOutcome {
  readonly rule: string;
  readonly title: string;
  readonly file: string;
  readonly outcome: Outcome;
  /** Failure or error messages (already redacted by the worker, redacted again on output). */
  readonly messages: string[];
  /** The structured side of conformance failures: expected, received, exchanges. */
  readonly failures: FailureReport[];
  readonly warnings: string[];
  readonly skipReason?: string;
  /** Property tests: "runs completed of runs asked". */
  readonly runs?: string;
  /** Inconclusive tests: the rules whose failure would explain it (InconclusiveError.dependsOn). */
  readonly dependsOn?: readonly string[];
  /** Inconclusive because it made no observation of the server: no check was evaluated (errors.ts NothingObservedError). */
  readonly observedNothing?: true;
  /** A failed or warned test whose every failure another rule's failure would explain (harness/failure.ts explainedBy). */
  readonly explainedBy?: readonly string[];
  /**
   * Evidence of this rule's violation seen by a test of another rule (harness/failure.ts
   * Evidence): the title of the test that saw it. The rule fails (or warns) with it.
   */
  readonly seenBy?: string;
  /** Failed or warned tests: one command that reruns exactly this test, tokens from the environment (report/rerun.ts). */
  readonly rerun?: string;
  /** Failed or warned tests: the replay file written for it and the one command that replays it (report/replay-file.ts). */
  readonly replay?: TestReplay;
  readonly durationMs: number;
  /** The requests counted for this test in the first attempt (harness/request-tally.ts): its code's, and its widgets' cleanup. */
  readonly requests?: TestRequests;
}

/** A failing test's replay: its file in the report directory, the command that runs it, and the file's content. */
export interface TestReplay extends ReplayRef {
  readonly content: ReplayFile;
}

/** Where a failing test's replay file is and the command that replays it, as the reports show them. */
export interface ReplayRef {
  /** Relative to the report directory: `replay/ISO-2-1.json`. */
  readonly file: string;
  /** `npx --no-install widget-conformance replay reports/replay/ISO-2-1.json`: tokens from the environment. */
  readonly command: string;
}

export interface RuleOutcome {
  readonly rule: Rule;
  readonly outcome: Outcome;
  readonly tests: TestOutcome[];
  /** Rechecked (it failed or warned): what the second attempt gave. */
  readonly secondAttempt?: SecondAttempt;
  /** Failed or warned, then passed on the second attempt: still a failure (a race is a fault), labelled. */
  readonly intermittent?: boolean;
}

export interface RunOutcomes {
  readonly tests: TestOutcome[];
  /** Every rule of the catalogue that had at least one test in this run, in catalogue order. */
  readonly rules: RuleOutcome[];
  /** Errors outside any rule test: a file that failed to load, a failing hook, an unhandled error. */
  readonly suiteErrors: string[];
  /** The first attempt's requests: the tests' own, and the workers' cleanup (cli/run/request-account.ts). */
  readonly requests?: Pick<RequestAccount, 'tests' | 'cleanup'>;
}

/**
 * conformance.json's `verdict`: `conformant` only when every MUST rule of the catalogue ran in
 * full and passed; `partial` when every rule run passed but not every rule ran in full (--only,
 * rules not run, checks cut short); `not-conformant` when a rule failed, baseline or not;
 * `incomplete` with no verdict (a setup problem, suite errors); `interrupted` by a signal.
 */
export type Verdict = 'conformant' | 'not-conformant' | 'partial' | 'incomplete' | 'interrupted';

/** The verdict as printed (report/verdict.ts RunVerdict). */
export interface VerdictDetail {
  readonly kind: Verdict;
  readonly word: string;
  /** The word, and beside a gate that passed over known failures, that note: the reports' heading. */
  readonly headline: string;
  readonly label: string;
  readonly reasons: readonly string[];
  readonly rulesInCatalogue: number;
  readonly rulesRunInFull: number;
  readonly rulesNotRun: readonly string[];
  readonly cutShort: ReadonlyArray<{ readonly rule: string; readonly test: string; readonly runs: string }>;
}

/** One failure of a test: the expectation beside what was received, and the HTTP exchanges. */
export interface FailureReport {
  readonly message: string;
  readonly expected?: string;
  readonly received?: string;
  readonly note?: string;
  readonly exchanges?: readonly Exchange[];
  /** One POSIX sh command per exchange, in the same order, that sends its request again (report/curl.ts). */
  readonly curl?: readonly string[];
  /** The widgets of this run the exchanges name (ids its ledger held): the console says what became of each at cleanup. */
  readonly runWidgets?: readonly string[];
}

export interface TestReport {
  readonly title: string;
  readonly file: string;
  readonly outcome: Outcome;
  readonly durationMs: number;
  readonly failures?: readonly FailureReport[];
  /** Suite errors: why the test reached no verdict. */
  readonly errors?: readonly string[];
  readonly warnings?: readonly string[];
  readonly skipReason?: string;
  /** Property tests: runs completed of runs asked. */
  readonly runs?: string;
  /** Inconclusive tests: the rules whose failure would explain it. */
  readonly dependsOn?: readonly string[];
  /** Evidence seen by a test of another rule: that test's title (TestOutcome.seenBy). */
  readonly seenBy?: string;
  /** Failed or warned tests: the command that reruns exactly this test (TestOutcome.rerun). */
  readonly rerun?: string;
  /** Failed or warned tests: its replay file and the command that replays it (TestOutcome.replay, without the content). */
  readonly replay?: ReplayRef;
  /** The requests counted for this test (TestOutcome.requests). */
  readonly requests?: TestRequests;
}

/** Why a rule is inconclusive: what it depends on and which of those failed (report/root-causes.ts). */
export interface InconclusiveReport {
  readonly dependsOn: readonly string[];
  /** The failed (or warned) rules that explain it, following inconclusive rules through; empty when none does. */
  readonly explainedBy: readonly string[];
  /** "depends on CRUD-3, which failed"; or "depends on PAGE-1, which passed: …" when nothing explains it. */
  readonly note: string;
}

/** A failed or warned rule not explained by another, and the inconclusive rules its failure explains. */
export interface RootCauseGroup {
  readonly rule: string;
  readonly outcome: 'fail' | 'warn';
  /** What differed, in one line: the first failing test and what it received. */
  readonly headline: string;
  /** Inconclusive rules this failure explains, in catalogue order. */
  readonly explains: readonly string[];
  readonly intermittent?: boolean;
}

export interface RuleReport {
  readonly id: string;
  readonly level: Level;
  readonly section: string;
  readonly statement: string;
  readonly basis: string;
  readonly outcome: Outcome;
  /** Listed in --baseline: a failure here is expected and does not fail the run. */
  readonly baselined?: boolean;
  /** Inconclusive rules: what they depend on and what explains them. */
  readonly inconclusive?: InconclusiveReport;
  /** Failed or warned on the first attempt, passed on the second: still a failure, labelled so. */
  readonly intermittent?: boolean;
  /** Failed or warned rules are run once more with the same seed: the second attempt's evidence. */
  readonly secondAttempt?: SecondAttempt;
  readonly tests: readonly TestReport[];
}

export type Counts = Record<Outcome, number>;

export interface RunReport {
  readonly suite: 'widget-conformance';
  readonly suiteVersion: string;
  /** The Widget Service interface version checked (report/catalogue-hash.ts). */
  readonly interfaceVersion: string;
  /** The rule catalogue the run judged by: its fingerprint and size, so runs can be compared. */
  readonly catalogue: { readonly hash: string; readonly rules: number };
  /** What was tested, as NAME@VERSION (--implementation; default the base URL's host). */
  readonly implementation: string;
  /** Not every rule of the catalogue was run (--only): absent rules were not checked, not passed. */
  readonly partial: boolean;
  /** How the run chose its tests, when it did not run them all: --only, --test, --last-failed. A run with a test filter is partial. */
  readonly selection?: {
    readonly only?: readonly string[];
    readonly test?: readonly string[];
    /** --last-failed: the run chose the rules and tests that broke in the previous run. */
    readonly lastFailed?: boolean;
  };
  /** Rules not run because the run had no second account (--without-second-token): the verdict is then at best partial. */
  readonly notRun?: readonly string[];
  /** "embedded reference server" or the base URL. */
  readonly target: string;
  readonly baseUrl: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly durationMs: number;
  readonly seed: number;
  /** The effective configuration, tokens redacted. */
  readonly config: Record<string, unknown>;
  readonly requests: number;
  /** Where the requests went, by origin: they add up to `requests`. */
  readonly requestsBy?: RequestAccount;
  readonly retries: number;
  /** Wall-clock time the run was blocked by the server's rate-limit pauses. */
  readonly rateLimitWaitMs: number;
  /** Requests the server refused with 429 (or 503 asking for a wait). */
  readonly refused: number;
  /** Requests per second the run was paced at when it ended (--max-rate or what it learned); null when never paced. */
  readonly pacedRate: number | null;
  /** "not-conformant" whenever a rule failed, even one the baseline expects (see verdict.ts). */
  readonly verdict: Verdict;
  /** The verdict as every format prints it: its word, label and reasons, computed once (verdict.ts runVerdict). */
  readonly verdictDetail: VerdictDetail;
  /** The exit code's side: whether the run passed the gate, and over how many failures the baseline expects. */
  readonly gate: { readonly passed: boolean; readonly knownFailures: number };
  readonly exitCode: number;
  /** SHOULD violations fail the run (--strict / --fail-on should). */
  readonly strict: boolean;
  readonly summary: { readonly MUST: Counts; readonly SHOULD: Counts };
  readonly baseline?: {
    readonly file: string;
    /** Baseline rules that failed, as expected. */
    readonly expectedFailures: readonly string[];
    /** Baseline rules that no longer fail: remove them from the baseline. */
    readonly nowPassing: readonly string[];
  };
  readonly rules: readonly RuleReport[];
  /** Failures grouped by root cause: each failed rule with the inconclusive rules it explains (report/root-causes.ts). */
  readonly rootCauses?: readonly RootCauseGroup[];
  /** Errors outside any rule test. */
  readonly suiteErrors: readonly string[];
  readonly cleanup: CleanupReport;
  /** What the implementation chose where the spec is silent: data, never a verdict (report/profile.ts, docs/profile.md). */
  readonly profile?: ProfileReport;
  /** The suite command the run's printed commands start with (report/rerun.ts suiteCommand): never one that fetches a package. */
  readonly command?: string;
}

/** What the run left on the server (see cli/final-cleanup.ts). */
export interface CleanupReport {
  readonly deleted: number;
  /** What could not be verified (a walk that did not reach the end of a list). */
  readonly problems: readonly string[];
  /** Ids not deleted, by account, with the reason. */
  readonly leftovers: ReadonlyArray<{ readonly account: string; readonly id: string; readonly reason: string }>;
  /** Widgets of failing tests left in place on purpose (--keep-failing), journalled for `cleanup`. */
  readonly kept?: ReadonlyArray<{ readonly account: string; readonly id: string; readonly reason: string }>;
  /** True only when nothing is left and every account was walked to the end without a marker. */
  readonly verified: boolean;
}

/** The one-line account of a cleanup, for every report format; `command` is the suite command its `cleanup` starts with. */
export function cleanupHeadline(cleanup: CleanupReport, command = 'widget-conformance'): string {
  const kept = cleanup.kept ?? [];
  const keptText = `${kept.length} widget(s) of failing tests kept in place (--keep-failing) for \`${command} cleanup\` to delete later: ${kept.map((l) => `${l.account} ${JSON.stringify(l.id)}`).join(', ')}`;
  if (kept.length > 0 && cleanup.leftovers.length === 0 && cleanup.problems.length === 0) return `KEPT: ${keptText}`;
  if (cleanup.verified) return `nothing left behind${cleanup.deleted ? ` (cleanup deleted ${cleanup.deleted} widget(s) at the end)` : ''}`;
  const parts = [...cleanup.problems];
  if (kept.length) parts.push(keptText);
  if (cleanup.leftovers.length) parts.push(`${cleanup.leftovers.length} id(s) held and not deleted: ${cleanup.leftovers.map((l) => `${l.account} ${JSON.stringify(l.id)}`).join(', ')}`);
  return `NOT VERIFIED: ${parts.join('; ')}`;
}

/** Zeroed counts. */
export function emptyCounts(): Counts {
  return { pass: 0, fail: 0, warn: 0, skip: 0, error: 0, inconclusive: 0 };
}
