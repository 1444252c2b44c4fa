/** Serves a test server (a faulty or variant reference service) on loopback for one suite run. */
import { startServer } from '../../src/reference/server.ts';
import { runSuite, type RunOptions, type SuiteRun } from '../support/suite-runner.ts';
import type { TestServer } from './test-server.ts';

export type { TestServer };

/** Starts the server, runs the whole suite against it with both tokens, and stops the server. */
export async function runAgainst(server: TestServer, extraArgs: readonly string[] = [], options: RunOptions = {}): Promise<SuiteRun> {
  const running = await startServer(server.handler);
  try {
    return await runSuite(['--base-url', running.baseUrl, '--token', server.tokens[0], '--second-token', server.tokens[1], ...extraArgs], options);
  } finally {
    await running.close();
  }
}
