/**
 * The rule catalogue: one entry per rule the suite checks, read out of the Widget Service
 * specification. Ids are published (dashboards key on them): never renumber or reuse one.
 * Long because the catalogue is data (one entry per rule, with its statement, basis, interface
 * pointers and requirements) and is the one source every other part reads.
 */

/** MUST: the spec states it (or it follows from plain JSON/HTTP); SHOULD: HTTP convention where the spec is silent. */
export type Level = 'MUST' | 'SHOULD';

export interface Rule {
  readonly id: string;
  readonly level: Level;
  /** Spec section(s) the rule rests on, e.g. `§4.2`. */
  readonly section: string;
  /** One sentence: what a conformant server does. */
  readonly statement: string;
  /** The spec text (or the RFC) the rule rests on, quoted. */
  readonly basis: string;
  /**
   * JSON Pointers (as `#` fragments) into openapi/widget-service.openapi.json to the
   * operations, responses and components the rule is about, so a reader of the rule finds the
   * interface it checks in the repository (test/unit/openapi.test.ts resolves every one).
   */
  readonly openapi: readonly string[];
  /**
   * The rules a check of this rule relies on before it can judge its own statement (a create that
   * succeeds, ids told apart, a walk that ends). The one source of "inconclusive": a check ends
   * without a verdict only naming a rule declared here (or required by one declared here, see
   * requirementsOf), and only when evidence of that rule's violation was seen. A shared list
   * may name the rule itself: a rule never depends on itself. `[]` when nothing.
   */
  readonly requires?: readonly string[];
  /**
   * A failure of this rule voids the verdict of every rule that requires it, passed or failed:
   * ids are how every other check finds a widget, so once the server gave one id to two widgets
   * (CRUD-3, DEL-2) whatever a check saw at an id may have been the other one. Which checks
   * happened to meet a repeated id depends on timing; the verdict must not (issue 20).
   */
  readonly foundation?: true;
  /** Its checks need a second account (--second-token): without one the rule is not run, and the run is PARTIAL. */
  readonly secondAccount?: true;
}

const SPEC_JSON = '§1: "Requests and responses use JSON (media type application/json)."';
const SPEC_ERRORS =
  '§7: "All documented error responses have the Error object shape from section 2 (code required, message required, request_id optional)."';
const SPEC_ISOLATION = '§1: "Every operation acts on the authenticated account. Widgets of other accounts are not visible."';
const SPEC_AUTH =
  '§5: "When authentication fails or is not provided, the service answers with an Error object (documented for list and create)."';
const SPEC_MALFORMED =
  '§4.2: "Failures, each with an Error object: The request is malformed (for instance the name field is missing)."';
const SPEC_PAGING =
  '§4.1: "Paging rule: when has_more is true, the next page is fetched by passing next_cursor as cursor."';

// Where the rules point in openapi/widget-service.openapi.json (one spelling of each pointer).
const LIST = '#/paths/~1widgets/get';
const CREATE = '#/paths/~1widgets/post';
const RETRIEVE = '#/paths/~1widgets~1{widgetId}/get';
const DELETE = '#/paths/~1widgets~1{widgetId}/delete';
const WIDGET = '#/components/schemas/Widget';
const PAGE = '#/components/schemas/WidgetPage';
const ERROR = '#/components/schemas/Error';
const CREATE_REQUEST = '#/components/schemas/CreateWidgetRequest';
const BEARER = '#/components/securitySchemes/bearerAuth';
const LIST_4XX = `${LIST}/responses/4XX`;
const CREATE_4XX = `${CREATE}/responses/4XX`;
const RETRIEVE_4XX = `${RETRIEVE}/responses/4XX`;

// What most checks stand on (see Rule.requires). A create of the suite's own ordinary input
// (PROP-2) that succeeds (CRUD-1) with a JSON (FMT-1) Widget holding a string id (FMT-3).
const CREATES = ['PROP-2', 'CRUD-1', 'FMT-1', 'FMT-3'];
// Widgets told apart by id: once two widgets share one (both live: CRUD-3; one deleted before: DEL-2),
// a check may be looking at the other; and found as created (CRUD-4): the proof that a widget is
// the suite's own before it is deleted reads the run marker from a retrieve.
const IDS = ['CRUD-3', 'DEL-2', 'CRUD-4'];
// An Error object's shape is FMT-1's and FMT-2's: a rule expecting one defers to them for it.
const ERRORS = ['FMT-1', 'FMT-2'];
// A list walk that ends: absence from a walk cut short proves nothing.
const WALKS = ['PAGE-1', 'PAGE-2', 'PAGE-3', 'PAGE-5'];

export const RULES: readonly Rule[] = [
  // Format (§1, §2, §7)
  {
    id: 'FMT-1', level: 'MUST', section: '§1, §2',
    statement: 'Every response body the spec documents is JSON with Content-Type application/json (parameters such as charset allowed).',
    basis: SPEC_JSON,
    openapi: [LIST, CREATE, RETRIEVE],
    requires: [...CREATES, ...IDS, 'FMT-2'],
  },
  {
    id: 'FMT-2', level: 'MUST', section: '§2, §7',
    statement: 'Every documented failure is an Error object (code string, message string, request_id string when present) with a 4xx status.',
    basis: SPEC_ERRORS,
    openapi: [ERROR, LIST_4XX, CREATE_4XX, RETRIEVE_4XX],
    requires: [...CREATES],
  },
  {
    id: 'FMT-3', level: 'MUST', section: '§2',
    statement: 'Every Widget in any response matches the Widget schema: id, name and created_at (RFC 3339 date-time) strings, description a string when present.',
    basis: '§2 Widget: "id string yes; name string yes; description string no; created_at string, format date-time yes".',
    openapi: [WIDGET],
    requires: [...CREATES, ...IDS, 'PAGE-6'],
  },
  {
    id: 'FMT-4', level: 'SHOULD', section: '§2, §7',
    statement: 'Every Error object says something: code and message are non-empty strings, and so is request_id when present.',
    basis: '§2 Error object: "code string yes — Machine-readable error code; message string yes — Human-readable message; request_id string no — Identifier of the request." An empty string is a string, so the schema (FMT-2) holds; an empty code reads nothing and an empty message tells nothing, hence SHOULD.',
    openapi: [ERROR],
    requires: [...CREATES, ...IDS, ...ERRORS],
  },
  // Create and retrieve (§4.2, §4.3)
  {
    id: 'CRUD-1', level: 'MUST', section: '§4.2',
    statement: 'Create with a name (with or without description) succeeds with a 2xx and returns the new Widget with the name and description sent.',
    basis: '§4.2: "Creates a new widget on the authenticated account. … Success: the newly created Widget (id, name, description, created_at)."',
    openapi: [CREATE, WIDGET],
    requires: [...CREATES],
  },
  {
    id: 'CRUD-2', level: 'MUST', section: '§2, §4.2',
    statement: "created_at is the creation time: within the clock tolerance of the client's clock around the create request.",
    basis: '§2 Widget: "created_at … Creation timestamp."',
    openapi: [CREATE, WIDGET],
    requires: [...CREATES],
  },
  {
    id: 'CRUD-3', level: 'MUST', section: '§2',
    statement: 'Widgets created in a row all have distinct ids.',
    basis: '§2 Widget: "id … Unique identifier of the widget."',
    openapi: [CREATE, WIDGET],
    foundation: true,
    requires: [...CREATES],
  },
  {
    id: 'CRUD-4', level: 'MUST', section: '§4.3',
    statement: 'Retrieve returns the same Widget as create returned (id, name, description, created_at).',
    basis: '§4.3: "Success: the requested Widget."',
    openapi: [RETRIEVE],
    requires: [...CREATES, ...IDS],
  },
  {
    id: 'CRUD-5', level: 'MUST', section: '§4.3, §7',
    statement: 'Retrieve of an id that does not exist answers an Error object with a 4xx.',
    basis: '§4.3: "Failure: the requested resource does not exist, returns an Error object."',
    openapi: [RETRIEVE_4XX],
    requires: [...CREATES, ...ERRORS],
  },
  {
    id: 'CRUD-6', level: 'SHOULD', section: '§4.2, §4.3 (RFC 9110 §15.3.2, §15.5.5)',
    statement: 'Create answers 201 Created; retrieve of an unknown id answers 404 Not Found.',
    basis: 'RFC 9110 §15.3.2: "The 201 (Created) status code indicates that the request has been fulfilled and has resulted in one or more new resources being created."',
    openapi: [`${CREATE}/responses/2XX`, RETRIEVE_4XX],
    requires: [...CREATES],
  },
  {
    id: 'CRUD-7', level: 'SHOULD', section: '§4.2 (RFC 9110 §8.3.1, §5.6.6)',
    statement: 'Create accepts application/json in every spelling the media-type grammar allows: type and subtype in any case, a charset parameter, whitespace around the semicolon.',
    basis: 'RFC 9110 §8.3.1: "The type and subtype tokens are case-insensitive." §5.6.6: "parameters = *( OWS \";\" OWS [ parameter ] )". §4.2 names the header as "Content-Type: application/json".',
    openapi: [`${CREATE}/requestBody`],
    requires: [...CREATES, ...IDS],
  },
  // Delete (§4.4)
  {
    id: 'DEL-1', level: 'MUST', section: '§4.4, §4.3, §4.1',
    statement: 'After a successful (2xx) delete, the widget can no longer be retrieved (Error, 4xx) and no longer appears in a list walk.',
    basis: '§4.4: "DELETE /widgets/{widgetId}"; §4.3: "Failure: the requested resource does not exist, returns an Error object."',
    openapi: [DELETE, RETRIEVE, LIST],
    requires: [...CREATES, ...IDS, ...ERRORS, ...WALKS],
  },
  {
    id: 'DEL-2', level: 'MUST', section: '§2, §4.4',
    statement: 'A deleted id never comes back as another widget: ids are not reused.',
    basis: '§2 Widget: "id … Unique identifier of the widget."',
    openapi: [DELETE, WIDGET],
    foundation: true,
    requires: [...CREATES, ...IDS],
  },
  {
    id: 'DEL-3', level: 'SHOULD', section: '§4.4 (RFC 9110 §9.3.5)',
    statement: 'Delete answers 200, 202 or 204; deleting an unknown id is not a 5xx.',
    basis: 'RFC 9110 §9.3.5: "If a DELETE method is successfully applied, the origin server SHOULD send a 202 (Accepted) …, a 204 (No Content) …, or a 200 (OK)".',
    openapi: [`${DELETE}/responses`],
    requires: [...CREATES, ...IDS],
  },
  {
    id: 'DEL-4', level: 'MUST', section: '§2, §4.4',
    statement: 'A delete names one widget by its whole id: a delete of an id made by adding characters after an existing widget\'s id ("31-x" beside "31") leaves that widget in place.',
    basis: '§4.4: "Path parameter: widgetId, string, required (the widget identifier, as in retrieve)"; §2 Widget: "id … Unique identifier of the widget." The widget "31" is identified by "31": "31-x" is not its identifier, so a delete of "31-x" does not delete it.',
    openapi: [DELETE, RETRIEVE],
    // The delete goes out only on a retrieve of the exact id that answers an error or the widget
    // itself (client/ledger.ts extensionVerdict): any other answer there is CRUD-5's.
    requires: [...CREATES, ...IDS, 'CRUD-5'],
  },
  // Account isolation (§1)
  {
    id: 'ISO-1', level: 'MUST', section: '§1, §4.1',
    secondAccount: true,
    statement: "No widget of account A ever appears in a list walk of account B.",
    basis: SPEC_ISOLATION,
    openapi: [BEARER, LIST],
    requires: [...CREATES, ...IDS, ...ERRORS, ...WALKS],
  },
  {
    id: 'ISO-2', level: 'MUST', section: '§1, §4.3',
    secondAccount: true,
    statement: "Account B cannot retrieve account A's widget: an Error object with a 4xx.",
    basis: SPEC_ISOLATION,
    openapi: [BEARER, RETRIEVE_4XX],
    requires: [...CREATES, ...IDS, ...ERRORS, ...WALKS],
  },
  {
    id: 'ISO-3', level: 'MUST', section: '§1, §4.4',
    secondAccount: true,
    statement: "Account B's delete of account A's widget has no effect: A still retrieves it unchanged.",
    basis: SPEC_ISOLATION,
    openapi: [BEARER, DELETE],
    requires: [...CREATES, ...IDS, ...ERRORS, ...WALKS],
  },
  {
    id: 'ISO-4', level: 'MUST', section: '§1, §4.1',
    secondAccount: true,
    statement: "A cursor obtained by account A, used with B's token, reveals none of A's widgets.",
    basis: SPEC_ISOLATION,
    openapi: [BEARER, LIST],
    requires: [...CREATES, ...IDS, ...ERRORS, ...WALKS],
  },
  {
    id: 'ISO-5', level: 'SHOULD', section: '§1, §4.3',
    secondAccount: true,
    statement: "B's answer for A's widget has the same status and code as for an id that never existed (no existence oracle).",
    basis: SPEC_ISOLATION,
    openapi: [BEARER, RETRIEVE_4XX],
    requires: [...CREATES, ...IDS, ...ERRORS, ...WALKS],
  },
  // Authentication (§5)
  {
    id: 'AUTH-1', level: 'MUST', section: '§5, §7',
    statement: 'List and create without an Authorization header fail with an Error object and a 4xx.',
    basis: SPEC_AUTH,
    openapi: [BEARER, LIST_4XX, CREATE_4XX],
    requires: [...CREATES, ...ERRORS, ...WALKS],
  },
  {
    id: 'AUTH-2', level: 'MUST', section: '§5, §7',
    statement: 'List and create with an unknown token, a wrong scheme, an empty bearer or a valid token with extra characters fail with an Error object and a 4xx.',
    basis: '§5: "Every operation is authenticated with a bearer token sent in the header Authorization, in the form: Bearer <ACCESS_TOKEN>."',
    openapi: [BEARER, LIST_4XX, CREATE_4XX],
    requires: [...CREATES, ...ERRORS, ...WALKS],
  },
  {
    id: 'AUTH-3', level: 'MUST', section: '§5, §4.2',
    statement: 'A create refused for authentication creates nothing.',
    basis: SPEC_AUTH,
    openapi: [BEARER, CREATE],
    requires: [...CREATES, ...ERRORS, ...WALKS],
  },
  {
    id: 'AUTH-4', level: 'MUST', section: '§5, §4.3, §4.4',
    statement: 'Retrieve and delete without valid credentials fail (non-2xx), have no effect and do not reveal the widget.',
    basis: '§5: "Every operation is authenticated with a bearer token"',
    openapi: [BEARER, RETRIEVE, DELETE],
    requires: [...CREATES, ...IDS, ...ERRORS, ...WALKS],
  },
  {
    id: 'AUTH-5', level: 'SHOULD', section: '§5 (RFC 6750 §3)',
    statement: 'Authentication failures answer 401 with WWW-Authenticate: Bearer and never echo the presented token.',
    basis: 'RFC 6750 §3: "If the protected resource request does not include authentication credentials or does not contain an access token that enables access to the protected resource, the resource server MUST include the HTTP "WWW-Authenticate" response header field".',
    openapi: [BEARER],
    requires: [...CREATES, ...ERRORS, ...WALKS],
  },
  {
    id: 'AUTH-6', level: 'SHOULD', section: '§5 (RFC 9110 §11.1, §11.4; RFC 6750 §2.1)',
    statement: 'A valid token is accepted in every spelling of the credentials the grammar allows: the scheme Bearer in any case, and one or more spaces before the token.',
    basis: 'RFC 9110 §11.1: "It uses a case-insensitive token to identify the authentication scheme"; RFC 6750 §2.1: "credentials = \"Bearer\" 1*SP b64token".',
    openapi: [BEARER],
    requires: [...CREATES, ...IDS, ...ERRORS, ...WALKS],
  },
  // Malformed requests (§4.2, §7)
  {
    id: 'MAL-1', level: 'MUST', section: '§4.2, §7',
    statement: 'Create without name fails with an Error object and a 4xx, and creates nothing.',
    basis: SPEC_MALFORMED,
    openapi: [CREATE_REQUEST, CREATE_4XX],
    requires: [...CREATES, ...ERRORS, ...WALKS],
  },
  {
    id: 'MAL-2', level: 'MUST', section: '§4.2, §7',
    statement: 'Create with a name that is not a string, or a description of another type, fails with an Error object and a 4xx, and creates nothing.',
    basis: '§4.2 request body: "name string required; description string not required".',
    openapi: [CREATE_REQUEST, CREATE_4XX],
    requires: [...CREATES, ...ERRORS, ...WALKS],
  },
  {
    id: 'MAL-3', level: 'MUST', section: '§4.2, §7',
    statement: 'A body that is not JSON, an empty body, or JSON that is not an object fails with an Error object and a 4xx (never a 5xx), and creates nothing.',
    basis: '§4.2: "Request body (JSON object)"; ' + SPEC_MALFORMED,
    openapi: [`${CREATE}/requestBody`, CREATE_4XX],
    requires: [...CREATES, ...ERRORS, ...WALKS],
  },
  {
    id: 'MAL-4', level: 'SHOULD', section: '§4.2 (RFC 9110 §15.5.1, §15.5.16)',
    statement: 'Malformed bodies answer 400 or 422; a rejected unsupported Content-Type is an Error object (415 recommended).',
    basis: 'RFC 9110 §15.5.16: "The 415 (Unsupported Media Type) status code indicates that the origin server is refusing to service the request because the content is in a format not supported by this method on the target resource."',
    openapi: [`${CREATE}/requestBody`, CREATE_4XX],
    requires: [...CREATES, ...ERRORS, ...WALKS],
  },
  {
    id: 'MAL-5', level: 'SHOULD', section: '§4 (RFC 9110 §15.5.6, §10.2.1)',
    statement: 'A method the spec does not define on /widgets or /widgets/{id} changes nothing and answers 405 with an Allow header naming the methods the spec defines there.',
    basis: '§4 defines GET and POST on /widgets, GET and DELETE on /widgets/{widgetId}; RFC 9110 §15.5.6: "The origin server MUST generate an Allow header field in a 405 response containing a list of the target resource\'s currently supported methods."',
    openapi: [`#/paths/~1widgets`, `#/paths/~1widgets~1{widgetId}`],
    requires: [...CREATES, ...IDS, ...ERRORS, ...WALKS],
  },
  // Pagination (§4.1, §8)
  {
    id: 'PAGE-1', level: 'MUST', section: '§2, §4.1, §8',
    statement: 'Every page matches the page schema, and holds no more widgets than the limit given.',
    basis: '§8: "The limit query parameter of the list operation caps the number of widgets returned in one page."',
    openapi: [LIST, PAGE],
    requires: [...CREATES, ...IDS, ...ERRORS, ...WALKS],
  },
  {
    id: 'PAGE-2', level: 'MUST', section: '§4.1',
    statement: 'When has_more is true, next_cursor is a non-empty string.',
    basis: SPEC_PAGING,
    openapi: [PAGE],
    requires: [...CREATES, ...IDS, ...ERRORS, ...WALKS],
  },
  {
    id: 'PAGE-3', level: 'MUST', section: '§4.1',
    statement: 'A walk following next_cursor returns every widget of the account exactly once and ends with has_more false.',
    basis: '§4.1: "Returns a paginated list of widgets owned by the authenticated account." ' + SPEC_PAGING,
    openapi: [LIST, PAGE],
    requires: [...CREATES, ...IDS, ...ERRORS, ...WALKS],
  },
  {
    id: 'PAGE-4', level: 'MUST', section: '§2, §4.1',
    statement: 'has_more is true when the account holds more widgets than the page shows.',
    basis: '§2 Widget page: "has_more boolean — Whether more widgets are available beyond this page."',
    openapi: [LIST, PAGE],
    requires: [...CREATES, ...IDS, ...ERRORS, ...WALKS],
  },
  {
    id: 'PAGE-5', level: 'MUST', section: '§4.1',
    statement: 'A walk terminates: a repeating cursor or a page that makes no progress is a failure.',
    basis: SPEC_PAGING,
    openapi: [LIST],
    requires: [...CREATES, ...IDS, ...ERRORS, ...WALKS],
  },
  {
    id: 'PAGE-6', level: 'MUST', section: '§4.1, §8',
    statement: 'A list without limit returns a valid page (the default applies).',
    basis: '§4.1: "Query parameters (both optional)".',
    openapi: [LIST],
    requires: [...CREATES, ...ERRORS, ...WALKS],
  },
  {
    id: 'PAGE-7', level: 'SHOULD', section: '§4.1',
    statement: 'A walk is stable under concurrent writes: widgets that exist for the whole walk appear exactly once.',
    basis: SPEC_PAGING,
    openapi: [LIST],
    requires: [...CREATES, ...IDS, ...ERRORS, ...WALKS, 'PAGE-3'],
  },
  {
    id: 'PAGE-8', level: 'SHOULD', section: '§4.1 (RFC 9110 §15.5.1)',
    statement: 'An invalid limit or cursor is rejected with an Error object, never a 5xx.',
    basis: '§4.1: "limit integer — Maximum number of widgets to return. cursor string — Pagination cursor returned by a previous response."',
    openapi: [`${LIST}/parameters`],
    requires: [...CREATES, ...IDS, ...ERRORS, ...WALKS],
  },
  {
    id: 'PAGE-9', level: 'SHOULD', section: '§2, §4.1',
    statement: 'When has_more is false, the page carries no next_cursor (absent, or empty): there is no following page to fetch.',
    basis: '§2 Widget page: "next_cursor string no — Cursor to pass as the cursor query parameter to fetch the following page." The spec does not say it must be absent on the last page (RULES leaves how it is left out to the server), hence SHOULD.',
    openapi: [PAGE],
    requires: [...CREATES, ...IDS, ...ERRORS, ...WALKS],
  },
  // Properties (fast-check)
  {
    id: 'PROP-1', level: 'MUST', section: '§2, §4.2, §4.3, §4.1',
    statement: 'Generated names and descriptions (all of Unicode) are either accepted and round-tripped exactly through create, retrieve and list, or rejected with an Error object and a 4xx with nothing created.',
    basis: '§4.2: "Success: the newly created Widget (id, name, description, created_at)."',
    openapi: [CREATE, RETRIEVE, LIST],
    requires: [...CREATES, ...IDS, ...ERRORS, ...WALKS, 'CRUD-4'],
  },
  {
    id: 'PROP-2', level: 'MUST', section: '§2, §4.2',
    statement: 'Ordinary input is accepted: a name of 1 to 32 printable ASCII characters and a description of 0 to 64 (neither blank nor padded with spaces).',
    basis: '§4.2 request body: "name string required; description string not required".',
    openapi: [CREATE_REQUEST],
    requires: [...CREATES, ...IDS, ...ERRORS],
  },
  {
    id: 'PROP-3', level: 'MUST', section: '§1, §4',
    statement: 'Random sequences of create, retrieve, list and delete over two accounts agree with a model of the service after every step.',
    basis: SPEC_ISOLATION,
    openapi: [LIST, CREATE, RETRIEVE, DELETE],
    requires: [...CREATES, ...IDS, ...ERRORS, ...WALKS, 'CRUD-4', 'DEL-2'],
  },
];

const BY_ID = new Map(RULES.map((r) => [r.id, r]));

/** The rule with this id; throws for an unknown id so a typo in a test title cannot go unnoticed. */
export function ruleById(id: string): Rule {
  const rule = BY_ID.get(id);
  if (!rule) throw new Error(`unknown rule id ${JSON.stringify(id)}: add it to src/rules.ts first`);
  return rule;
}

const REQUIRED = new Map<string, ReadonlySet<string>>();

/**
 * Every rule a check of `id` may end inconclusive on: its declared requirements and theirs, in
 * turn (PROP-3 requires CRUD-4, which requires CRUD-3), never the rule itself.
 */
export function requirementsOf(id: string): ReadonlySet<string> {
  const known = REQUIRED.get(id);
  if (known) return known;
  const found = new Set<string>();
  const visit = (x: string): void => {
    for (const r of BY_ID.get(x)?.requires ?? []) {
      if (found.has(r)) continue;
      found.add(r);
      visit(r);
    }
  };
  visit(id);
  found.delete(id);
  REQUIRED.set(id, found);
  return found;
}

/** How --list and --help mark a rule whose checks need a second account (Rule.secondAccount). */
export const SECOND_ACCOUNT_MARK = 'needs a second account';

/** The rules of the catalogue whose checks need a second account. */
export function secondAccountRules(): string[] {
  return RULES.filter((r) => r.secondAccount).map((r) => r.id);
}

/** True when the catalogue lets a check of `id` end inconclusive on `requirement`. */
export function mayDependOn(id: string, requirement: string): boolean {
  return id !== requirement && requirementsOf(id).has(requirement);
}

/** The family of a rule id: `PAGE-3` → `PAGE`. */
export function familyOf(id: string): string {
  return id.replace(/-\d+$/, '');
}
