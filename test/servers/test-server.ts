/**
 * A test server: a faulty, variant or hostile reference service and its two tokens. Its own
 * module, so that the servers' descriptions load in the unit tier without the suite runner
 * (serve.ts, which starts the suite as a child process).
 */
import type { RequestHandler } from '../../src/reference/server.ts';

/** A request handler to serve on loopback, and the tokens of its two accounts. */
export interface TestServer {
  readonly handler: RequestHandler;
  /** Token of the account under test and of the second account. */
  readonly tokens: readonly [string, string];
}
