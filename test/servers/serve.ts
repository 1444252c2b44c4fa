/** Serves a test server (a faulty or variant reference service) on loopback for one suite run. */
import { startServer, type RequestHandler } from '../../src/reference/server.ts';
import { runSuite, type RunOptions, type SuiteRun } from '../support/suite-runner.ts';

export interface TestServer {
  readonly handler: RequestHandler;
  /** Token of the account under test and of the second account. */
  readonly tokens: readonly [string, string];
}

/** Starts the server, runs the whole suite against it with both tokens, and stops the server. */
export async function runAgainst(server: TestServer, extraArgs: readonly string[] = [], options: RunOptions = {}): Promise<SuiteRun> {
  const running = await startServer(server.handler);
  try {
    return await runSuite(['--base-url', running.baseUrl, '--token', server.tokens[0], '--second-token', server.tokens[1], ...extraArgs], options);
  } finally {
    await running.close();
  }
}
