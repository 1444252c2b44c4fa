/**
 * The verdict, computed once from the evidence, and printed by every format (console, JSON,
 * Markdown, HTML, JUnit, badge, job summary) as it is here: no format words a verdict of its own.
 *
 * The verdict and the gate are kept apart. A baseline lets the gate pass (exit 0) over failures
 * it expects, but a server that fails a rule is not conformant, whatever the exit code. And a run
 * that passed is CONFORMANT only when every MUST rule of the catalogue ran in full: a run that
 * selected rules (--only), did not run some (no second account, a deadline, an interruption), or
 * cut a check short (a property stopped by its time budget) passed what it ran, and says so in
 * the verdict's own word: `PASSED (partial: 6 of 42 rules)`.
 */
import type { Level } from '../rules.ts';
import type { Outcome, Verdict, VerdictDetail } from './model.ts';

/** What the verdict reads of one test: its outcome, why it was skipped, how many property runs it completed. */
export interface VerdictTest {
  readonly title: string;
  readonly outcome: Outcome;
  readonly skipReason?: string;
  /** Property tests: "32 of 50 (stopped by the --property-budget of 60000 ms)". */
  readonly runs?: string;
}

/** What the verdict reads of one rule of the run. */
export interface VerdictRule {
  readonly id: string;
  readonly level: Level;
  readonly outcome: Outcome;
  readonly baselined?: boolean;
  readonly tests: readonly VerdictTest[];
}

export interface VerdictInput {
  readonly interrupted: boolean;
  readonly exitCode: number;
  /** Rules that failed as the baseline expects (they did not fail the run). */
  readonly knownFailures: number;
  /** Rules not run for want of a second account (--without-second-token). */
  readonly notRun?: readonly string[];
  /** The rules of the run (absent: only the exit code and the counts above decide). */
  readonly rules?: readonly VerdictRule[];
  /** The rule catalogue the run judges by: id and level of each rule. */
  readonly catalogue?: ReadonlyArray<{ readonly id: string; readonly level: Level }>;
  /** Tests were selected by name (--test, --only RULE.text, --last-failed): no rule of the run is known to have run in full. */
  readonly narrowed?: Narrowing;
}

/** How a run chose its tests by name, as its verdict says it (narrowingOf). */
export interface Narrowing {
  /** A test-name filter was given: --test, or --only RULE.text. */
  readonly byName: boolean;
  /** --only named the rules (`RULE.text` entries included); without it, a test filter alone chose them. */
  readonly only: boolean;
  /** --last-failed chose the rules and tests that broke in the previous run. */
  readonly lastFailed: boolean;
}

/** The narrowing of a run's selection (RunReport.selection), or undefined when no test was chosen by name. */
export function narrowingOf(selection: { readonly only?: readonly string[]; readonly test?: readonly string[]; readonly lastFailed?: boolean } | undefined): Narrowing | undefined {
  const byName = (selection?.test?.length ?? 0) > 0;
  const lastFailed = selection?.lastFailed === true;
  if (!byName && !lastFailed) return undefined;
  return { byName, only: selection?.only !== undefined && !lastFailed, lastFailed };
}

/** What chose the tests of a narrowed run, in the words of its options. */
function narrowedBy(n: Narrowing): string {
  const by = [...(n.byName ? [n.only ? '--test or --only RULE.text' : '--test'] : []), ...(n.lastFailed ? ['--last-failed'] : [])];
  return by.join(' and ');
}

/** A check that passed (or warned) on fewer property runs than asked. */
export interface CutShort {
  readonly rule: string;
  readonly test: string;
  /** "32 of 50 (stopped by the --property-budget of 60000 ms)". */
  readonly runs: string;
}

/** The verdict of a run, as every format prints it (report/model.ts VerdictDetail: `word` is what every format prints, `label` the word with why). */
export type RunVerdict = VerdictDetail;

/** "32 of 50 …": completed and asked; undefined when the text says otherwise. */
function runsOf(runs: string | undefined): { completed: number; asked: number } | undefined {
  const m = /^(\d+) of (\d+)/.exec(runs ?? '');
  return m ? { completed: Number(m[1]), asked: Number(m[2]) } : undefined;
}

/** A test that never ran (no second account, the deadline, a signal, a token refused): unlike a skip the test decided on from the server's answers. */
function neverRan(t: VerdictTest): boolean {
  return t.outcome === 'skip' && (t.skipReason === undefined || t.skipReason.startsWith('not run') || t.skipReason.includes('--second-token'));
}

/** Whether a property test's "32 of 50 …" says it completed fewer runs than asked. */
export function isCutShort(runs: string | undefined): boolean {
  const n = runsOf(runs);
  return n !== undefined && n.completed < n.asked;
}

/** The checks of the run that passed or warned on fewer runs than asked. */
export function cutShortChecks(rules: readonly VerdictRule[]): CutShort[] {
  return rules.flatMap((r) =>
    r.tests
      .filter((t) => (t.outcome === 'pass' || t.outcome === 'warn') && isCutShort(t.runs))
      .map((t) => ({ rule: r.id, test: t.title, runs: t.runs as string })),
  );
}

/** "cut short: 32 of 50 runs (stopped by …)": how much of a check ran, where it is shown passing. */
export function cutShortNote(runs: string): string {
  const m = /^(\d+ of \d+)(.*)$/.exec(runs);
  return m ? `cut short: ${m[1]} runs${m[2]}` : `cut short: ${runs}`;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Ids as a short list: the first eight, then how many more. */
function ids(list: readonly string[]): string {
  return list.length <= 8 ? list.join(', ') : `${list.slice(0, 8).join(', ')} and ${list.length - 8} more`;
}

/** The verdict of a run: never "conformant" while a rule fails (baseline or not), nor while a rule of the catalogue did not run in full. */
export function runVerdict(run: VerdictInput): RunVerdict {
  const rules = run.rules ?? [];
  const catalogue = run.catalogue ?? rules.map((r) => ({ id: r.id, level: r.level }));
  const byId = new Map(rules.map((r) => [r.id, r]));
  const cutShort = cutShortChecks(rules);
  const cut = new Set(cutShort.map((c) => c.rule));
  const notSelected = catalogue.filter((c) => !byId.has(c.id)).map((c) => c.id);
  const secondAccount = new Set(run.notRun ?? []);
  const skipped = rules.filter((r) => r.outcome === 'skip' || secondAccount.has(r.id)).map((r) => r.id);
  const partlyRun = rules.filter((r) => r.outcome !== 'skip' && !secondAccount.has(r.id) && (run.narrowed !== undefined || r.tests.some(neverRan))).map((r) => r.id);
  // A rule its other tests judged while one observed nothing of the server (cli/outcomes.ts ruleOutcomeOf): passed on part of its checks only.
  const unobserved = rules.filter((r) => (r.outcome === 'pass' || r.outcome === 'warn') && r.tests.some((t) => t.outcome === 'inconclusive')).map((r) => r.id);
  const notInFull = new Set([...notSelected, ...skipped, ...secondAccount, ...partlyRun, ...cut, ...unobserved]);
  const rulesRunInFull = catalogue.filter((c) => !notInFull.has(c.id)).length;
  const reasons: string[] = [];
  // Said as the options that left them out: --only, the rules that broke last time, or a test filter that matched none of their tests.
  const leftOutBy = !run.narrowed || run.narrowed.only ? 'not selected (--only)' : run.narrowed.lastFailed ? 'not selected (--last-failed: only what broke in the previous run)' : 'with no test the test filter selected (--test)';
  if (notSelected.length > 0) reasons.push(`${plural(notSelected.length, 'rule')} of the catalogue ${leftOutBy}: ${ids(notSelected)}`);
  if (secondAccount.size > 0) reasons.push(notRunNote([...secondAccount]));
  const otherSkips = skipped.filter((id) => !secondAccount.has(id));
  if (otherSkips.length > 0) reasons.push(`not run: ${ids(otherSkips)} (every test skipped; the reports give each reason)`);
  if (run.narrowed) reasons.push(`tests selected by name (${narrowedBy(run.narrowed)}): ${plural(partlyRun.length, 'rule')} ran some of their tests, none is known to have run in full`);
  else if (partlyRun.length > 0) reasons.push(`some tests not run: ${ids(partlyRun)}`);
  if (unobserved.length > 0) reasons.push(`some tests made no observation of the server (no check evaluated, so no verdict): ${ids(unobserved)}`);
  // One reason per rule and note: two checks of a rule stopped alike are said once, counted.
  const cutNotes = new Map<string, number>();
  for (const c of cutShort) cutNotes.set(`${c.rule} ${cutShortNote(c.runs)}`, (cutNotes.get(`${c.rule} ${cutShortNote(c.runs)}`) ?? 0) + 1);
  for (const [note, n] of cutNotes) reasons.push(n > 1 ? `${note} (${n} checks)` : note);
  const failed = rules.filter((r) => r.outcome === 'fail' && !r.baselined).map((r) => r.id);
  const warned = rules.filter((r) => r.outcome === 'warn').map((r) => r.id);
  const base = { reasons, rulesInCatalogue: catalogue.length, rulesRunInFull, rulesNotRun: [...new Set([...notSelected, ...skipped, ...secondAccount])], cutShort };
  const make = (kind: Verdict, word: string, why: string): RunVerdict => ({ kind, word, headline: word, label: why ? `${word}: ${why}` : word, ...base });
  if (run.interrupted) return make('interrupted', 'INTERRUPTED', 'the run was stopped by a signal, no verdict');
  if (run.exitCode === 1) return make('not-conformant', 'NOT CONFORMANT', failed.length > 0 ? `${plural(failed.length, 'rule')} failed: ${ids(failed)}` : 'at least one rule failed');
  if (run.exitCode === 0 && run.knownFailures > 0) {
    const headline = `NOT CONFORMANT (${gatePassedNote(run.knownFailures)})`;
    return { ...make('not-conformant', 'NOT CONFORMANT', ''), headline, label: headline };
  }
  if (run.exitCode === 2) return make('incomplete', 'NO VERDICT', 'a setup problem (see the line below)');
  if (run.exitCode !== 0) return make('incomplete', 'INCOMPLETE', 'the suite could not complete (suite errors or inconclusive rules, no rule failure)');
  const should = warned.length > 0 ? `; ${plural(warned.length, 'SHOULD rule')} warned: ${ids(warned)}` : '';
  if (notInFull.size > 0) {
    // A run narrowed by name ran some tests of its rules: counted as such, never as "0 of 42 rules".
    const word = run.narrowed ? `PASSED (partial: tests of ${partlyRun.length} of ${plural(catalogue.length, 'rule')})` : `PASSED (partial: ${rulesRunInFull} of ${plural(catalogue.length, 'rule')})`;
    return make('partial', word, `every rule run passed, but not every rule ran in full: ${reasons.join('; ')}${should}`);
  }
  return make('conformant', 'CONFORMANT', `every MUST rule of the catalogue ran in full and passed${should}`);
}

/** The verdict's kind alone (conformance.json's `verdict`). */
export function verdictOf(run: VerdictInput): Verdict {
  return runVerdict(run).kind;
}

/** Said of a run without a second account: which rules were not run, and why. */
export function notRunNote(notRun: readonly string[]): string {
  return `${notRun.join(', ')} not run: no second account (--without-second-token)`;
}

/** Said beside a "not conformant" verdict whose gate passed: why the exit code is 0 anyway. */
export function gatePassedNote(knownFailures: number): string {
  return `gate passed: ${knownFailures} known failure${knownFailures === 1 ? '' : 's'} in the baseline`;
}
