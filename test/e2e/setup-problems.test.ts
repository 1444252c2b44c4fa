/**
 * Setup problems end the run in one line, never as pages of rule failures: a base URL without
 * /v1, a redirect, a web page, an outage (found by the probe before any test), and a token the
 * target stops accepting mid-run (exit 2 naming the request, the tests after it not run, the
 * cleanup still tried and its leftovers listed by id). Setup problems are not catalogue rules;
 * the tests name the problem, and assert that no rule is reported failed.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { leftoverLines } from '../../src/cli/run/final-cleanup.ts';
import { startServer, type RequestHandler, type RunningServer } from '../../src/reference/server.ts';
import * as setup from '../servers/setup.ts';
import { TOKENS } from '../servers/setup.ts';
import { explain, outcomesOf, runSuite, type SuiteRun } from '../support/suite-runner.ts';

/** Runs the suite against `handler` at the base URL `base` picks, with both accounts' tokens. */
async function runAt(handler: RequestHandler, base: (server: RunningServer) => string, args: readonly string[] = []): Promise<SuiteRun & { url: string }> {
  const server = await startServer(handler);
  try {
    const run = await runSuite(['--base-url', base(server), '--token', TOKENS[0], '--second-token', TOKENS[1], ...args]);
    return { ...run, url: server.url };
  } finally {
    await server.close();
  }
}

function everyOutput(run: SuiteRun): string {
  const files = readdirSync(run.reportDir).filter((f) => !f.startsWith('.'));
  return [run.stdout, run.stderr, ...files.map((f) => readFileSync(join(run.reportDir, f), 'utf8'))].join('\n');
}

/** The one stderr line of a setup problem: no stack, no token, no rule failure. */
function oneLine(run: SuiteRun, exitCode: number): string {
  expect(run.exitCode, explain(run)).toBe(exitCode);
  const lines = run.stderr.split('\n').filter((l) => l.trim() !== '');
  expect(lines, 'stderr').toHaveLength(1);
  const line = lines[0]!;
  expect(line.startsWith('widget-conformance: '), line).toBe(true);
  expect(line, 'no stack').not.toMatch(/\n\s+at |Error:/);
  for (const token of [...TOKENS, setup.RENEWED_TOKEN]) expect(everyOutput(run).includes(token), 'a token in the output').toBe(false);
  const bad = Object.entries(outcomesOf(run.report)).filter(([, o]) => o === 'fail' || o === 'error');
  expect(bad, 'rules reported failed or errored').toEqual([]);
  return line;
}

/** A probe problem stops the run before any test: no run marker, no report. */
function stoppedBeforeTests(run: SuiteRun): void {
  expect(run.stdout, 'no test ran').not.toContain('Run marker');
  expect(run.report, 'no report: nothing was judged').toBeUndefined();
}

describe.concurrent('setup problems found before the tests', () => {
  test('a base URL without /v1: exit 2, the /widgets 404 and the URL to try', async () => {
    const run = await runAt(setup.reference(), (s) => s.url);
    const line = oneLine(run, 2);
    expect(line).toBe(`widget-conformance: GET ${run.url}/widgets answered 404: is the base URL missing its /v1 prefix? (try --base-url ${run.url}/v1: GET /widgets answers 200 there)`);
    stoppedBeforeTests(run);
  });

  test('a redirect: exit 2, where it points without its query, and that the suite does not follow it', async () => {
    const run = await runAt(setup.redirecting(), (s) => s.baseUrl);
    const line = oneLine(run, 2);
    expect(line).toBe(`widget-conformance: GET ${run.url}/v1/widgets answered 302, a redirect to ${run.url}/login (its query, fragment or user info not shown): the suite does not follow redirects; point --base-url at the interface itself`);
    expect(everyOutput(run)).not.toContain(setup.REDIRECT_SESSION);
    stoppedBeforeTests(run);
  });

  test('a web page: exit 2, its Content-Type and title', async () => {
    const run = await runAt(setup.webPage(), (s) => s.baseUrl);
    const line = oneLine(run, 2);
    expect(line).toContain(`GET ${run.url}/v1/widgets answered 200 with Content-Type text/html; charset=utf-8 and an HTML page titled "${setup.HTML_TITLE}", not JSON`);
    stoppedBeforeTests(run);
  });

  test('an outage (503 without Retry-After to everything): each a refusal, retried with a bounded backoff, then exit 3 in one line, a few requests', async () => {
    const handler = setup.outage();
    const run = await runAt(handler, (s) => s.baseUrl);
    const line = oneLine(run, 3);
    expect(line).toMatch(/^widget-conformance: the target answered 503 to every request before any test, however often retried \(GET \S+\/widgets still answered 503 after 3 retries \(--max-retries 3\): the target refused 4 request\(s\) \(4 with 503 \(no Retry-After\)\) beyond the wait budget, and answered none\): an outage or maintenance\?/);
    expect(handler.requests(), 'requests the probe sent: one list and its retries').toBe(4);
    stoppedBeforeTests(run);
  });

  test('an outage (500 to everything, both accounts): exit 3, said as an outage', async () => {
    const run = await runAt(setup.outage(500), (s) => s.baseUrl);
    const line = oneLine(run, 3);
    expect(line).toMatch(/^widget-conformance: the target answered 500 to every request \(GET \/widgets \d times, then GET \/widgets\/\{id\}, for each of the 2 accounts\): an outage\?/);
    stoppedBeforeTests(run);
  });

  test('maintenance (503 with Retry-After to every retry): exit 3, said as an outage', async () => {
    const run = await runAt(setup.comeBackLater(503), (s) => s.baseUrl);
    const line = oneLine(run, 3);
    expect(line).toMatch(/^widget-conformance: the target answered 503 to every request before any test, however often retried \(.*\): an outage or maintenance\?/);
    stoppedBeforeTests(run);
  });

  test('odd but conformant media types (problem+json errors, a charset without a space) pass the probe', async () => {
    const run = await runAt(setup.unusualMediaTypes(), (s) => s.baseUrl, ['--only', 'CRUD-1']);
    expect(run.exitCode, explain(run)).toBe(0);
    expect(outcomesOf(run.report)).toEqual({ 'CRUD-1': 'pass' });
  });
});

/** The rules of a run that did not pass, by outcome. */
function notPassed(run: SuiteRun): Record<string, string[]> {
  const by: Record<string, string[]> = {};
  for (const [id, outcome] of Object.entries(outcomesOf(run.report))) if (outcome !== 'pass') (by[outcome] ??= []).push(id);
  for (const ids of Object.values(by)) ids.sort();
  return by;
}

describe.concurrent('one account or one request failing while the rest answer: the rules judge it, never an outage', () => {
  test('PAGE-6, CRUD-5: a server answering 500 to every GET of an account that never held a widget fails the first-contact rules for the second account, not exit 3', async () => {
    const run = await runAt(setup.failsFreshAccount(), (s) => s.baseUrl, ['--runs', '5']);
    expect(run.exitCode, explain(run)).toBe(1);
    expect(run.stderr, 'no outage line').not.toContain('an outage');
    expect(notPassed(run), explain(run)).toEqual({ fail: ['CRUD-5', 'PAGE-6'] });
    const page6 = run.report!.rules.find((r) => r.id === 'PAGE-6')!;
    expect(page6.tests.flatMap((t) => t.failures ?? []).map((f) => f.message).join('\n')).toContain('the second account before the run created anything');
  });

  test('CRUD-5: a server that never answers a retrieve of an id in a foreign format fails CRUD-5 with the timeout as received (first contact), not exit 3 before any test', async () => {
    const run = await runAt(setup.hangsOnForeignIds(), (s) => s.baseUrl, ['--runs', '5', '--timeout', '2000']);
    expect(run.exitCode, explain(run)).toBe(1);
    expect(run.stdout, 'the tests ran').toContain('Run marker');
    // The same silence inside a test is a suite error of that test (no verdict, never a pass):
    // FMT-1 and FMT-2 judge the Error of a foreign id, FMT-4 a path with a slash, none answered.
    expect(notPassed(run), explain(run)).toEqual({ fail: ['CRUD-5'], error: ['FMT-1', 'FMT-2', 'FMT-4'] });
    const messages = run.report!.rules.find((r) => r.id === 'CRUD-5')!.tests.flatMap((t) => t.failures ?? []).map((f) => f.message).join('\n');
    expect(messages).toMatch(/no complete answer: GET \S+\/widgets\/wcs-unknown-\S+: no complete response within --timeout 2000 ms/);
  });
});

/** The account under test's token works for this many requests: the probe and some tests, then 401. */
const LIFETIME = 20;
const MID_RUN = ['--only', 'FMT,CRUD,DEL'];

/** The refusal line, and the cleanup that could not delete the refused account's widgets. */
function refusedMidRun(run: SuiteRun, renewed: boolean): void {
  const line = oneLine(run, 2);
  const request = String.raw`(GET|POST|DELETE) /widgets(/\S+)?`;
  // Which request meets the refusal first, and whether the command's renewals are spent by then, depends on timing.
  const refusedToo = '(, and a list with the same token was refused too)?';
  const detail = renewed
    ? `: ${request} answered 401(, and 401 again with the token the command renewed|${refusedToo}, after the token command had renewed the token \\d time\\(s\\), the most a run allows)`
    : `: ${request} answered 401${refusedToo}`;
  expect(line).toMatch(new RegExp(`^widget-conformance: the target stopped accepting the primary account's token during the run${detail}; check that the token is valid for the whole run \\(no verdict\\)$`));
  // The tests it stopped are not run, said once; none counts as failed or errored (oneLine).
  const skipped = (run.report?.rules ?? []).filter((r) => r.outcome === 'skip');
  expect(skipped.length, 'rules not run').toBeGreaterThan(0);
  expect(run.stdout).toContain('Verdict: NO VERDICT: a setup problem');
  // The cleanup was tried, and says what it could not delete, by id.
  const cleanup = run.report!.cleanup;
  expect(cleanup.verified, 'cleanup verified').toBe(false);
  expect(cleanup.leftovers.length, 'leftovers').toBeGreaterThan(0);
  for (const l of cleanup.leftovers) expect(l).toMatchObject({ account: 'primary', reason: "not deleted, nothing claimed: the target refuses the primary account's token" });
  // The console's lines for them are the ones leftoverLines draws (its unit test pins their grouping); each id is on them.
  for (const line of leftoverLines(cleanup.leftovers)) expect(run.stdout).toContain(line);
  for (const l of cleanup.leftovers) expect(run.stdout).toContain(JSON.stringify(l.id));
}

describe.concurrent('a token the target stops accepting mid-run', () => {
  test('without a token command: exit 2, one line naming the request, leftovers listed by id', async () => {
    const run = await runAt(setup.expiringToken(LIFETIME), (s) => s.baseUrl, MID_RUN);
    refusedMidRun(run, false);
  });

  test('with a token command that keeps printing the refused token: the same', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wcs-setup-'));
    const script = join(dir, 'token.sh');
    writeFileSync(script, `echo ${TOKENS[0]}\n`);
    const server = await startServer(setup.expiringToken(LIFETIME));
    try {
      const run = await runSuite(['--base-url', server.baseUrl, '--token-command', `sh ${script}`, '--second-token', TOKENS[1], ...MID_RUN]);
      refusedMidRun(run, true);
    } finally {
      await server.close();
    }
  });
});
