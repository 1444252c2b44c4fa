/**
 * npm prints a script's whole command line before running it, so a token given as a flag
 * through npm is on the console before the suite can hide it: the suite says so in one line.
 * Tokens from the environment raise no warning, and neither does a flag outside npm.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer, type RunningServer } from '../../src/reference/server.ts';
import { explain, runSuite } from '../support/suite-runner.ts';

const WARNING = 'npm printed the command line above, token included';
let server: RunningServer & { tokens: [string, string] };

beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(async () => server.close());

describe.concurrent('a token flag echoed by npm', () => {
  test('under npm, --token gets a one-line warning that npm echoed it', async () => {
    const run = await runSuite(['--base-url', server.baseUrl, '--token', server.tokens[0], '--only', 'FMT-1'], { env: { npm_lifecycle_event: 'test' } });
    expect(run.exitCode, explain(run)).toBe(0);
    expect(run.stderr.split('\n').filter((l) => l.includes(WARNING))).toHaveLength(1);
  });

  test('under npm with --silent, nothing was echoed and nothing is said', async () => {
    const run = await runSuite(['--base-url', server.baseUrl, '--token', server.tokens[0], '--only', 'FMT-1'], { env: { npm_lifecycle_event: 'test', npm_config_loglevel: 'silent' } });
    expect(run.stderr).not.toContain(WARNING);
  });

  test('a token from the environment under npm raises no warning', async () => {
    const run = await runSuite(['--base-url', server.baseUrl, '--only', 'FMT-1'], { env: { npm_lifecycle_event: 'test', WIDGET_TOKEN: server.tokens[0] } });
    expect(run.exitCode, explain(run)).toBe(0);
    expect(run.stderr).not.toContain(WARNING);
  });
});
