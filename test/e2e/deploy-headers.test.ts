/**
 * --header against a gateway-like server that refuses every request without its tenant
 * header: with the header the run reaches the rules (and fails only the rule the server
 * breaks), without it the run ends at the probe; a header marked secret (by name, or with
 * --secret-header / WIDGET_SECRET_HEADERS) appears in no output, while the recorded exchanges
 * name it with its value hidden; a header that is no secret is shown as sent.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { RequestHandler } from '../../src/reference/server.ts';
import { CRUD_FAULTS } from '../servers/faults/index.ts';
import { runAgainst } from '../servers/serve.ts';
import { TOKENS } from '../servers/support.ts';
import { explain, outcomesOf, reportTexts, type SuiteRun } from '../support/suite-runner.ts';

// Long enough that hiding it everywhere hides nothing else (every occurrence of a secret is redacted).
const TENANT = 'tenant-t1-5c0ffee';
const GATEWAY_KEY = 'gw-key-7d1e2b9a';
const ONLY = ['--only', 'FMT,CRUD'];

/** The server that breaks CRUD-4 only, behind a gate that wants X-Tenant and X-Gateway-Key. */
function gated(): { handler: RequestHandler; tokens: readonly [string, string] } {
  const inner = CRUD_FAULTS.find((f) => f.name === 'retrieve-drops-description')!.make();
  return {
    tokens: TOKENS,
    handler: {
      handle: (req, res) => {
        if (req.headers['x-tenant'] !== TENANT || req.headers['x-gateway-key'] !== GATEWAY_KEY) {
          res.writeHead(401, { 'content-type': 'application/json' }).end('{"code":"no_tenant","message":"X-Tenant and X-Gateway-Key required."}');
          return;
        }
        return inner.handler.handle(req, res);
      },
    },
  };
}

function everyOutput(run: SuiteRun): string[] {
  return [run.stdout, run.stderr, ...reportTexts(run.reportDir).map(([, text]) => text)];
}

describe.concurrent('--header', () => {
  test('reaches the server on every request, and its value is in no output', async () => {
    // Flags replace the variable as a whole: X-Ignored is not sent.
    const run = await runAgainst(gated(), [...ONLY, '--header', `X-Tenant: ${TENANT}`, `--header=X-Gateway-Key: ${GATEWAY_KEY}`, '--secret-header', 'X-Tenant'], { env: { WIDGET_HEADERS: 'X-Ignored: flags win' } });
    expect(run.exitCode, explain(run)).toBe(1);
    const outcomes = outcomesOf(run.report);
    expect(Object.entries(outcomes).filter(([, o]) => o !== 'pass' && o !== 'warn' && o !== 'skip')).toEqual([['CRUD-4', 'fail']]);
    const json = readFileSync(join(run.reportDir, 'conformance.json'), 'utf8');
    // The failure's recorded request names both headers and hides their values.
    expect(json).toContain('"X-Tenant": "[REDACTED]"');
    expect(json).toContain('"X-Gateway-Key": "[REDACTED]"');
    expect(run.report?.config.headers).toEqual({ 'X-Tenant': '[REDACTED]', 'X-Gateway-Key': '[REDACTED]' });
    for (const text of everyOutput(run)) {
      expect(text.includes(TENANT), 'the tenant value in the output').toBe(false);
      expect(text.includes(GATEWAY_KEY), 'the gateway key in the output').toBe(false);
    }
  });

  test('from WIDGET_HEADERS, one per line; without the headers the gateway refuses the probe (exit 2)', async () => {
    const withEnv = await runAgainst(gated(), ['--only', 'FMT'], { env: { WIDGET_HEADERS: `X-Tenant: ${TENANT}\nX-Gateway-Key: ${GATEWAY_KEY}`, WIDGET_SECRET_HEADERS: 'X-Tenant' } });
    expect(withEnv.exitCode, explain(withEnv)).toBe(0);
    const without = await runAgainst(gated(), ['--only', 'FMT', '--header', `X-Tenant: ${TENANT}`], { env: { WIDGET_SECRET_HEADERS: 'X-Tenant' } });
    expect(without.exitCode, explain(without)).toBe(2);
    for (const text of [...everyOutput(withEnv), without.stdout, without.stderr]) {
      expect(text.includes(TENANT) || text.includes(GATEWAY_KEY), 'a header value in the output').toBe(false);
    }
  });

  test('a header that is no secret is shown as sent, and a short value never corrupts a report', async () => {
    const open = { handle: gated().handler.handle } as RequestHandler;
    const run = await runAgainst({ tokens: TOKENS, handler: open }, [...ONLY, '--header', `X-Tenant: ${TENANT}`, `--header=X-Gateway-Key: ${GATEWAY_KEY}`, '--header', 'X-Api-Version: 4']);
    expect(run.exitCode, explain(run)).toBe(1);
    const json = readFileSync(join(run.reportDir, 'conformance.json'), 'utf8');
    expect(() => JSON.parse(json) as unknown).not.toThrow();
    expect(run.report?.config.headers).toEqual({ 'X-Tenant': TENANT, 'X-Gateway-Key': '[REDACTED]', 'X-Api-Version': '4' });
    expect(json).toContain(`"X-Tenant": "${TENANT}"`);
    expect(json).toContain('"X-Gateway-Key": "[REDACTED]"');
    for (const text of everyOutput(run)) expect(text.includes(GATEWAY_KEY), 'the gateway key in the output').toBe(false);
  });

  test('Authorization as a --header is one line and exit 2', async () => {
    const run = await runAgainst(gated(), ['--header', `Authorization: Bearer ${GATEWAY_KEY}`]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual(['widget-conformance: --header cannot set Authorization: tokens have their own options (--token, --second-token, --token-command)']);
  });
});
