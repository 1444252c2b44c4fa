/**
 * Every exit code of `npm test` and what it means: the one source of --help's list, and of the
 * README's "Exit codes" table (test/unit/exit-codes.test.ts holds the README to it), so a CI
 * author reads the same meaning wherever they look.
 */
export interface ExitCode {
  readonly code: number;
  readonly meaning: string;
}

export const EXIT_CODES: readonly ExitCode[] = [
  {
    code: 0,
    meaning:
      'the gate passed: no rule run failed (a MUST rule, or with --strict a SHOULD rule too), or, with --baseline, every ' +
      'failure is in the baseline (the verdict still says NOT CONFORMANT). The verdict says CONFORMANT only when every MUST ' +
      'rule of the catalogue ran in full; a run of selected rules (--only), one that did not run some (--without-second-token, ' +
      'the --max-run-time deadline) or one with a check cut short by --property-budget after at least one of its runs still exits 0 when what ran passed, ' +
      'and its verdict says PASSED (partial: N of M rules), or, with tests chosen by name (--test, --last-failed), PASSED (partial: tests of N of M rules)',
  },
  { code: 1, meaning: 'at least one rule failed' },
  {
    code: 2,
    meaning:
      'usage or configuration error (including a report directory or GITHUB_STEP_SUMMARY that cannot be written, ' +
      'checked before the first request); the target refused the given token, or stopped accepting it during the run ' +
      '(one line naming the request; the tests after it are not run); or, checked once before any test, the base URL ' +
      'is not the interface: GET /widgets answered 404 (the /v1 prefix missing?), a redirect (not followed), or a body ' +
      'that is not JSON (a web page)',
  },
  {
    code: 3,
    meaning:
      'the suite could not run: the target could not be reached (checked once before any test: connection refused, ' +
      'DNS, TLS, timeout, 5xx to every request of every account: an outage, or 503 or 429 however often retried), or suite errors (or inconclusive rules no failure explains) during the run and no rule failed; or the target refused requests (429/503) beyond the wait budget during the run (one line says how many, with what, and a --max-rate to try; the tests after it are not run); or the run ended without a verdict: every selected rule was skipped, or a step never finished (one line says which)',
  },
  { code: 130, meaning: 'interrupted by SIGINT (after deleting what the run created)' },
  { code: 143, meaning: 'interrupted by SIGTERM (after deleting what the run created)' },
];
