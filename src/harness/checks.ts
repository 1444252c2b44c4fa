/**
 * Contract checks shared by every suite. Each one fails the calling rule with the
 * expectation beside what was received and the exchange, or returns what it checked.
 */
import type { WidgetApi } from '../client/api.ts';
import { isSuiteError, UnprovenDeleteError } from '../errors.ts';
import type { ApiResponse } from '../http/client.ts';
import type { Exchange } from '../shared/exchange.ts';
import { formatIssues, parseRfc3339, preview, validateSchema, type SchemaIssue, type SchemaName } from '../schema.ts';
import { isOrdinary, ORDINARY_DESCRIPTION_MAX, ORDINARY_NAME_MAX } from './arbitraries.ts';
import { explainedBy, type FailureDetail } from './failure.ts';
import type { RuleContext } from './rule-context.ts';
import { lostEvidence, prerequisite, unprovenBecauseOfRetrieve } from './prerequisites.ts';
import { mayDependOn } from '../rules.ts';
import { findInWalk, requireComplete } from './snapshots.ts';
import { recordLag, settleOrDescribe } from './settle.ts';

export type Json = Record<string, unknown>;

/** What the checks read of an answer: a whole response, or a list page as a walk keeps it. */
export type Answer = Pick<ApiResponse, 'status' | 'json' | 'jsonError' | 'exchange'>;

/** "2xx", "4xx", … */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

export { isJsonMediaType } from './exchange-checks.ts';

/** Fails unless the status is 2xx. */
export function expect2xx(t: RuleContext, res: Pick<Answer, 'status' | 'exchange'>, action: string): void {
  t.check(res.status >= 200 && res.status < 300, () => ({
    expected: `a 2xx status for ${action}`,
    received: `${res.status}`,
    exchanges: [res.exchange],
  }));
}

/** The parsed JSON body; fails when the body is not JSON (an answer that keeps no body is only checked). */
export function jsonBody(t: RuleContext, res: Pick<Answer, 'jsonError' | 'exchange'> & { readonly json?: unknown }, what: string): unknown {
  t.check(res.jsonError === undefined, () => ({
    expected: `${what} as a JSON body`,
    received: res.jsonError ?? '',
    exchanges: [res.exchange],
  }));
  return res.json;
}

/** The body as a JSON object; fails when it is not one. */
export function jsonObject(t: RuleContext, res: Answer, what: string): Json {
  const body = jsonBody(t, res, what);
  t.check(body !== null && typeof body === 'object' && !Array.isArray(body), () => ({
    expected: `${what} as a JSON object`,
    received: preview(body),
    exchanges: [res.exchange],
  }));
  return body as Json;
}

/** Fails unless the value matches the named JSON Schema. */
export function expectSchema(t: RuleContext, name: SchemaName, value: unknown, res: Pick<Answer, 'exchange'>, what: string): void {
  const issues = validateSchema(name, value);
  expectNoIssues(t, name, issues, issues.length, res, what);
}

/**
 * Fails when a schema check found issues: `issues` are the first of `total`. For a check
 * made earlier, e.g. the page schema, which a walk checks on each page as it arrives.
 */
export function expectNoIssues(t: RuleContext, name: SchemaName, issues: readonly SchemaIssue[], total: number, res: Pick<Answer, 'exchange'>, what: string): void {
  const more = total > issues.length ? `\n    … and ${total - issues.length} more` : '';
  t.check(total === 0, () => ({
    expected: `${what} matching the ${name} schema (schemas/${name}.schema.json)`,
    received: `${total} violation(s):\n    ${formatIssues(issues).split('\n').join('\n    ')}${more}`,
    exchanges: [res.exchange],
  }));
}

/**
 * A documented failure (§7): a 4xx (never 2xx, never 5xx) with an Error object body.
 * `action` says what was refused, e.g. "a create without name".
 */
export function expectErrorObject(t: RuleContext, res: Answer, action: string): Json {
  t.check(res.status >= 400 && res.status < 500, () => ({
    expected: `a 4xx status for ${action}`,
    received: `${res.status} (${statusClass(res.status)})`,
    exchanges: [res.exchange],
  }));
  // The 4xx is this rule's own; what an Error object looks like is FMT-1's and FMT-2's, so a
  // server whose Error objects are wrong everywhere is blamed once, under FMT-2.
  const body = explainedBy(['FMT-1', 'FMT-2'], t.rule, () => jsonBody(t, res, `an Error object for ${action}`));
  explainedBy(['FMT-2'], t.rule, () => expectSchema(t, 'error', body, res, `an Error object for ${action}`));
  return body as Json;
}

/**
 * A 4xx answer to a request whose outcome the spec leaves to the server (a create with a member
 * it does not name, an id with the case of its letters swapped): the choice is never judged, only
 * the shape every documented failure has, an Error object in JSON. A defect there is FMT-1's or
 * FMT-2's, recorded as their evidence from whichever test met it; this test's own verdict is not
 * touched. Any other status is not judged here.
 */
export function refusalShapeEvidence(t: RuleContext, res: Answer, action: string): void {
  if (res.status < 400 || res.status >= 500) return;
  if (res.jsonError !== undefined) {
    t.evidence('FMT-1', { expected: `an Error object as a JSON body for ${action}, refused with ${res.status}`, received: res.jsonError, exchanges: [res.exchange] });
    return;
  }
  const issues = validateSchema('error', res.json);
  if (issues.length === 0) return;
  t.evidence('FMT-2', {
    expected: `an Error object (schemas/error.schema.json) for ${action}, refused with ${res.status}`,
    received: `${issues.length} violation(s):\n    ${formatIssues(issues.slice(0, 5)).split('\n').join('\n    ')}`,
    exchanges: [res.exchange],
  });
}

/**
 * The Widget of a successful create: 2xx and a JSON object with a usable id. Used as a test's
 * setup: when the create itself is at fault, the test cannot get as far as its own rule, so it
 * is inconclusive naming the rule the create breaks (PROP-2 for ordinary input refused with a
 * 4xx, CRUD-1 for another refusal, FMT-1 for a body that is not JSON, FMT-3 for a Widget without
 * a non-empty string id), and fails only when it is that rule's own test. An id the run already
 * held is evidence for CRUD-3 (its widget still live) or DEL-2 (deleted before), whoever sees it.
 */
export function createdWidget(t: RuleContext, res: ApiResponse, action = 'a create with a valid name', api: WidgetApi = t.api): Json & { id: string } {
  requireAccepted(t, res, action);
  prerequisite(t, 'FMT-1', res.jsonError === undefined, () => ({
    expected: `the created Widget of ${action} as a JSON body`,
    received: res.jsonError ?? '',
    exchanges: [res.exchange],
  }));
  const body = res.json as Json;
  const isObject = body !== null && typeof body === 'object' && !Array.isArray(body);
  prerequisite(t, 'FMT-3', isObject && typeof body.id === 'string' && body.id !== '', () => ({
    expected: `the created Widget of ${action} with a non-empty string id (the Widget schema)`,
    received: isObject ? `id ${preview(body.id)} (${body.id === null ? 'null' : typeof body.id})` : preview(body),
    exchanges: [res.exchange],
  }));
  const repeat = api.repeatOf(res);
  // CRUD-3's own test judges its creates together (every id it got, the repeated ones named).
  // An id given while its DELETE was on the wire ('overlapped') is evidence for neither rule: the
  // server may have deleted first (DEL-2) or created first (CRUD-3); their own tests, which do
  // not overlap a create with a delete, judge each.
  if (repeat === 'collided' && t.rule.id !== 'CRUD-3') {
    t.evidence('CRUD-3', {
      expected: `a new widget with an id no live widget of the ${api.account} account has`,
      received: `id ${preview(body.id)}, which an earlier create of this run was answered with, its widget not deleted`,
      exchanges: [res.exchange],
    });
  } else if (repeat === 'reused') {
    t.evidence('DEL-2', {
      expected: `a new widget with an id never given before in the ${api.account} account`,
      received: `id ${preview(body.id)}, the id of a widget this run deleted earlier`,
      exchanges: [res.exchange],
    });
  }
  return body as Json & { id: string };
}

/**
 * A create of valid input answered 2xx, or the check ends: inconclusive on PROP-2 when ordinary
 * input was refused with a 4xx (the suite's own names are such), on CRUD-1 otherwise.
 */
export function requireAccepted(t: RuleContext, res: ApiResponse, action: string): void {
  const refused = refusedOrdinaryInput(res);
  prerequisite(t, 'PROP-2', refused === undefined, () => refused as FailureDetail);
  prerequisite(t, 'CRUD-1', res.status >= 200 && res.status < 300, () => ({
    expected: `a 2xx status for ${action}`,
    received: `${res.status}`,
    exchanges: [res.exchange],
  }));
}

/** Statuses that refuse a request for other reasons than its input: not a refusal of the name. */
const NOT_ABOUT_INPUT = new Set([401, 403, 404, 405, 408, 429]);

/**
 * When a create of input PROP-2 calls ordinary (the suite names its own widgets so) was refused
 * with a 4xx: the detail of that PROP-2 failure, saying how long the refused name was and what
 * the suite assumes; undefined otherwise.
 */
function refusedOrdinaryInput(res: ApiResponse): FailureDetail | undefined {
  if (res.status < 400 || res.status >= 500 || NOT_ABOUT_INPUT.has(res.status)) return undefined;
  let sent: unknown;
  try {
    sent = JSON.parse(res.exchange.request.body ?? '');
  } catch {
    return undefined;
  }
  if (sent === null || typeof sent !== 'object' || Array.isArray(sent)) return undefined;
  const { name, description } = sent as Json;
  if (!isOrdinary(name, 1, ORDINARY_NAME_MAX) || (description !== undefined && !isOrdinary(description, 0, ORDINARY_DESCRIPTION_MAX))) return undefined;
  const message = (res.json as { message?: unknown } | undefined)?.message;
  const said = typeof message === 'string' ? ` (the server said ${preview(message)})` : '';
  const desc = typeof description === 'string' ? ` and a description of ${description.length}` : '';
  return {
    expected: `a create of a name of ${name.length} printable ASCII characters${desc} accepted: the suite assumes every server accepts names of 1 to ${ORDINARY_NAME_MAX} and descriptions of 0 to ${ORDINARY_DESCRIPTION_MAX} printable ASCII characters (no space at the ends), and names its own widgets so`,
    received: `${res.status}${said} for the name ${preview(name)} (${name.length} characters)`,
    note: 'A limit shorter than that is the server\'s to choose only above what PROP-2 calls ordinary input; every check that needed this create has no verdict.',
    exchanges: [res.exchange],
  };
}

/** Creates a widget carrying the run marker and returns it; fails the rule if the create fails. */
export async function createOrFail(t: RuleContext, fields: { name?: string; description?: string } = {}): Promise<Json & { id: string }> {
  const body = { name: fields.name ?? t.name(), ...(fields.description === undefined ? {} : { description: fields.description }) };
  const res = await t.api.create(body);
  return createdWidget(t, res, `a create of ${preview(body)}`);
}

/**
 * Fails when the account's list, walked after `since`, shows a widget that `match` picks.
 * When the walk cannot finish and nothing was found, the check is inconclusive (a suite
 * error naming the walk's problem), never a pass on partial evidence. With `settle: 'delete'`
 * (`since` is then the delete's answer) a widget still listed is looked for again (settle.ts):
 * the message says when it left, and --list-settle-ms accepts it leaving within the window.
 */
export async function expectNotListed(
  t: RuleContext,
  api: WidgetApi,
  since: number,
  match: (widget: Json) => boolean,
  expected: string,
  related: readonly Exchange[] = [],
  options: { readonly settle?: 'delete' } = {},
): Promise<void> {
  let walk = await t.listAfter(api, since);
  let found = findInWalk(walk, match);
  let late = '';
  if (options.settle && walk.end.kind === 'complete') {
    if (found === undefined) recordLag(options.settle, 'immediate', walk);
    else {
      const settled = await settleOrDescribe(t, api, options.settle, since, (w) => findInWalk(w, match) === undefined);
      if (settled.accepted) [walk, found] = [settled.walk, undefined];
      else late = `; ${settled.note}`;
    }
  }
  const shown = walk;
  t.check(found === undefined, () => ({
    expected,
    received: `${preview(found?.widget)} on page ${found?.page} of the ${api.account} account's list walk (limit ${shown.limit ?? 'not sent'})${late}`,
    exchanges: [...related, ...shown.pages.filter((p) => p.number === found?.page).map((p) => p.response.exchange)],
  }));
  requireComplete(t, walk, `confirm that ${expected}`);
}

export { describeDifferences, differingFields, sameDescription, sameInstant, WIDGET_FIELDS } from './differ.ts';

/** Thrown by retrieveRemovingIf's judge when the widget is not to be deleted on this retrieve. */
class NotRemoved extends Error {
  constructor(readonly shown: ApiResponse) {
    super('not deleted on this retrieve: the test judges it');
  }
}

/**
 * The owner's retrieve of its own widget, which is also the proof the widget's delete is sent on
 * (WidgetApi.retrieveThenRemove) when `holds` says the test is done with it (the widget as
 * expected); otherwise nothing is deleted (the cleanup, or --keep-failing, sees to it) and the
 * test judges the answer returned. What `holds` throws ends the test, nothing deleted. A widget
 * another test that shares it has kept (--keep-failing: it failed on it) is not deleted either.
 */
export async function retrieveRemovingIf(api: WidgetApi, id: string, holds: (res: ApiResponse) => boolean): Promise<ApiResponse> {
  try {
    return (await api.retrieveThenRemove(id, (res) => {
      if (!holds(res) || api.ownership.get(api.account, id)?.kept !== undefined) throw new NotRemoved(res);
    })).retrieved;
  } catch (error) {
    if (error instanceof NotRemoved) return error.shown;
    throw error;
  }
}

/**
 * Deletes the widget a create answered (`created`) once the test is done with it, on its owner's
 * retrieve (the proof the DELETE is sent on, as the file's cleanup would send it), and gives that
 * retrieve to CRUD-4: a widget no delete was sent for that its owner no longer finds is lost
 * (lostEvidence). Only for a 2xx create whose id is a non-empty JSON string: another id (a number,
 * FMT-3's failure) may not address the widget, so a retrieve of it says nothing of a loss, and the
 * cleanup sees to it. The calling check has concluded: what stops the delete (a refusal of the
 * door, a transport failure) leaves the widget to the cleanup, never changes the verdict. A widget
 * a failing test kept (--keep-failing) stays.
 */
export async function removeWhenDone(t: RuleContext, api: WidgetApi, created: Pick<ApiResponse, 'status' | 'json'>): Promise<void> {
  const id = created.status >= 200 && created.status < 300 ? (created.json as { id?: unknown } | undefined)?.id : undefined;
  if (typeof id !== 'string' || id === '') return;
  try {
    await retrieveRemovingIf(api, id, (res) => {
      lostEvidence(t, api, id, res, `the owner's retrieve of a widget of this run its tests are done with, before its delete`);
      return true;
    });
  } catch (error) {
    if (!isSuiteError(error)) throw error;
  }
}

/**
 * A delete with another account's credentials, or a skip when the suite cannot prove it touches
 * nothing it did not create: where ids are per account, the other account may hold a widget of
 * its own at the same id, and deleting it is never the suite's to do.
 */
export async function removeOrSkip(t: RuleContext, api: WidgetApi, id: string): Promise<ApiResponse> {
  try {
    return await api.remove(id);
  } catch (error) {
    if (error instanceof UnprovenDeleteError) {
      // Not sent because the owner's retrieve does not show the widget as created (the proof
      // compares it with the create's answer): CRUD-4's fault, and this check inconclusive under
      // it. Only when that retrieve is seen to be unfaithful; otherwise a skip, with the reason.
      if (mayDependOn(t.rule.id, 'CRUD-4')) await unprovenBecauseOfRetrieve(t, t.api, error);
      return t.skip(`the ${api.account} account's delete of ${preview(id)} was not sent: ${error.reason}`);
    }
    throw error;
  }
}
