/**
 * The check made once before any test runs: a setup the suite cannot test ends the run in one
 * line, never as a page of conformance failures. Unreachable, 5xx to every request of every
 * account (an outage: prepare-accounts.ts decides once each account has answered), or 503 or
 * 429 however often it is retried (maintenance, a spent rate limit): exit 3. A refused token, a 404 for /widgets (the /v1 prefix missing?), a redirect,
 * or a list that is not JSON (a web page): exit 2. What each answer means is probe-classify.ts.
 */
import { randomBytes } from 'node:crypto';
import type { WidgetApi } from '../../client/api.ts';
import { isSuiteError, RateLimitError, RejectedTokenError, SetupProblemError, TokenRejectedError, UnreachableError } from '../../errors.ts';
import type { ApiResponse } from '../../http/client.ts';
import { classify, describeBody, describeContentType, endsWithV1, otherVersion, showLocation, type ProbeAnswer } from './probe-classify.ts';

/**
 * Lists sent in all when the first answers 5xx: a server restarting or one bad instance behind
 * a balancer answers the next one, and these go out at once (no sleep), so an outage costs
 * the run a few requests, not a wait.
 */
export const PROBE_LIST_ATTEMPTS = 3;

/** An account whose every probe request answered 5xx: an outage only when every account's did (see prepare-accounts.ts). */
export interface ServerErrors {
  /** The 5xx statuses seen, sorted, each once. */
  readonly statuses: readonly number[];
  /** How many lists were sent before the retrieve. */
  readonly lists: number;
}

/** An account whose list got no answer (refused connection, timeout, TLS): unreachable only when every account's did. */
export interface NoAnswer {
  readonly unreachable: UnreachableError;
}

/** What an account that failed the probe showed, for outageOf to weigh with the other accounts. */
export type ProbeFailure = ServerErrors | NoAnswer;

/**
 * Lists one page with the account's token; throws a SuiteError naming the setup problem, if any.
 * Returns what an account that answered nothing but 5xx answered, for the caller to weigh with
 * the other accounts: one account's errors while another is answered are the rules' to judge.
 */
export async function probe(api: WidgetApi, tokenSource: string): Promise<ProbeFailure | undefined> {
  const list = api.http.url('/widgets');
  const answers: ApiResponse[] = [];
  let answer: ApiResponse | undefined;
  for (let attempt = 0; attempt < PROBE_LIST_ATTEMPTS && (answer === undefined || classify(answer) === 'server-error'); attempt += 1) {
    let sent: ApiResponse | TokenRejectedError;
    try {
      // A bounded prefix of an over-cap page, not a transport error: a list far over the cap is judged by the rules.
      sent = await send(() => api.list({ keepPrefix: true }));
    } catch (error) {
      // One account's list unanswered while another's is answered is the rules' (PAGE-6): outageOf decides.
      if (error instanceof UnreachableError) return { unreachable: error };
      throw error;
    }
    if (sent instanceof TokenRejectedError) throw refusedToken(tokenSource, sent.answer ?? { status: 401 });
    answer = sent;
    answers.push(answer);
  }
  if (answer === undefined) return undefined;
  switch (classify(answer)) {
    case 'refused':
      throw refusedToken(tokenSource, { status: answer.status, ...(answer.text.trim() ? { message: answer.text.trim().slice(0, 200) } : {}) });
    case 'not-found':
      throw new SetupProblemError(`GET ${list} answered 404: ${await missingPrefixHint(api)}`, 2);
    case 'redirect': {
      const { shown, base } = showLocation(answer.headers.location, list);
      const hint = base === undefined ? 'point --base-url at the interface itself' : baseUrlHint(base, list);
      throw new SetupProblemError(`GET ${list} answered ${answer.status}, a redirect to ${shown}: the suite does not follow redirects; ${hint}`, 2);
    }
    case 'not-json':
      throw new SetupProblemError(
        `GET ${list} answered ${answer.status} with ${describeContentType(answer.headers)} and ${describeBody(answer.text)}, not JSON: is --base-url the Widget Service's API (including /v1), not a web page or another service?`,
        2,
      );
    case 'server-error':
      return outageCheck(api, answers);
    default:
      return undefined;
  }
}

/**
 * What a refused token is told: the status and the message the target really sent. A 401 is a
 * token it does not take; a 403 is one it took without access (a missing scope, or a gateway
 * that wants another header); a token a --token-command printed is named as such.
 */
export function refusedToken(tokenSource: string, answer: { readonly status: number; readonly message?: string }): RejectedTokenError {
  const said = answer.message ? ` with ${JSON.stringify(answer.message)}` : '';
  if (answer.status === 403) {
    return new RejectedTokenError(
      `GET /widgets answered 403 Forbidden${said} to ${tokenSource}: the target knows the token but refuses it access; check the token's scope or permissions, or whether a gateway in front wants another header (pass it with --header "Name: value")`,
    );
  }
  return new RejectedTokenError(`the target refused ${tokenSource} (GET /widgets answered ${answer.status}${said}): check that it is a valid token for this server`);
}

/**
 * One request of the probe: its answer, the TokenRejectedError when the target refused the
 * token (the client layer takes it for a token that stopped working; here it never worked), or
 * UnreachableError when no answer came.
 */
async function send(request: () => Promise<ApiResponse>): Promise<ApiResponse | TokenRejectedError> {
  try {
    return await request();
  } catch (error) {
    if (error instanceof TokenRejectedError) return error;
    if (!isSuiteError(error)) throw error;
    // Refused again and again before any test ran: maintenance or a rate limit, said as such.
    if (error instanceof RateLimitError && error.status === 503) {
      throw new SetupProblemError(`the target answered 503 to every request before any test, however often retried (${error.message}): an outage or maintenance? Try again when it is back (no verdict)`, 3);
    }
    if (error instanceof RateLimitError && error.status === 429) {
      throw new SetupProblemError(`the target answered 429 Too Many Requests before any test ran (${error.message}): its rate limit is spent; try again later, or allow longer waits with --max-retry-wait and --max-retries (no verdict)`, 3);
    }
    throw new UnreachableError(`cannot reach the target: ${(error as Error).message}`);
  }
}

/** Why /widgets may be missing: the base URL without its /v1 (§9), checked by asking there once. */
async function missingPrefixHint(api: WidgetApi): Promise<string> {
  // The base URL as the client joins paths to it (an origin alone gains a '/' from the URL parser).
  const base = api.http.url('').replace(/\/$/, '');
  if (endsWithV1(base)) return 'check --base-url: it is the interface\'s root, including /v1, where GET /widgets lists the account\'s widgets';
  // Another version segment: appending /v1 to it would only guess (§9: {base_url} includes /v1).
  const other = otherVersion(base);
  if (other !== undefined) return `the base URL ends with /${other}, but this suite checks version 1 of the interface: its root ends with /v1 (§9)`;
  const withV1 = `${base}/v1`;
  let status: number | undefined;
  try {
    status = (await api.http.request('GET', '/v1/widgets', { headers: { authorization: api.bearer } })).status;
  } catch (error) {
    if (!isSuiteError(error)) throw error;
  }
  // 401/403 there still shows the interface lives there (the token is checked at the next run's probe).
  const there = status !== undefined && ((status >= 200 && status < 300) || status === 401 || status === 403);
  return there ? `is the base URL missing its /v1 prefix? (try --base-url ${withV1}: GET /widgets answers ${status} there)` : `is the base URL missing its /v1 prefix? (${withV1}/widgets answered ${status ?? 'nothing'} too: check --base-url)`;
}

/**
 * The list answered 5xx every time: when a retrieve of an id that cannot exist does too, this
 * account is answered nothing but errors (an outage when every account is: outageOf). When the
 * retrieve is answered, the fault is the list's, and the rules say so.
 */
async function outageCheck(api: WidgetApi, answers: readonly ApiResponse[]): Promise<ServerErrors | undefined> {
  const id = `wcs-probe-${randomBytes(8).toString('hex')}`;
  const retrieve = await send(() => api.retrieve(id));
  if (retrieve instanceof TokenRejectedError || classify(retrieve) !== 'server-error') return undefined;
  return { statuses: [...new Set([...answers, retrieve].map((a: ProbeAnswer) => a.status))].sort(), lists: answers.length };
}

/**
 * The outage, when every account answered nothing but 5xx (one entry per account, undefined for
 * an account answered otherwise), or the first account's silence when one got no answer at all;
 * undefined while any account was answered: a server failing only an account that never held a
 * widget is judged by the first-contact rules, not stopped.
 */
export function outageOf(accounts: ReadonlyArray<ProbeFailure | undefined>): SetupProblemError | UnreachableError | undefined {
  if (accounts.length === 0 || accounts.some((a) => a === undefined)) return undefined;
  // No answer at all from one account, and errors or nothing from the others: unreachable, said with the first silence.
  const silent = accounts.find((a): a is NoAnswer => a !== undefined && 'unreachable' in a);
  if (silent) return silent.unreachable;
  const every = accounts as readonly ServerErrors[];
  const statuses = [...new Set(every.flatMap((a) => a.statuses))].sort();
  const what = statuses.length === 1 ? `${statuses[0]}` : `5xx (${statuses.join(', ')})`;
  const each = every.length === 1 ? '' : `, for each of the ${every.length} accounts`;
  return new SetupProblemError(
    `the target answered ${what} to every request (GET /widgets ${every[0]!.lists} times, then GET /widgets/{id}${each}): an outage? Try again when it is back (no verdict)`,
    3,
  );
}

/**
 * The advice to use the URL a redirect named: plain on the same origin; on another origin it
 * says so, and that the tokens would be sent there, since the server chose that origin.
 */
export function baseUrlHint(base: string, requested: string): string {
  const origin = new URL(base).origin;
  const ours = new URL(requested).origin;
  if (origin === ours) return `try --base-url ${base}`;
  return `it points to a different origin, ${origin} (not ${ours}): only if you trust that origin with your tokens, try --base-url ${base} (the tokens would then be sent to ${origin})`;
}
