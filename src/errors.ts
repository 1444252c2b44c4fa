/**
 * Every error class of the suite, in one place. Suite errors: the suite could not run (bad
 * configuration, unreachable target, a transport fault, a rate limit it could not wait out).
 * They are kept apart from conformance failures (harness/failure.ts, a verdict, not an error):
 * a suite error is never a verdict on the server.
 */

/** Raised for any usage or configuration problem; the CLI maps it to exit code 2. */
export class ConfigError extends Error {
  readonly code = 'ERR_CONFIG';
  override readonly name = 'ConfigError';
}
export class SuiteError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    // The name survives vitest's serialisation between worker and runner; the runner sorts on it.
    this.name = 'SuiteError';
    // The message says what went wrong with the target; a stack into the suite's code would only hide it.
    this.stack = `${this.name}: ${message}`;
  }
}

/** The request got no complete HTTP answer: refused, reset, timed out, too large, bad TLS. */
export class TransportError extends SuiteError {
  constructor(
    message: string,
    /** False when the request was never sent (the run's deadline, a target given up): nothing the server did. */
    readonly sent = true,
    /** True when the answer came but its body passed the suite's cap: a limit of the suite, not a silence. */
    readonly overCap = false,
  ) {
    super(message, 'ERR_TRANSPORT');
  }
}

/** The server kept answering 429/503 beyond the retry budget, or asked for a longer wait than allowed. */
export class RateLimitError extends SuiteError {
  /** @param status the answer that asked the client to wait: 429, or 503 with Retry-After */
  constructor(message: string, readonly status?: number) {
    super(message, 'ERR_RATE_LIMIT');
  }
}

/** True for errors (also after serialisation) that mean "the suite could not run", not "the server broke a rule". */
export function isSuiteError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'SuiteError';
}

/**
 * A check could not reach a verdict because something it relies on is broken (e.g. a list walk
 * that never ends, creates that return the same id twice). `dependsOn` names the rules whose
 * failure explains it ("depends on CRUD-3, which failed"): the report shows the rule as
 * inconclusive under that root cause instead of blaming a rule the fault does not break.
 */
export class InconclusiveError extends SuiteError {
  /** Rule ids whose failure explains this one; empty when no rule of the catalogue does. */
  readonly dependsOn: readonly string[];
  constructor(message: string, dependsOn: readonly string[] = []) {
    super(message, 'ERR_INCONCLUSIVE');
    this.dependsOn = [...dependsOn];
  }
}

/**
 * A test ended having observed nothing of the server: no check was evaluated against an answer
 * (every case skipped, a loop over nothing). It did not fail, but it checked nothing, so it has no
 * verdict: never a pass. `observedNothing` survives vitest's serialisation (an own property), so
 * the runner says why (report/root-causes.ts).
 */
export class NothingObservedError extends InconclusiveError {
  readonly observedNothing = true;
  constructor(message: string) {
    super(message, []);
  }
}

/**
 * A list page larger than the body cap whose part read settles nothing: it shows no more complete
 * widgets than the limit (or no limit was sent), and a page may be that large lawfully (extra
 * fields, long names). No rule is broken that the suite can tell: the check has no verdict, a
 * limit of the suite said as such (an error, exit 3), never an inconclusive blaming no rule.
 */
export class OverCapError extends SuiteError {
  constructor(message: string) {
    super(message, 'ERR_OVER_CAP');
  }
}

/** The target stopped accepting a token it accepted before: a setup problem (exit 2), not a verdict. */
export class TokenRejectedError extends SuiteError {
  constructor(
    message: string,
    /** What the target answered when it refused the token: its status and the message it gave, if any. */
    readonly answer?: { readonly status: number; readonly message?: string },
  ) {
    super(message, 'ERR_TOKEN_REJECTED');
  }
}

/** The target could not be reached by the check before any test (exit 3). */
export class UnreachableError extends SuiteError {
  constructor(message: string) {
    super(message, 'ERR_UNREACHABLE');
  }
}

/** The target refused a configured token at the check before any test (exit 2). */
export class RejectedTokenError extends SuiteError {
  constructor(message: string) {
    super(message, 'ERR_TOKEN_REJECTED');
  }
}

/**
 * The target's first answers show a setup the suite cannot test (a base URL without /v1, a
 * redirect, a web page instead of the API, an outage), found before any test: exit 2 or 3.
 */
export class SetupProblemError extends SuiteError {
  constructor(
    message: string,
    /** 2: the configuration points at the wrong thing; 3: the target cannot be tested now. */
    readonly exitCode: 2 | 3,
  ) {
    super(message, 'ERR_SETUP');
  }
}

/** An id the suite will not put in a path (see client/ownership.ts unsafeSegment): never sent, reported instead. */
export class UnsafeIdError extends SuiteError {
  constructor(
    message: string,
    /** Why, without the request: for the cleanup report. */
    readonly reason: string,
  ) {
    super(message, 'ERR_UNSAFE_ID');
  }
}

/** Why the delete rule (client/ledger.ts) did not send a write, as a type: code decides on this, never on the words of the reason. */
export type Refusal =
  | 'pre-existing'
  | 'lost-write'
  | 'lookalike'
  | 'collided'
  | 'contradicted'
  | 'second-delete'
  | 'refused-elsewhere'
  | 'not-ours'
  | 'unmarked'
  | 'absent'
  | 'withheld'
  | 'unknown'
  | 'another'
  /** The write carries a credential that is no account's own, and an account shows a widget at the id the rule does not prove the suite's: nothing about the widget, only that the write cannot be sent safely on this server. */
  | 'credential'
  /** A DELETE of an extension of the run's own widget's id (DEL-4) that a lenient lookup could take for another widget, or whose proof failed: see client/ledger.ts extensionVerdict. */
  | 'extension';

/** A delete the suite refused to send: the server never showed the widget to be the suite's own. */
export class UnprovenDeleteError extends SuiteError {
  constructor(
    message: string,
    /** Why, without the request: for the cleanup report. */
    readonly reason: string,
    /** Why, as a type (client/ledger.ts deleteVerdict). */
    readonly why: Refusal,
    /** The rule the server broke that made the widget unprovable (CRUD-3, CRUD-4), when one did. */
    readonly broken?: string,
    /** The id and account of the delete not sent: a check asks the owner's retrieve again (harness/prerequisites.ts unprovenBecauseLost). */
    readonly at?: { readonly id: string; readonly account: string },
  ) {
    super(message, 'ERR_UNPROVEN_DELETE');
  }
}

/**
 * A PUT or PATCH on /widgets the suite will not send: the account held widgets before the run
 * (or its inventory walk was cut short), and a server could apply such a request to all of them.
 */
export class CollectionWriteRefused extends SuiteError {
  constructor(readonly method: string) {
    super(`${method} /widgets not sent without --allow-collection-writes: a server that took ${method} on the collection for "change them all" would touch widgets the suite did not create, ones its list hides too`, 'ERR_COLLECTION_WRITE_REFUSED');
  }
}
