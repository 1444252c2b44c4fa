/**
 * --token-command: the token comes from a shell command run before the probe, and again when
 * the target stops accepting it; the refused request is retried once with the new token. A
 * target that refuses the renewed token too, and a command that fails or prints nothing, end
 * the run with exit 2; no token, and nothing the command wrote to stderr, reaches any output.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ReferenceService } from '../../src/reference/service.ts';
import { startServer } from '../../src/reference/server.ts';
import { explain, reportTexts, runSuite, type SuiteRun } from '../support/suite-runner.ts';

const TOKEN_A = 'tok-first-a1b2c3d4';
const TOKEN_B = 'tok-renewed-e5f6a7b8';
const SECOND = 'tok-second-c9d0e1f2';
/** Token A works for this many requests, then only B does (the probe and some tests use A). */
const A_LIFETIME = 25;
const ONLY = ['--only', 'FMT,CRUD'];

/** A command that prints A the first time and B every time after, counting its runs in a file. */
function commandFile(dir: string, prints: string): string {
  const script = join(dir, 'token.sh');
  writeFileSync(script, `n=$(cat "${dir}/count" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "${dir}/count"; ${prints}\n`);
  return `sh ${script}`;
}

/** Runs the suite against a server that stops accepting token A after A_LIFETIME requests. */
async function runExpiring(args: readonly string[]): Promise<SuiteRun> {
  const service = new ReferenceService({ tokens: { [TOKEN_A]: 'alice', [TOKEN_B]: 'alice', [SECOND]: 'bob' } });
  let requests = 0;
  const server = await startServer({
    handle: (req, res) => {
      requests += 1;
      if (requests > A_LIFETIME && req.headers.authorization === `Bearer ${TOKEN_A}`) {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"code":"expired","message":"The token expired."}');
        return;
      }
      return service.handle(req, res);
    },
  });
  try {
    return await runSuite(['--base-url', server.baseUrl, '--second-token', SECOND, ...ONLY, ...args]);
  } finally {
    await server.close();
  }
}

function everyOutput(run: SuiteRun): string {
  return [run.stdout, run.stderr, ...reportTexts(run.reportDir).map(([, text]) => text)].join('\n');
}

describe.concurrent('--token-command', () => {
  test('a token the target stops accepting is renewed once, the refused request retried, and the run passes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wcs-token-'));
    const run = await runExpiring(['--token-command', commandFile(dir, `if [ $n -eq 1 ]; then echo ${TOKEN_A}; else echo ${TOKEN_B}; fi`)]);
    expect(run.exitCode, explain(run)).toBe(0);
    // Once at the start, once to renew.
    expect(readFileSync(join(dir, 'count'), 'utf8').trim()).toBe('2');
    const output = everyOutput(run);
    for (const token of [TOKEN_A, TOKEN_B, SECOND]) expect(output.includes(token), 'a token in the output').toBe(false);
    expect(run.report?.config.tokenCommand).toBe('[REDACTED]');
  });

  test('a command that keeps printing the refused token ends the run with exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wcs-token-'));
    const run = await runExpiring(['--token-command', commandFile(dir, `echo ${TOKEN_A}`)]);
    expect(run.exitCode, explain(run)).toBe(2);
    expect(run.stderr).toContain("the target stopped accepting the primary account's token during the run");
    expect(run.stderr).toContain('again with the token the command renewed');
    expect(everyOutput(run).includes(TOKEN_A)).toBe(false);
  });

  test('a command that fails is one line with its exit code and exit 2, its stderr never shown', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wcs-token-'));
    const run = await runExpiring(['--token-command', commandFile(dir, `echo ${TOKEN_A}; echo "secret-in-stderr" >&2; exit 7`)]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual(['widget-conformance: --token-command exited with code 7 (its output is not shown: it may hold secrets)']);
    expect(run.stdout + run.stderr).not.toContain('secret-in-stderr');
    expect(run.stdout + run.stderr).not.toContain(TOKEN_A);
  });

  test('a command that prints nothing is one line and exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wcs-token-'));
    const run = await runExpiring(['--token-command', commandFile(dir, 'true')]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr.trim()).toBe('widget-conformance: --token-command printed nothing (its output is not shown: it may hold secrets)');
  });
});
