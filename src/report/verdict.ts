/**
 * The verdict and the gate, kept apart. A baseline lets the gate pass (exit 0) over failures
 * it expects, but a server that fails a rule is not conformant, whatever the exit code: every
 * format (console, JSON, Markdown, HTML) says so, in the same words, with the count.
 */
import type { Verdict } from './model.ts';

export interface VerdictInput {
  readonly interrupted: boolean;
  readonly exitCode: number;
  /** Rules that failed as the baseline expects (they did not fail the run). */
  readonly knownFailures: number;
  /** Rules not run for want of a second account (--without-second-token). */
  readonly notRun?: readonly string[];
}

/** The verdict of a run: never "conformant" while a rule fails, baseline or not. */
export function verdictOf(run: VerdictInput): Verdict {
  if (run.interrupted) return 'interrupted';
  if (run.exitCode === 1) return 'not-conformant';
  if (run.exitCode === 0) return run.knownFailures > 0 ? 'not-conformant' : (run.notRun?.length ?? 0) > 0 ? 'partial' : 'conformant';
  return 'incomplete';
}

/** Said of a partial run: which rules were not run, and why. */
export function notRunNote(notRun: readonly string[]): string {
  return `${notRun.join(', ')} not run: no second account (--without-second-token)`;
}

/** Said beside a "not conformant" verdict whose gate passed: why the exit code is 0 anyway. */
export function gatePassedNote(knownFailures: number): string {
  return `gate passed: ${knownFailures} known failure${knownFailures === 1 ? '' : 's'} in the baseline`;
}
