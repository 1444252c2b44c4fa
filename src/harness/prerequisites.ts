/**
 * What a check depends on, established before it judges its own rule: creates that return a
 * usable id, ids that are not given to two widgets, a retrieve that returns what create
 * returned. When one is broken, what was seen is evidence for the rule it breaks (the runner
 * fails that rule with it, whichever test saw it), and the check is inconclusive naming that
 * rule ("depends on CRUD-3"), which its rule must declare among its requirements (rules.ts),
 * instead of failing a rule the fault does not break (issues 11, 20).
 */
import type { WidgetApi } from '../client/api.ts';
import { describePages, pagesWithNonStringIds, type WalkResult } from '../client/walk.ts';
import { InconclusiveError } from '../errors.ts';
import type { ApiResponse } from '../http/client.ts';
import { idText, preview } from '../schema.ts';
import { describeDifferences, differingFields, sameId, type WidgetField } from './differ.ts';
import type { FailureDetail } from './failure.ts';
import { carriesMarker, tagsIn } from './marker.ts';
import type { RuleContext } from './rule-context.ts';

type Json = Record<string, unknown>;

/** The text of an inconclusive check: which rule it depends on, and the evidence. */
export function dependsOnText(ruleId: string, expected: string, received: string): string {
  return `no verdict: this check depends on ${ruleId}, which this server breaks: expected ${expected}; received ${received}`;
}

/**
 * Holds, or ends the check: the detail becomes evidence against `ruleId` and the check is
 * inconclusive naming it — unless the calling rule is that rule, which then fails with the same
 * detail (a rule never depends on itself). The catalogue must declare `ruleId` among the calling
 * rule's requirements (rule.ts turns an undeclared one into a suite error).
 */
export function prerequisite(t: RuleContext, ruleId: string, holds: boolean, detail: () => FailureDetail): void {
  // The calling rule's own statement, checked on the way: an observation of it like any other check.
  if (t.rule.id === ruleId) return t.check(holds, detail);
  if (holds) return;
  const d = detail();
  t.evidence(ruleId, d);
  throw new InconclusiveError(t.api.http.redactor.text(dependsOnText(ruleId, d.expected, d.received)), [ruleId]);
}

/** Ends the check as inconclusive naming `ruleId` (never a failure of the calling rule unless it is that rule). */
export function dependsOn(t: RuleContext, ruleId: string, detail: FailureDetail): never {
  prerequisite(t, ruleId, false, () => detail);
  throw new Error('unreachable');
}

/**
 * Inconclusive when the account's id was answered by more than one create in this run: what the
 * check sees at the id may be the other widget. On CRUD-3 when two of those widgets were live at
 * once, on DEL-2 when the id came back after its widget was deleted (ids that repeat across
 * accounts only are no such evidence: ids may be unique per account).
 */
export function requireDistinctId(t: RuleContext, api: WidgetApi, id: string): void {
  const claim = api.ownership.get(api.account, id);
  const creates = claim?.creates ?? 0;
  const reused = creates > 1 && claim?.collided !== true;
  prerequisite(t, reused ? 'DEL-2' : 'CRUD-3', creates <= 1, () => ({
    expected: reused ? `a new id for every widget created in the ${api.account} account, never one of a deleted widget` : `a distinct id for every widget created in the ${api.account} account`,
    received: `${creates} creates in this run answered with the id ${preview(id)}${reused ? ', the id of a widget deleted before' : ''}, so what is seen at it may be another widget`,
  }));
}

/** Inconclusive on CRUD-3 when creates of this check answered with the same id twice. */
export function requireDistinctIds(t: RuleContext, ids: readonly string[]): void {
  const repeated = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
  prerequisite(t, 'CRUD-3', repeated.length === 0, () => ({
    expected: `${ids.length} distinct ids from ${ids.length} creates`,
    received: `ids ${preview(ids)}; repeated: ${preview(repeated)}`,
  }));
}

/**
 * Inconclusive on CRUD-3 when a widget shown at `mine`'s id is another widget this run created
 * (it carries the run marker, under another name): the id was given to two widgets.
 */
export function requireSameWidget(t: RuleContext, api: WidgetApi, mine: Json, shown: unknown): void {
  requireDistinctId(t, api, String(mine.id));
  if (shown === null || typeof shown !== 'object') return;
  const other = shown as Json;
  // Another widget of this run: it carries a tag (marker, rule id, sequence number: RuleContext.name)
  // that none of `mine`'s fields carries. Each tag is unique to one widget, so that is positive
  // evidence of a second widget at the id; a widget whose fields were merely altered (a suffix
  // added, a field dropped) is `mine` changed, which is the calling rule's to judge.
  const mineTags = new Set(tagsIn(mine, t.settings.marker));
  const another = sameId(other.id, mine.id) && carriesMarker(other, t.settings.marker) && tagsIn(other, t.settings.marker).some((tag) => !mineTags.has(tag));
  prerequisite(t, 'CRUD-3', !another, () => ({
    expected: `the widget created as ${preview(mine.name)} at the id ${preview(mine.id)}`,
    received: `another widget this run created at that id (name ${preview(other.name)}): the id was given to two widgets`,
  }));
}

/** The body of a 2xx answer as a JSON object, or undefined. */
export function widgetOf(res: Pick<ApiResponse, 'status' | 'json'>): Json | undefined {
  const body = res.status >= 200 && res.status < 300 ? res.json : undefined;
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Json) : undefined;
}

/**
 * Inconclusive on CRUD-4 (with its evidence) when a delete was not sent for want of proof and a
 * retrieve of an ordinary widget of the account does not return it as created: the proof reads
 * the run marker from a retrieve. Returns (the error stands) when the retrieve is faithful.
 */
export async function unprovenBecauseOfRetrieve(t: RuleContext, api: WidgetApi, error: Error): Promise<void> {
  const unfaithful = await unfaithfulRetrieveFields(t, api).catch(() => undefined);
  if (!unfaithful || unfaithful.length === 0) return;
  dependsOn(t, 'CRUD-4', {
    expected: 'a retrieve that shows the widget as created, run marker included',
    received: `a retrieve that changes ${unfaithful.join(', ')}, so the widget could not be proved the suite's own before its delete (${error.message})`,
  });
}

/** Probe results per account: the fields in which a retrieve of an ordinary widget differs from its create. */
const probes = new WeakMap<WidgetApi, Promise<WidgetField[] | undefined>>();

/**
 * The Widget fields that a retrieve of an ordinary widget (short printable name and
 * description) does not return as create returned them: CRUD-4's question, asked once per
 * account and run, for checks that must tell a CRUD-4 fault from their own. Undefined when the
 * probe could not tell (its create or retrieve failed).
 */
export function unfaithfulRetrieveFields(t: RuleContext, api: WidgetApi): Promise<WidgetField[] | undefined> {
  let probe = probes.get(api);
  if (!probe) {
    probe = (async () => {
      const created = widgetOf(await api.create({ name: t.name(), description: 'retrieve probe' }));
      if (!created || typeof created.id !== 'string' || created.id === '') return undefined;
      const got = widgetOf(await api.retrieve(created.id));
      await api.remove(created.id).catch(() => undefined);
      return got ? differingFields(created, got) : undefined;
    })();
    probes.set(api, probe);
  }
  return probe;
}

/**
 * Inconclusive on CRUD-4 when every field in which `got` (a retrieve) differs from `want` is
 * one that a retrieve of an ordinary widget gets wrong too: the difference is CRUD-4's fault.
 */
export async function requireFaithfulRetrieve(t: RuleContext, api: WidgetApi, want: Json, got: Json, fields: readonly WidgetField[]): Promise<void> {
  if (fields.length === 0) return;
  const unfaithful = await unfaithfulRetrieveFields(t, api);
  const explained = unfaithful !== undefined && fields.every((f) => unfaithful.includes(f));
  prerequisite(t, 'CRUD-4', !explained, () => ({
    expected: 'a retrieve that returns the widget as create returned it',
    received: `${describeDifferences(want, got, 'created', 'retrieved', fields)}, as for any widget of the ${api.account} account`,
  }));
}

/**
 * Before a check concludes that a widget is missing from a list walk: inconclusive on FMT-3 (with
 * its evidence) when the walk held items whose id is not a JSON string. The walk reads an id sent
 * as an integer as its decimal text, so a widget "7" listed as 7 is found; but an id that names
 * none of the widgets so read, or that cannot be read at all, may be the missing widget under an
 * id of the wrong type, and the Widget schema (FMT-3) is what that breaks.
 */
export function requireStringIds(t: RuleContext, walk: WalkResult, purpose: string): void {
  const pages = pagesWithNonStringIds(walk);
  prerequisite(t, 'FMT-3', pages.length === 0, () => ({
    expected: `every widget of the ${walk.limit === undefined ? 'list' : `walk at limit ${walk.limit}`} with a string id (the Widget schema), to ${purpose}`,
    received: `${pages.reduce((n, p) => n + p.nonStringIds, 0)} widget(s) whose id is not a string, on page(s) ${pages.slice(0, 5).map((p) => p.number).join(', ')}${pages.length > 5 ? ', …' : ''}: ${describePages(walk, 500)}`,
    exchanges: [pages[0]!.response.exchange],
  }));
}

/**
 * Inconclusive on FMT-3 (with its evidence) when a field a check compares with what was sent is
 * not of the type the Widget schema gives it: a string (a description may also be absent). A
 * name written as 123 for "123" differs in its JSON type, which is FMT-3's to judge.
 */
export function requireStringField(t: RuleContext, widget: Json, field: 'name' | 'description', res: Pick<ApiResponse, 'exchange'>, what: string): void {
  const value = widget[field];
  prerequisite(t, 'FMT-3', typeof value === 'string' || (field === 'description' && value === undefined), () => ({
    expected: `${what} with its ${field} a string (the Widget schema)`,
    received: value === undefined ? `no ${field}` : `${field} ${preview(value)} (${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value})`,
    exchanges: [res.exchange],
  }));
}

/**
 * Answers that refuse a request instead of answering it (429, 503: issue 30 point 2): they say
 * nothing of the widget, so they are never evidence that it was lost.
 */
const REFUSALS = new Set([429, 503]);

/** Ids a DELETE was sent for, by any account, in this worker (fed by the API hook, see context.ts). */
const deletesSent = new Set<string>();

/** Records that a DELETE went out for an id (the API's observe hook): such a widget may be gone lawfully. */
export function noteDeleteSent(o: { readonly op: string; readonly id?: string }): void {
  if (o.op === 'delete' && o.id !== undefined) deletesSent.add(o.id);
}

/**
 * True when the run's records say the widget at `id` must still be there for its owner: a create
 * of this run in this account answered it once (no id given twice), and no DELETE was sent for it
 * by any account. Only then is a retrieve that does not find it a widget lost (CRUD-4).
 */
export function keptByRecord(api: WidgetApi, id: string): boolean {
  const claim = api.ownership.get(api.account, id);
  return claim !== undefined && claim.creates === 1 && !claim.deleted && !deletesSent.has(id);
}

const statusText = (res: Pick<ApiResponse, 'status' | 'json'>): string => {
  const code = (res.json as { code?: unknown } | undefined)?.code;
  return `${res.status}${typeof code === 'string' ? ` (code ${preview(code)})` : ''}`;
};

/** CRUD-4's evidence for a widget its owner's retrieve did not find. */
function lostDetail(api: WidgetApi, id: string, res: Pick<ApiResponse, 'status' | 'json' | 'exchange'>, what: string, note?: string): FailureDetail {
  return {
    expected: `the widget a create of this run made at the id ${preview(id)} in the ${api.account} account (no delete was sent for it), retrieved as create returned it`,
    received: `${statusText(res)} to ${what}`,
    ...(note === undefined ? {} : { note }),
    exchanges: [res.exchange],
    lost: true,
  };
}

/**
 * The owner's retrieve of its own widget (created by this run in this account, no delete sent)
 * must find it: when it answers anything but the widget (a 404, a 500; never a refusal), that is
 * CRUD-4's failure ("Retrieve returns the same Widget as create returned"), recorded with the
 * answer, and the calling check is inconclusive under it, whatever rule it judges (a schema, an
 * isolation, a method). Returns when the answer is a 2xx or the records do not say the widget
 * must be there.
 */
export function requireRetrievable(t: RuleContext, api: WidgetApi, id: string, res: ApiResponse, what: string): void {
  // A refusal says nothing of the widget, and a widget the records do not hold to be there may be
  // gone lawfully: neither is evaluated (nor, for CRUD-4's own tests, counted as an observation).
  if (REFUSALS.has(res.status) || !keptByRecord(api, id)) return;
  prerequisite(t, 'CRUD-4', res.status >= 200 && res.status < 300, () => lostDetail(api, id, res, what));
}

/**
 * What an owner's retrieve of its own widget, made after the calling check concluded (the proof of
 * the delete of a widget it is done with), says of CRUD-4: a widget no delete was sent for that
 * the retrieve does not find (never a refusal) is lost, CRUD-4's evidence whichever test saw it.
 * The calling check's verdict stands.
 */
export function lostEvidence(t: RuleContext, api: WidgetApi, id: string, res: ApiResponse, what: string): void {
  if (REFUSALS.has(res.status) || !keptByRecord(api, id) || (res.status >= 200 && res.status < 300)) return;
  t.evidence('CRUD-4', lostDetail(api, id, res, what));
}

/**
 * Widgets the loss probe keeps, and the retrieves it sends, in turn over them: a store split over
 * n workers misses some retrieve long before (each finds its widget by chance), and a gateway that
 * hides some ids (one in five: an encoded slash behind Apache) is met only by the widgets it hides,
 * so the probe looks at several.
 */
export const LOSS_PROBE_WIDGETS = 4;
export const LOSS_PROBE_RETRIEVES = 8;

/** What the loss probe saw: how many retrieves answered about its widget (not refused), and the first that lost it. */
export interface LossProbe {
  /** Retrieves whose answer said something of the widget: 0 when the probe could not run (its create failed) or every retrieve was refused. */
  readonly judged: number;
  /** CRUD-4's evidence: the first retrieve that did not find the widget. */
  readonly lost?: FailureDetail;
}

const lossProbes = new WeakMap<WidgetApi, Promise<LossProbe>>();

/**
 * Whether the owner's retrieve keeps finding widgets nobody deleted: LOSS_PROBE_WIDGETS widgets
 * created, then LOSS_PROBE_RETRIEVES retrieves of them in turn (no delete in between). The first
 * retrieve that does not answer its widget is CRUD-4's evidence; `judged` says how many answers
 * were read, so that a probe that could not run (its creates failed) is never taken for one that
 * found its widgets every time. Asked once per account and run.
 */
export function retrieveLosesWidgets(t: RuleContext, api: WidgetApi): Promise<LossProbe> {
  let probe = lossProbes.get(api);
  if (!probe) {
    probe = (async () => {
      const ids: string[] = [];
      for (let k = 0; k < LOSS_PROBE_WIDGETS; k += 1) {
        const id = widgetOf(await api.create({ name: t.name(), description: 'kept probe' }))?.id;
        if (typeof id === 'string' && id !== '' && !ids.includes(id)) ids.push(id);
      }
      if (ids.length === 0) return { judged: 0 };
      let lost: FailureDetail | undefined;
      let judged = 0;
      for (let i = 1; i <= LOSS_PROBE_RETRIEVES && lost === undefined; i += 1) {
        const id = ids[(i - 1) % ids.length]!;
        const res = await api.retrieve(id);
        if (REFUSALS.has(res.status) || !keptByRecord(api, id)) continue;
        judged += 1;
        if (!(res.status >= 200 && res.status < 300)) {
          const before = Math.floor((i - 1) / ids.length);
          lost = lostDetail(api, id, res, `retrieve ${i} of ${LOSS_PROBE_RETRIEVES} of ${ids.length} widgets just created, in turn (this one retrieved ${before} time(s) before it, nothing sent between but retrieves)`);
        }
      }
      for (const id of ids) await api.remove(id).catch(() => undefined);
      return lost === undefined ? { judged } : { judged, lost };
    })();
    lossProbes.set(api, probe);
  }
  return probe;
}

/** Retrieves of a widget not found after another request acted on it, to tell a lost answer from a widget gone. */
const RETRIEVES_AGAIN = 3;

/**
 * Before a check blames a request for a widget its owner no longer retrieves (another account's
 * delete, a refused delete, an undefined method): inconclusive on CRUD-4 when the records show
 * the store loses widgets without any request: a later retrieve of this very widget finds it
 * again (it was never gone), or the loss probe (retrieveLosesWidgets) found a widget of the
 * account missing that nothing acted on. Returns when neither was seen: the check judges.
 */
export async function requireKept(t: RuleContext, api: WidgetApi, id: string, res: ApiResponse, what: string): Promise<void> {
  if ((res.status >= 200 && res.status < 300) || REFUSALS.has(res.status)) return;
  for (let i = 0; i < RETRIEVES_AGAIN; i += 1) {
    const again = await api.retrieve(id);
    if (again.status >= 200 && again.status < 300 && idText((again.json as { id?: unknown } | undefined)?.id) === id && carriesMarker(again.json, t.settings.marker)) {
      dependsOn(t, 'CRUD-4', {
        ...lostDetail(api, id, res, what),
        note: `a retrieve of it right after answered ${again.status} with the widget: it was there all along`,
        exchanges: [res.exchange, again.exchange],
      });
    }
  }
  const { lost } = await retrieveLosesWidgets(t, api);
  if (lost) dependsOn(t, 'CRUD-4', { ...lost, note: `so the ${statusText(res)} to ${what} may be the same loss, not that request's doing` });
}

/**
 * A delete the suite did not send because the retrieve before it did not show the widget (the
 * ledger's proof, client/ledger.ts): when the records say the widget must be there (keptByRecord),
 * its owner's retrieve is asked once more, and what it answers is CRUD-4's evidence (not found, a
 * 5xx; or found now, after the retrieve just before found nothing), the check inconclusive under it.
 * Returns when the error names no id, or the retrieve is a refusal or the records allow the loss.
 */
export async function unprovenBecauseLost(t: RuleContext, apis: readonly WidgetApi[], error: { readonly at?: { readonly id: string; readonly account: string }; readonly reason: string }): Promise<void> {
  const api = apis.find((a) => a.account === error.at?.account);
  const id = error.at?.id;
  if (!api || id === undefined || !keptByRecord(api, id)) return;
  const res = await api.retrieve(id).catch(() => undefined);
  if (!res || REFUSALS.has(res.status)) return;
  const found = res.status >= 200 && res.status < 300;
  // Found: this widget, with the marker (as the ledger's proof reads it); any other 2xx is not this question.
  if (found && !(idText((res.json as { id?: unknown } | undefined)?.id) === id && carriesMarker(res.json, t.settings.marker))) return;
  dependsOn(t, 'CRUD-4', {
    ...lostDetail(api, id, res, 'a retrieve of it by its owner'),
    ...(found
      ? { received: `${res.status} with the widget, though the retrieve just before the delete did not show it (${error.reason})`, note: 'the owner\'s retrieve finds the widget only some of the time' }
      : { note: `the delete this check needs was not sent: ${error.reason}` }),
  });
}
