/**
 * Where a run's requests went (harness/request-tally.ts counts them in each worker, the runner adds
 * its own): the figures conformance.json and `npm run bench` show per test and per rule.
 */

/** The requests of one test: those its code sent, and those the worker's cleanup sent for the widgets it created. */
export interface TestRequests {
  readonly sent: number;
  readonly cleanup: number;
}

/** A run's requests by origin; they add up to the run's `requests`. */
export interface RequestAccount {
  /** Sent by the tests' own code (the first attempt). */
  readonly tests: number;
  /** Sent by the workers' cleanup after the tests: the widgets' proofs, deletes and the retrieves proving them gone (most counted for the test that created each). */
  readonly cleanup: number;
  /** Sent by the runner itself: the first contact, the inventory before the first create, the final cleanup and its sweeps. */
  readonly runner: number;
  /** Sent by the second attempt at the rules that failed or warned. */
  readonly secondAttempt: number;
}
