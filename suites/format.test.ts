/**
 * Format (§1, §2, §7): FMT-1, FMT-2 and FMT-3 on the documented situations, and FMT-4. Their
 * checks are registered once and judge every documented answer of the run, whichever test got it
 * (src/harness/exchange-checks.ts): a violation is evidence of its rule. The tests here run after
 * every other file (cli/run/run-vitest.ts) and judge, for each documented situation, the first
 * answer the run recorded for it with the same checks; they send a request only for a situation no
 * other test exercised (once, for every rule that asks), and always for the failures asked with
 * Accept: *\/* or with no Accept header, which nobody else sends.
 */
import { createOrFail, expect2xx, expectErrorObject, expectNoIssues, jsonObject, type Answer, type Json } from '../src/harness/checks.ts';
import { itemCount, mediaTypeAndJson, situationText, widgetIssues, type AcceptAsked, type Documented, type DocumentedFailure, type Judged } from '../src/harness/exchange-checks.ts';
import { explainedBy } from '../src/harness/failure.ts';
import { foreignId } from '../src/harness/ids.ts';
import { prerequisite, requireRetrievable } from '../src/harness/prerequisites.ts';
import { rule, type RuleContext } from '../src/harness/rule.ts';
import { describeEnd, walkBudget, walkPages, type ApiResponse } from '../src/harness/api.ts';
import { preview, type SchemaIssue } from '../src/schema.ts';

/** The Accept header each way of asking sends: the client's own, `*\/*`, or none (null). */
const ACCEPT_HEADER: Readonly<Record<AcceptAsked, string | null | undefined>> = { json: undefined, any: '*/*', none: null, other: undefined };

/** The request of each documented failure, asked with the Accept header given (undefined: the client's application/json). */
const FAILURE_REQUESTS: Readonly<Record<DocumentedFailure, (t: RuleContext, accept: string | null | undefined) => Promise<ApiResponse>>> = {
  'missing-name': (t, accept) => t.api.create({ description: t.name() }, accept === undefined ? {} : { accept }),
  // Reads with another Accept go out as they are (no other test sends them, so there is no answer to share).
  'foreign-id': (t, accept) => (accept === undefined ? t.api.retrieve(foreignId(t.random)) : t.api.http.request('GET', `/widgets/${foreignId(t.random)}`, { headers: { authorization: t.api.bearer, accept } })),
  'list-no-credential': (t, accept) => (accept === undefined ? t.api.list({}, { authorization: null }) : t.api.http.request('GET', '/widgets', { headers: { accept } })),
  'create-no-credential': (t, accept) => t.api.create({ name: t.name() }, { auth: { authorization: null }, ...(accept === undefined ? {} : { accept }) }),
};

/** The documented failures, as the titles name them. */
const FAILURES: ReadonlyArray<{ documented: DocumentedFailure; what: string }> = [
  { documented: 'missing-name', what: 'the Error for a create without name (§4.2)' },
  { documented: 'foreign-id', what: 'the Error for an unknown id (§4.3)' },
  { documented: 'list-no-credential', what: 'the Error for a list without credentials (§5)' },
  { documented: 'create-no-credential', what: 'the Error for a create without credentials (§5)' },
];

/**
 * The answer to judge for a situation: the first one the run recorded (any test's), else the
 * request `send` makes, sent once for every test that asks for the situation.
 */
async function answerFor(t: RuleContext, documented: Documented, accept: AcceptAsked, send: () => Promise<Judged>): Promise<Judged> {
  const [first] = t.exchanges.recorded(documented, accept);
  return first ?? t.exchanges.exercise(`${documented}|${accept}`, send);
}

/** The answer to a documented failure as asked (nobody else asks with another Accept: sent once for FMT-1 and FMT-2). */
function failureAnswer(t: RuleContext, documented: DocumentedFailure, accept: AcceptAsked): Promise<Judged> {
  return answerFor(t, documented, accept, () => FAILURE_REQUESTS[documented](t, ACCEPT_HEADER[accept]));
}

/** FMT-1's check, registered in exchange-checks.ts, made an observation of this test. */
function expectJson(t: RuleContext, res: Judged, what: string): void {
  const problem = mediaTypeAndJson(res, what);
  t.check(problem === undefined, () => problem!);
}

/** The documented successes FMT-1 judges: the first the run recorded, or one made now as the test always made it. */
const SUCCESSES: ReadonlyArray<{ documented: Documented; what: string; make: (t: RuleContext) => Promise<Judged> }> = [
  { documented: 'created', what: 'a created Widget (§4.2)', make: (t) => t.api.create({ name: t.name() }) },
  {
    documented: 'retrieved',
    what: 'a retrieved Widget (§4.3)',
    make: async (t) => {
      const { id } = await createOrFail(t);
      const res = await t.api.retrieve(id);
      // Nothing found (a proxy's HTML 404, a store that lost the widget) is no Widget to judge: CRUD-4's.
      requireRetrievable(t, t.api, id, res, 'a retrieve of a widget just created');
      return res;
    },
  },
  { documented: 'page', what: 'a Widget page (§4.1)', make: (t) => t.api.list() },
];

for (const doc of SUCCESSES) {
  rule('FMT-1', `${doc.what} is JSON sent as application/json`, async (t) => {
    const res = await answerFor(t, doc.documented, 'json', () => doc.make(t));
    expectJson(t, res, doc.what);
  });
}

for (const doc of FAILURES) {
  rule('FMT-1', `${doc.what} is JSON sent as application/json`, async (t) => {
    expectJson(t, await failureAnswer(t, doc.documented, 'json'), doc.what);
  });
}

for (const doc of FAILURES) {
  rule('FMT-2', `${doc.what.replace('the Error', 'the answer')} is an Error object with a 4xx`, async (t) => {
    const res = await failureAnswer(t, doc.documented, 'json');
    expectErrorObject(t, res, doc.what.replace('the Error for ', ''));
  });
}

/**
 * §7 asks for the Error object for every documented failure, whatever the request's Accept
 * header: curl and most HTTP libraries send `*\/*`, Go's sends none. A framework that picks its
 * error page by the Accept header (an Error object for application/json only) breaks it.
 */
const ASKED: ReadonlyArray<{ accept: AcceptAsked; label: string }> = [
  { accept: 'any', label: 'asked with Accept: */*' },
  { accept: 'none', label: 'asked with no Accept header' },
];

for (const { accept, label } of ASKED) {
  rule('FMT-1', `the documented failures ${label} are JSON sent as application/json`, async (t) => {
    const answers = await Promise.all(FAILURES.map(({ documented }) => failureAnswer(t, documented, accept)));
    answers.forEach((res, i) => expectJson(t, res, situationText(FAILURES[i]!.documented, accept)));
  });

  rule('FMT-2', `the documented failures ${label} are Error objects with a 4xx`, async (t) => {
    const answers = await Promise.all(FAILURES.map(({ documented }) => failureAnswer(t, documented, accept)));
    answers.forEach((res, i) => expectErrorObject(t, res, situationText(FAILURES[i]!.documented, accept).replace(/^the answer to /, '')));
  });
}

rule('FMT-3', 'every Widget in a page matches the Widget schema', async (t) => {
  // A recorded page with Widgets to judge, or, as the test always did, a list after a create of its own.
  const res = t.exchanges.recorded('page').find((p) => itemCount(p) > 0) ?? (await createOrFail(t), await t.api.list());
  // A list without limit that fails is PAGE-6's fault (the default page), not the schema's.
  explainedBy(['PAGE-6'], t.rule, () => expect2xx(t, res, 'a list'));
  const data = jsonObject(t, res, 'the Widget page').data;
  t.check(Array.isArray(data), () => ({ expected: 'a page whose data is an array', received: preview(data), exchanges: [res.exchange] }));
  const { issues, total } = widgetIssues(res, true);
  expectNoIssues(t, 'widget', issues, total, res, `every Widget of the page`);
});

/** Pages of the walk at limit 1 whose Widgets FMT-3 checks: a list may serialise its items differently after the first page. */
const SCHEMA_WALK_PAGES = 3;

rule('FMT-3', `every Widget on the first ${SCHEMA_WALK_PAGES} pages of a walk at limit 1 matches the Widget schema`, async (t) => {
  // The first page at limit 1 and the pages after it that the run recorded (a walk of the PAGE
  // rules'), or a walk of this test's own over widgets it makes.
  const recorded = [...t.exchanges.recorded('page-limit-1').slice(0, 1), ...t.exchanges.recorded('later-page', 'json', '1').slice(0, SCHEMA_WALK_PAGES - 1)];
  let pages: Array<{ number: number; response: Answer & { schemaIssues: readonly SchemaIssue[] } }>;
  if (recorded.some((p) => itemCount(p) > 0)) {
    pages = recorded.map((p, i) => ({ number: i + 1, response: { ...p, schemaIssues: widgetIssues(p, true).issues } }));
  } else {
    await Promise.all([createOrFail(t), createOrFail(t)]);
    const walk = await walkPages(t.api, { limit: 1, maxPages: walkBudget(t.settings.maxWidgets), stopAfter: SCHEMA_WALK_PAGES });
    pages = walk.pages.map((p) => ({ number: p.number, response: { ...p.response, schemaIssues: p.response.schemaIssues.filter((i) => i.path.startsWith('/data/')) } }));
    if (pages.every((p) => itemCount(p.response) === 0)) return t.skip(`the walk at limit 1 ${describeEnd(walk)} without a Widget to check (the PAGE rules judge its pages)`);
  }
  for (const page of pages) {
    // A page that is not one is the PAGE rules' to judge; its Widgets, when it has some, are FMT-3's.
    const issues = page.response.schemaIssues;
    expectNoIssues(t, 'widget', issues, issues.length, page.response, `every Widget on page ${page.number} of the walk at limit 1`);
  }
});

/**
 * Every way the suite can provoke an Error object, documented (§7) or not: FMT-4 judges each
 * Error object it gets (the documented ones as the run recorded them, see answerFor). Requests
 * that would change data are never used here.
 */
const ERROR_PROVOCATIONS: Array<{ what: string; documented?: DocumentedFailure; get: (t: RuleContext) => Promise<Judged> }> = [
  ...FAILURES.map(({ documented, what }) => ({ what, documented, get: (t: RuleContext) => failureAnswer(t, documented, 'json') })),
  { what: 'the Error for a list with an unknown token (§5)', get: (t) => t.api.list({}, { authorization: 'Bearer wcs-unknown-token-for-fmt-4' }) },
  { what: 'the Error for a create whose body is not JSON (§4.2)', get: (t) => t.api.create(undefined, { raw: '{"name":' }) },
  { what: 'the Error for a create whose body is an array (§4.2)', get: (t) => t.api.create([]) },
  { what: 'the Error for a create whose name is a number (§4.2)', get: (t) => t.api.create({ name: 1 }) },
  { what: 'the Error for a create whose description is a number (§4.2)', get: (t) => t.api.create({ name: t.name(), description: 1 }) },
  { what: 'the Error for a create sent as text/plain, if refused', get: (t) => t.api.create({ name: t.name() }, { contentType: 'text/plain' }) },
  { what: 'the Error for a list with limit=abc, if refused', get: (t) => t.api.list({ limit: 'abc' }) },
  { what: 'the Error for a list with a cursor the server never issued, if refused', get: (t) => t.api.list({ cursor: 'wcs-not-a-cursor' }) },
  // A repeated parameter is ambiguous; a server may refuse it (the query is written out: ListQuery holds one value per name).
  { what: 'the Error for a list with limit given twice, if refused', get: (t) => t.api.http.request('GET', '/widgets?limit=1&limit=2', { headers: { authorization: t.api.bearer } }) },
  { what: 'the Error for a list with cursor given twice, if refused', get: (t) => t.api.http.request('GET', '/widgets?cursor=a&cursor=b', { headers: { authorization: t.api.bearer } }) },
  // A create whose body is not UTF-8 is FMT-4's too, but in suites/after-all.test.ts: a server
  // that stores those bytes can break every later answer of the account (issue 30).
  { what: 'the Error for an unknown path under /widgets, if any', get: (t) => t.api.http.request('GET', '/widgets/a/b', { headers: { authorization: t.api.bearer } }) },
  // OPTIONS is safe (RFC 9110 §9.3.7); a server that does not serve it may answer 405 with an Error.
  { what: 'the Error for OPTIONS on /widgets, if any', get: (t) => t.api.http.request('OPTIONS', '/widgets', { headers: { authorization: t.api.bearer } }) },
  { what: 'the Error for OPTIONS on a widget id, if any', get: (t) => t.api.http.request('OPTIONS', `/widgets/${foreignId(t.random)}`, { headers: { authorization: t.api.bearer } }) },
];

for (const provocation of ERROR_PROVOCATIONS) {
  const what = provocation.what.replace(/^the Error for /, '').replace(/, if .*$/, '');
  rule('FMT-4', `the Error object for ${what} has a non-empty code and message`, async (t) => {
    const res = await provocation.get(t);
    const body = res.json as Json | undefined;
    const isError = res.status >= 400 && body !== null && typeof body === 'object' && !Array.isArray(body) && typeof body.code === 'string' && typeof body.message === 'string';
    // Whether there is an Error object at all is FMT-2's (documented failures) or the server's choice (the others).
    // A documented failure refused without an Error object leaves FMT-4 nothing to judge, because
    // of FMT-1 (not JSON) or FMT-2 (not an Error object); one not refused at all is another rule's.
    if (!isError && provocation.documented !== undefined && res.status >= 400) {
      prerequisite(t, res.jsonError === undefined ? 'FMT-2' : 'FMT-1', false, () => ({ expected: `an Error object (code and message strings) for ${what}`, received: `${res.status}: ${preview(res.json ?? res.exchange.response?.body)}`, exchanges: [res.exchange] }));
    }
    if (!isError) return t.skip(`${what} answered ${res.status} without an Error object (code and message strings): nothing for FMT-4 to judge`);
    const empty = (['code', 'message', 'request_id'] as const).filter((field) => typeof body[field] === 'string' && (body[field] as string).trim() === '');
    t.check(empty.length === 0, () => ({
      expected: 'an Error object whose code and message (and request_id, when present) are not empty',
      received: `empty ${empty.join(', ')}: ${preview(body)}`,
      exchanges: [res.exchange],
    }));
  });
}
