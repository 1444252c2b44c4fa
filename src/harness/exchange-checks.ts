/**
 * The format rules' checks, registered once and applied to every exchange of the run whose
 * situation the spec documents (Schemathesis registers its response checks so): FMT-1 (a
 * documented response is JSON sent as application/json), FMT-2 (a documented failure is an Error
 * object with a 4xx) and FMT-3 (every Widget in an answer matches the Widget schema). The run's
 * observation hook hands each answer here (context.ts); a violation is evidence of the rule it
 * breaks, given to the test whose code got the answer (test-scope.ts), whoever that is. A rule's
 * own tests judge its situations with the same checks on the first answer the run recorded for
 * each (suites/format.test.ts), and send a request only for a situation nobody exercised.
 *
 * The situations are the ones the format rules' tests named before the checks were registered: a
 * created, retrieved or listed Widget, a create without name, a retrieve of an id in a foreign
 * format, a list or create without credentials; and those failures asked with Accept: *\/* or
 * with no Accept header. Other failures keep the rule of their own (MAL-2 judges a name of the
 * wrong type, AUTH-2 a wrong token), as they always did.
 */
import type { Exchange } from '../shared/exchange.ts';
import type { Observation } from '../shared/observation.ts';
import { formatIssues, checkSchema, validateSchema, type SchemaIssue } from '../schema.ts';
import type { FailureDetail } from './failure.ts';
import type { TestScopes } from './test-scope.ts';

/** Which Accept header a request carried: the client's application/json, `*\/*`, none, or another. */
export type AcceptAsked = 'json' | 'any' | 'none' | 'other';

/** The documented failures (§7) whose answers FMT-1 and FMT-2 judge. */
export const DOCUMENTED_FAILURES = ['missing-name', 'foreign-id', 'list-no-credential', 'create-no-credential'] as const;
export type DocumentedFailure = (typeof DOCUMENTED_FAILURES)[number];

/**
 * The documented situations: a failure above, or a success: `created` (a create of a JSON object
 * with a string name), `retrieved` (a retrieve of the account's own widget), and list pages with
 * the account's own token: `page` (no limit, no cursor), `page-limit-1` (the first page at limit
 * 1), `later-page` (a page fetched with a cursor the server gave).
 */
export type Documented = DocumentedFailure | 'created' | 'retrieved' | 'page' | 'page-limit-1' | 'later-page';

/** What the checks read of an answer (an ApiResponse, or what an observation carries of one). */
export type Judged = Pick<Observation, 'status' | 'headers' | 'json' | 'jsonError' | 'truncated' | 'exchange'>;

/** An answer recorded for a documented situation, with what the request was. */
export type Recorded = Judged & {
  readonly documented: Documented;
  readonly accept: AcceptAsked;
  /** A list's limit as sent, when one was. */
  readonly limit?: string;
};

const is2xx = (status: number): boolean => status >= 200 && status < 300;

/** True for `application/json`, with any parameters (RFC 9110 §8.3.1: type and subtype are case-insensitive). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  return contentType.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/** A recorded request header, read case-insensitively. */
function requestHeader(exchange: Exchange, name: string): string | undefined {
  const key = Object.keys(exchange.request.headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : exchange.request.headers[key];
}

/** What the request's Accept header asked for. */
export function acceptOf(exchange: Exchange): AcceptAsked {
  const accept = requestHeader(exchange, 'accept');
  if (accept === undefined) return 'none';
  const value = accept.trim().toLowerCase();
  return value === 'application/json' ? 'json' : value === '*/*' ? 'any' : 'other';
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A member name that is `name`, or reads as it folded in case or by NFKC. */
const nameLike = (key: string): boolean => key.normalize('NFKC').toLowerCase() === 'name';

/** The documented situation an observed answer belongs to, if any. */
export function documentedOf(o: Observation): Documented | undefined {
  switch (o.op) {
    case 'create':
      if (o.situation === 'no-credential') return 'create-no-credential';
      if (o.situation === 'valid' || o.situation === 'empty-name' || o.situation === 'unknown-field') return 'created';
      // A JSON object without the name member, sent as JSON: the spec's own example of a malformed
      // request. A member a lenient decoder takes for name ("Name", fullwidth letters) is MAL-1's own
      // question (suites/data/member-names.ts), as it always was: not this situation.
      if (o.situation === 'malformed' && isObject(o.sent) && !Object.keys(o.sent).some(nameLike) && isJsonMediaType(requestHeader(o.exchange, 'content-type'))) return 'missing-name';
      return undefined;
    case 'retrieve':
      if (o.situation === 'foreign-id') return 'foreign-id';
      return o.situation === 'existing' && is2xx(o.status) ? 'retrieved' : undefined;
    case 'list':
      if (o.situation === 'no-credential') return 'list-no-credential';
      if (o.situation !== 'ok') return undefined;
      if (o.paged) return 'later-page';
      return o.limit === undefined ? 'page' : o.limit === '1' ? 'page-limit-1' : undefined;
    default:
      return undefined;
  }
}

const isFailure = (d: Documented): d is DocumentedFailure => (DOCUMENTED_FAILURES as readonly string[]).includes(d);

/** FMT-1 on one answer: the media type, then the body, as JSON; undefined when it holds. */
export function mediaTypeAndJson(res: Judged, what: string): FailureDetail | undefined {
  const type = res.headers['content-type'];
  if (!isJsonMediaType(type)) {
    return { expected: `${what} as JSON with Content-Type: application/json (parameters allowed)`, received: type === undefined ? 'no Content-Type header' : `Content-Type: ${type}`, exchanges: [res.exchange] };
  }
  if (res.jsonError !== undefined) return { expected: `${what} as a JSON body`, received: res.jsonError, exchanges: [res.exchange] };
  return undefined;
}

/** FMT-2 on one answer whose body is JSON: a 4xx, and an Error object; undefined when both hold (or the body is not JSON: FMT-1's). */
export function errorObject(res: Judged, what: string): FailureDetail | undefined {
  if (res.status < 400 || res.status >= 500) return { expected: `a 4xx status for ${what}`, received: `${res.status}`, exchanges: [res.exchange] };
  if (res.jsonError !== undefined) return undefined;
  const issues = validateSchema('error', res.json);
  if (issues.length === 0) return undefined;
  return { expected: `an Error object for ${what} matching the error schema (schemas/error.schema.json)`, received: `${issues.length} violation(s):\n    ${formatIssues(issues.slice(0, 5)).split('\n').join('\n    ')}`, exchanges: [res.exchange] };
}

/** Schema issues of the Widgets a 2xx JSON answer holds: the body of a create or retrieve, the data items of a page. */
export function widgetIssues(res: Judged, list: boolean): { issues: SchemaIssue[]; total: number } {
  if (!is2xx(res.status) || res.jsonError !== undefined || res.truncated) return { issues: [], total: 0 };
  if (!list) return checkSchema('widget', res.json, 5);
  const data = isObject(res.json) ? res.json.data : undefined;
  // A page that is not one is the PAGE rules' to judge; its Widgets, when it has some, are FMT-3's.
  if (!Array.isArray(data)) return { issues: [], total: 0 };
  return checkSchema('page', { data, has_more: false }, 5);
}

/** FMT-3 on one answer: every Widget it holds matches the schema; undefined when they do. */
export function widgetsMatch(res: Judged, list: boolean, what: string): FailureDetail | undefined {
  const { issues, total } = widgetIssues(res, list);
  if (total === 0) return undefined;
  return {
    expected: `${what} matching the widget schema (schemas/widget.schema.json)`,
    received: `${total} violation(s):\n    ${formatIssues(issues).split('\n').join('\n    ')}${total > issues.length ? `\n    … and ${total - issues.length} more` : ''}`,
    exchanges: [res.exchange],
  };
}

/** How many items a 2xx answer's data holds (0 for an answer that is not a page). */
export function itemCount(res: Pick<Judged, 'status' | 'json'>): number {
  const data = isObject(res.json) ? res.json.data : undefined;
  return is2xx(res.status) && Array.isArray(data) ? data.length : 0;
}

/** How each situation is named in a message. */
export const SITUATION_TEXT: Readonly<Record<Documented, string>> = {
  'missing-name': 'the answer to a create without name (§4.2)',
  'foreign-id': 'the answer to a retrieve of an id in a foreign format (§4.3)',
  'list-no-credential': 'the answer to a list without credentials (§5)',
  'create-no-credential': 'the answer to a create without credentials (§5)',
  created: 'a created Widget (§4.2)',
  retrieved: 'a retrieved Widget (§4.3)',
  page: 'a Widget page (§4.1)',
  'page-limit-1': 'the first page at limit 1 (§4.1)',
  'later-page': 'a page fetched with a cursor (§4.1)',
};

const ACCEPT_TEXT: Readonly<Record<AcceptAsked, string>> = { json: '', any: ', asked with Accept: */*', none: ', asked with no Accept header', other: ', asked with another Accept' };

/** The words for a situation as asked. */
export function situationText(documented: Documented, accept: AcceptAsked): string {
  return `${SITUATION_TEXT[documented]}${ACCEPT_TEXT[accept]}`;
}

/** What the registered checks find in one answer of a documented situation: rule → violation. */
export function registeredFindings(r: Recorded): Array<{ rule: 'FMT-1' | 'FMT-2' | 'FMT-3'; detail: FailureDetail }> {
  const what = situationText(r.documented, r.accept);
  const found: Array<{ rule: 'FMT-1' | 'FMT-2' | 'FMT-3'; detail: FailureDetail }> = [];
  const push = (rule: 'FMT-1' | 'FMT-2' | 'FMT-3', detail: FailureDetail | undefined): void => void (detail && found.push({ rule, detail }));
  if (isFailure(r.documented)) {
    push('FMT-1', mediaTypeAndJson(r, what));
    push('FMT-2', errorObject(r, what.replace(/^the answer to /, '')));
    return found;
  }
  // A success's body is documented once it is a success: a refusal is another rule's to judge.
  if (!is2xx(r.status) || r.truncated) return found;
  push('FMT-1', mediaTypeAndJson(r, what));
  push('FMT-3', widgetsMatch(r, r.documented !== 'created' && r.documented !== 'retrieved', what));
  return found;
}

/** The key of a situation as asked: later pages are kept by their limit (FMT-3 judges those of a walk at limit 1). */
function keyOf(documented: Documented, accept: AcceptAsked, limit: string | undefined): string {
  return `${documented}|${accept}|${documented === 'later-page' ? (limit ?? '') : ''}`;
}

/** Answers kept per situation and Accept: enough for a rule's tests to judge, bounded. */
const KEPT_PER_SITUATION = 3;

/**
 * The run's registry of documented answers (one per worker): it judges each as it is observed,
 * giving what it finds to the test that got it, and keeps the first few of each situation for the
 * format rules' own tests; a situation no test exercised is sent once, for every rule that asks.
 */
export class ExchangeRegistry {
  readonly #kept = new Map<string, Recorded[]>();
  readonly #sending = new Map<string, Promise<unknown>>();

  constructor(private readonly scopes: TestScopes) {}

  /** The observation hook's part: records the answer, and gives each violation to the test that got it (never its own rule's: that test judges itself). */
  observe(o: Observation): void {
    const documented = documentedOf(o);
    // A body cut at the cap is not the answer, only its first part: nothing to judge it by.
    if (documented === undefined || o.truncated) return;
    const recorded: Recorded = { documented, accept: acceptOf(o.exchange), status: o.status, headers: o.headers, json: o.json, ...(o.jsonError === undefined ? {} : { jsonError: o.jsonError }), ...(o.truncated ? { truncated: true as const } : {}), exchange: o.exchange, ...(o.limit === undefined ? {} : { limit: o.limit }) };
    const key = keyOf(documented, recorded.accept, o.limit);
    const kept = this.#kept.get(key) ?? [];
    if (kept.length < KEPT_PER_SITUATION) this.#kept.set(key, [...kept, recorded]);
    // A page with widgets, once one comes, is kept in place of the last: FMT-3 needs Widgets to judge.
    else if (itemCount(recorded) > 0 && !kept.some((k) => itemCount(k) > 0)) this.#kept.set(key, [...kept.slice(0, -1), recorded]);
    const scope = this.scopes.current;
    if (scope === undefined) return;
    for (const { rule, detail } of registeredFindings(recorded)) if (rule !== scope.rule) scope.evidence(rule, detail);
  }

  /** The answers the run recorded for a situation so far, first first; a later page's at the limit given. */
  recorded(documented: Documented, accept: AcceptAsked = 'json', limit?: string): readonly Recorded[] {
    return this.#kept.get(keyOf(documented, accept, limit)) ?? [];
  }

  /**
   * Sends the request of a situation once for every test that asks (`key` names it), inside the
   * asking test's scope but giving no evidence: each rule's test judges the answer itself.
   */
  exercise<T>(key: string, send: () => Promise<T>): Promise<T> {
    let sending = this.#sending.get(key) as Promise<T> | undefined;
    if (sending === undefined) {
      const scope = this.scopes.current;
      sending = scope === undefined ? send() : this.scopes.run({ ...scope, evidence: () => undefined }, send);
      this.#sending.set(key, sending);
    }
    return sending;
  }
}
