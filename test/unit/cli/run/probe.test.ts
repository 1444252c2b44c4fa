/**
 * The probe (src/cli/run/probe.ts) against loopback targets set up wrong (test/servers/setup.ts):
 * each setup problem is one SuiteError with its exit code and a message naming it, and targets
 * that are odd but conformant pass. Setup problems are not catalogue rules: titles name the check.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { baseUrlHint, outageOf, probe, PROBE_LIST_ATTEMPTS } from '../../../../src/cli/run/probe.ts';
import { openAccounts } from '../../../../src/client/accounts.ts';
import { Ownership } from '../../../../src/client/ownership.ts';
import { RejectedTokenError, SetupProblemError, UnreachableError } from '../../../../src/errors.ts';
import { HttpClient } from '../../../../src/http/client.ts';
import { startServer, type RequestHandler, type RunningServer } from '../../../../src/reference/server.ts';
import * as setup from '../../../servers/setup.ts';
import { TOKENS } from '../../../servers/setup.ts';

const running: RunningServer[] = [];
const clients: HttpClient[] = [];
afterEach(async () => {
  await Promise.all([...running.splice(0).map((s) => s.close()), ...clients.splice(0).map((c) => c.close())]);
});

/** The runner's probe of `handler`, served on loopback, at `base` (the server's /v1 base URL by default). */
async function probeOf(handler: RequestHandler, base?: (server: RunningServer) => string, token: string = TOKENS[0]): Promise<unknown> {
  const server = await startServer(handler);
  running.push(server);
  const http = new HttpClient({ baseUrl: base ? base(server) : server.baseUrl, timeoutMs: 5_000, concurrency: 2, maxRetries: 1, maxRetryWaitMs: 1_000, secrets: [token] });
  clients.push(http);
  const api = openAccounts(http, new Ownership(() => false), [{ name: 'primary', token: token }])[0]!;
  try {
    // One account: its server errors are an outage (prepare-accounts.ts weighs every account's).
    const outage = outageOf([await probe(api, '--token / WIDGET_TOKEN')]);
    if (outage) throw outage;
    return undefined;
  } catch (error) {
    return error;
  }
}

function setupProblem(error: unknown, exitCode: 2 | 3): string {
  expect(error, 'a SetupProblemError').toBeInstanceOf(SetupProblemError);
  expect((error as SetupProblemError).exitCode, 'exit code').toBe(exitCode);
  const message = (error as Error).message;
  expect(message.includes('\n'), 'one line').toBe(false);
  return message;
}

describe('probe: setup problems', () => {
  test('a base URL without /v1 is a 404, with the /v1 URL to try when the interface answers there (exit 2)', async () => {
    let url = '';
    const message = setupProblem(await probeOf(setup.reference(), (s) => ((url = s.url), s.url)), 2);
    expect(message).toBe(`GET ${url}/widgets answered 404: is the base URL missing its /v1 prefix? (try --base-url ${url}/v1: GET /widgets answers 200 there)`);
  });

  test('a base URL with /v1 that answers 404 says to check it, without a guess (exit 2)', async () => {
    const message = setupProblem(await probeOf(setup.reference(), (s) => `${s.url}/v1/v1`), 2);
    expect(message).toMatch(/\/v1\/v1\/widgets answered 404: check --base-url: it is the interface's root, including \/v1/);
  });

  test('a redirect names where it points, never its query (exit 2)', async () => {
    let url = '';
    const message = setupProblem(await probeOf(setup.redirecting(), (s) => ((url = s.url), s.baseUrl)), 2);
    expect(message).toBe(`GET ${url}/v1/widgets answered 302, a redirect to ${url}/login (its query, fragment or user info not shown): the suite does not follow redirects; point --base-url at the interface itself`);
    expect(message).not.toContain(setup.REDIRECT_SESSION);
  });

  test('a list moved elsewhere names the base URL to use (exit 2)', async () => {
    let url = '';
    const message = setupProblem(await probeOf(setup.moved(), (s) => ((url = s.url), s.baseUrl)), 2);
    expect(message).toContain(`answered 308, a redirect to ${url}/api/v1/widgets: the suite does not follow redirects; try --base-url ${url}/api/v1`);
  });

  test('a redirect to another origin names it as another origin and says the tokens would go there', () => {
    expect(baseUrlHint('https://elsewhere.example/api/v1', 'http://127.0.0.1:8081/v1/widgets')).toBe(
      'it points to a different origin, https://elsewhere.example (not http://127.0.0.1:8081): only if you trust that origin with your tokens, try --base-url https://elsewhere.example/api/v1 (the tokens would then be sent to https://elsewhere.example)',
    );
    expect(baseUrlHint('http://127.0.0.1:8081/api/v1', 'http://127.0.0.1:8081/v1/widgets')).toBe('try --base-url http://127.0.0.1:8081/api/v1');
  });

  test('an HTML page names its Content-Type and title (exit 2)', async () => {
    const message = setupProblem(await probeOf(setup.webPage()), 2);
    expect(message).toMatch(/answered 200 with Content-Type text\/html; charset=utf-8 and an HTML page titled "Acme Widgets — Home", not JSON: is --base-url the Widget Service's API/);
  });

  test('503 with Retry-After to every retry is maintenance, said as an outage, not "cannot reach" (exit 3)', async () => {
    const handler = setup.comeBackLater(503);
    const message = setupProblem(await probeOf(handler), 3);
    expect(message).toMatch(/^the target answered 503 to every request before any test, however often retried \(GET \S+\/widgets still answered 503 after 1 retries \(--max-retries 1\): the target refused 2 request\(s\) \(2 with 503\) beyond the wait budget, and answered none\): an outage or maintenance\? Try again when it is back \(no verdict\)$/);
    expect(handler.requests(), 'the first list and its one retry').toBe(2);
  });

  test('429 to every retry before any test is a spent rate limit (exit 3)', async () => {
    const message = setupProblem(await probeOf(setup.comeBackLater(429)), 3);
    expect(message).toMatch(/^the target answered 429 Too Many Requests before any test ran \(GET \S+ still answered 429 after 1 retries \(--max-retries 1\): the target refused 2 request\(s\) \(2 with 429\) beyond the wait budget, and answered none\): its rate limit is spent; try again later, or allow longer waits with --max-retry-wait and --max-retries \(no verdict\)$/);
  });

  test('503 without Retry-After to every request (a gateway\'s page) is refused, retried, then an outage (exit 3)', async () => {
    const handler = setup.outage();
    const message = setupProblem(await probeOf(handler), 3);
    expect(message).toMatch(/^the target answered 503 to every request before any test, however often retried \(GET \S+\/widgets still answered 503 after 1 retries \(--max-retries 1\): the target refused 2 request\(s\) \(2 with 503 \(no Retry-After\)\) beyond the wait budget, and answered none\): an outage or maintenance\?/);
    expect(handler.requests(), 'the first list and its one retry').toBe(2);
  });

  test(`500 to every request is an outage, after ${PROBE_LIST_ATTEMPTS} lists and one retrieve (exit 3)`, async () => {
    const handler = setup.outage(500);
    const message = setupProblem(await probeOf(handler), 3);
    expect(message).toBe(`the target answered 500 to every request (GET /widgets ${PROBE_LIST_ATTEMPTS} times, then GET /widgets/{id}): an outage? Try again when it is back (no verdict)`);
    expect(handler.requests()).toBe(PROBE_LIST_ATTEMPTS + 1);
  });

  test('an outage only when every account fails every request: one account answered, no outage; all failed, one line for all', () => {
    const failed = { statuses: [500], lists: PROBE_LIST_ATTEMPTS };
    expect(outageOf([undefined, failed]), 'the second account alone').toBeUndefined();
    expect(outageOf([failed, undefined]), 'the first account alone').toBeUndefined();
    expect(outageOf([]), 'no account').toBeUndefined();
    const silence = new UnreachableError('cannot reach the target: GET /widgets: no complete response within --timeout 1000 ms');
    expect(outageOf([{ unreachable: silence }, undefined]), 'one account unanswered, the other answered').toBeUndefined();
    expect(outageOf([{ unreachable: silence }, failed]), 'unanswered, and errors from the other').toBe(silence);
    expect(outageOf([failed, { statuses: [502, 500], lists: PROBE_LIST_ATTEMPTS }])?.message).toBe(
      `the target answered 5xx (500, 502) to every request (GET /widgets ${PROBE_LIST_ATTEMPTS} times, then GET /widgets/{id}, for each of the 2 accounts): an outage? Try again when it is back (no verdict)`,
    );
  });

  test('a refused token stays a refused token (exit 2), an unreachable target unreachable (exit 3)', async () => {
    expect(await probeOf(setup.reference(), undefined, 'not-a-token')).toBeInstanceOf(RejectedTokenError);
    const server = await startServer(setup.reference());
    await server.close();
    expect(await probeOf(setup.reference(), () => server.baseUrl)).toBeInstanceOf(UnreachableError);
  });
});

describe('probe: odd but conformant, or faults for the rules', () => {
  test('errors as application/problem+json and a charset without a space pass', async () => {
    expect(await probeOf(setup.unusualMediaTypes())).toBeUndefined();
  });
  test('a target refusing its first request with 503 (restarting) passes: the refusal is retried', async () => {
    expect(await probeOf(setup.restarting(1))).toBeUndefined();
  });
  test.each([500, 502])(`a target answering %i to its first ${PROBE_LIST_ATTEMPTS - 1} requests (restarting) passes`, async (status) => {
    expect(await probeOf(setup.restarting(PROBE_LIST_ATTEMPTS - 1, status))).toBeUndefined();
  });
  test('a list answering 500 while retrieve works is not an outage: the rules judge it', async () => {
    expect(await probeOf(setup.brokenList())).toBeUndefined();
  });
});
