/**
 * Suite errors: the suite could not run (bad configuration, unreachable target, a transport
 * fault, a rate limit it could not wait out). They are kept apart from conformance failures:
 * a suite error is never a verdict on the server.
 */
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
  constructor(message: string) {
    super(message, 'ERR_TRANSPORT');
  }
}

/** The server kept answering 429/503 beyond the retry budget, or asked for a longer wait than allowed. */
export class RateLimitError extends SuiteError {
  constructor(message: string) {
    super(message, 'ERR_RATE_LIMIT');
  }
}

/** True for errors (also after serialisation) that mean "the suite could not run", not "the server broke a rule". */
export function isSuiteError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'SuiteError';
}

/** A check could not reach a verdict because something it relies on is broken (e.g. a list walk that never ends). */
export class InconclusiveError extends SuiteError {
  constructor(message: string) {
    super(message, 'ERR_INCONCLUSIVE');
  }
}

/** The target stopped accepting a token it accepted before: a setup problem (exit 2), not a verdict. */
export class TokenRejectedError extends SuiteError {
  constructor(message: string) {
    super(message, 'ERR_TOKEN_REJECTED');
  }
}
