/**
 * Faulty servers: each is the reference service with exactly one fault switched on, and the
 * rule the suite must fail it on. `npm run test:self` proves each is caught by that rule.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_PREFIX, DEFAULT_TOKENS, HttpError, ReferenceService, type ReferenceServiceOptions, type CursorPosition, type PageJson, type Reply, type WidgetJson } from '../../../src/reference/service.ts';
import { WidgetStore, type StoredWidget, type WidgetInput, type WidgetPage } from '../../../src/reference/store.ts';
import type { TestServer } from '../serve.ts';

export const TOKENS = Object.keys(DEFAULT_TOKENS) as [string, string];

export interface FaultCase {
  /** Stable, kebab-case: the self-test titles carry it. */
  readonly name: string;
  /** The rule the suite must fail (or warn, for a SHOULD rule) on this server. */
  readonly rule: string;
  readonly description: string;
  make(): TestServer;
}

const serve = (handler: ReferenceService): TestServer => ({ handler, tokens: TOKENS });

export const CRUD_FAULTS: readonly FaultCase[] = [
  {
    name: 'json-as-text-plain', rule: 'FMT-1', description: 'sends every JSON body with Content-Type text/plain',
    make: () => serve(new (class extends ReferenceService {
      protected override sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
        res.writeHead(status, { ...headers, 'Content-Type': 'text/plain' }).end(JSON.stringify(body));
      }
    })()),
  },
  {
    name: 'error-without-message', rule: 'FMT-2', description: 'sends Error objects without the required message',
    make: () => serve(new (class extends ReferenceService {
      protected override sendError(res: ServerResponse, requestId: string, error: HttpError): void {
        this.sendJson(res, error.status, { code: error.code, request_id: requestId }, error.headers);
      }
    })()),
  },
  {
    name: 'created-at-without-zone', rule: 'FMT-3', description: 'writes created_at without a time zone ("2026-01-01T10:00:00.000")',
    make: () => serve(new ReferenceService({ store: new (class extends WidgetStore {
      protected override now(): string { return new Date().toISOString().slice(0, -1); }
    })() })),
  },
  {
    name: 'create-drops-description', rule: 'CRUD-1', description: 'leaves the description out of the create response',
    make: () => serve(new (class extends ReferenceService {
      protected override async create(account: string, req: IncomingMessage): Promise<Reply> {
        const reply = await super.create(account, req);
        const { description: _dropped, ...rest } = reply.body as WidgetJson;
        return { ...reply, body: rest };
      }
    })()),
  },
  {
    name: 'stale-created-at', rule: 'CRUD-2', description: 'stamps every widget with a fixed time in 2001',
    make: () => serve(new ReferenceService({ store: new (class extends WidgetStore {
      protected override now(): string { return '2001-01-01T00:00:00Z'; }
    })() })),
  },
  {
    name: 'ids-from-the-clock', rule: 'CRUD-3', description: 'makes ids from the current second, so widgets created together share one',
    make: () => serve(new ReferenceService({ store: new (class extends WidgetStore {
      protected override newId(): string { return `w${Math.floor(Date.now() / 1000)}`; }
    })() })),
  },
  {
    name: 'retrieve-drops-description', rule: 'CRUD-4', description: 'leaves the description out when a widget is retrieved',
    make: () => serve(new (class extends ReferenceService {
      protected override retrieve(account: string, id: string): Reply {
        const reply = super.retrieve(account, id);
        const { description: _dropped, ...rest } = reply.body as WidgetJson;
        return { ...reply, body: rest };
      }
    })()),
  },
  {
    name: 'unknown-id-500', rule: 'CRUD-5', description: 'answers a retrieve of an unknown id with a 500',
    make: () => serve(new (class extends ReferenceService {
      protected override retrieve(account: string, id: string): Reply {
        if (!this.store.get(account, id)) throw new HttpError(500, 'internal_error', 'lookup failed');
        return super.retrieve(account, id);
      }
    })()),
  },
  {
    name: 'create-answers-200', rule: 'CRUD-6', description: 'answers a successful create with 200 instead of 201',
    make: () => serve(new (class extends ReferenceService {
      protected override async create(account: string, req: IncomingMessage): Promise<Reply> {
        return { ...(await super.create(account, req)), status: 200 };
      }
    })()),
  },
  {
    name: 'delete-does-nothing', rule: 'DEL-1', description: 'answers delete with 204 but keeps the widget',
    make: () => serve(new (class extends ReferenceService {
      protected override remove(account: string, id: string): Reply {
        if (!this.store.get(account, id)) throw this.widgetNotFound();
        return { status: 204 };
      }
    })()),
  },
  {
    name: 'reuses-deleted-ids', rule: 'DEL-2', description: 'numbers widgets by how many exist, so a deleted id comes back',
    make: () => serve(new ReferenceService({ store: new (class extends WidgetStore {
      protected override newId(): string {
        let live = 0;
        for (const widgets of this.widgetsByAccount.values()) live += widgets.size;
        return String(live + 1);
      }
    })() })),
  },
  {
    name: 'delete-unknown-500', rule: 'DEL-3', description: 'answers a delete of an unknown id with a 500',
    make: () => serve(new (class extends ReferenceService {
      protected override remove(account: string, id: string): Reply {
        if (!this.store.get(account, id)) throw new HttpError(500, 'internal_error', 'delete failed');
        return super.remove(account, id);
      }
    })()),
  },
];

// ---------------------------------------------------------------------------------------
// Helpers for the faults below: small pieces of server code a faulty server shares with the
// reference, so that each fault stays one mistake.

const COLLECTION = `${API_PREFIX}/widgets`;

/** The path of a request, without its query. */
const pathOf = (req: IncomingMessage): string => (req.url ?? '/').split('?', 1)[0] ?? '/';

/** True for GET and POST on /v1/widgets, the routes the spec documents auth failures for. */
const isCollection = (req: IncomingMessage): boolean => pathOf(req) === COLLECTION;

/** The account the widget belongs to, whichever account that is; undefined when none. */
function ownerOf(service: ReferenceService, store: WidgetStore, id: string): string | undefined {
  return [...new Set(Object.values(service.tokens))].find((account) => store.get(account, id) !== undefined);
}

/** A reference service whose unexpected errors (the 500s a fault provokes on purpose) are not logged. */
class QuietService extends ReferenceService {
  protected override onUnexpectedError(): void {}
}

/** A store that can name every account's widgets, in creation order. */
class InspectableStore extends WidgetStore {
  /** Every widget of every account, in creation (seq) order. */
  allWidgets(): StoredWidget[] {
    return [...this.widgetsByAccount.values()].flatMap((widgets) => [...widgets.values()]).sort((a, b) => a.seq - b.seq);
  }
}

export const AUTH_FAULTS: readonly FaultCase[] = [
  {
    name: 'anonymous-default-account', rule: 'AUTH-1',
    description: 'serves list and create without an Authorization header as the first (default) account',
    make: () => serve(new (class extends ReferenceService {
      protected override authenticate(req: IncomingMessage): string {
        if (req.headers.authorization === undefined && isCollection(req)) return DEFAULT_TOKENS[TOKENS[0]]!;
        return super.authenticate(req);
      }
    })()),
  },
  {
    name: 'unknown-token-provisions-account', rule: 'AUTH-2',
    description: 'accepts any non-empty bearer token, giving an unknown one a new, empty account (sign-up on first use)',
    make: () => serve(new (class extends ReferenceService {
      protected override accountForToken(token: string): string | undefined {
        return super.accountForToken(token) ?? `auto:${token}`;
      }
    })()),
  },
  {
    name: 'token-prefix-match', rule: 'AUTH-2',
    description: 'on list and create, accepts any bearer token that starts with a valid one (a startsWith check)',
    make: () => serve(new (class extends ReferenceService {
      protected override authenticate(req: IncomingMessage): string {
        const header = req.headers.authorization ?? '';
        if (isCollection(req)) {
          const known = Object.keys(this.tokens).find((token) => header.startsWith(`Bearer ${token}`));
          if (known !== undefined) return this.tokens[known]!;
        }
        return super.authenticate(req);
      }
    })()),
  },
  {
    name: 'auth-scheme-ignored', rule: 'AUTH-2',
    description: 'on list and create, takes the second word of Authorization as the token whatever the scheme (Basic accepted)',
    make: () => serve(new (class extends ReferenceService {
      protected override authenticate(req: IncomingMessage): string {
        const token = (req.headers.authorization ?? '').split(' ')[1];
        if (isCollection(req) && token !== undefined && token !== '') {
          const account = this.accountForToken(token);
          if (account !== undefined) return account;
        }
        return super.authenticate(req);
      }
    })()),
  },
  {
    name: 'refused-create-still-stored', rule: 'AUTH-3',
    description: 'writes a create for the account the credentials seem to name (any scheme, token prefix) and verifies the token only afterwards: the 401 leaves the widget stored',
    make: () => serve(new (class extends ReferenceService {
      protected override async dispatch(req: IncomingMessage): Promise<Reply> {
        if (req.method !== 'POST' || !isCollection(req)) return super.dispatch(req);
        const presented = (req.headers.authorization ?? '').split(' ').slice(1).join(' ');
        const claimed = Object.keys(this.tokens).find((token) => presented.startsWith(token));
        if (claimed === undefined) return super.dispatch(req);
        const reply = await this.create(this.tokens[claimed]!, req);
        this.authenticate(req); // too late: the widget is already stored
        return reply;
      }
    })()),
  },
  {
    name: 'item-routes-skip-auth', rule: 'AUTH-4',
    description: 'serves retrieve and delete without valid credentials, treating the widget id as enough',
    make: () => serve(new (class extends ReferenceService {
      protected override async dispatch(req: IncomingMessage): Promise<Reply> {
        const id = this.widgetIdFromPath(pathOf(req));
        if (id !== undefined) {
          try {
            this.authenticate(req);
          } catch {
            const owner = ownerOf(this, this.store, id);
            if (owner !== undefined && req.method === 'GET') return this.retrieve(owner, id);
            if (owner !== undefined && req.method === 'DELETE') return this.remove(owner, id);
          }
        }
        return super.dispatch(req);
      }
    })()),
  },
  {
    name: 'auth-401-without-challenge', rule: 'AUTH-5',
    description: 'answers authentication failures with 401 but no WWW-Authenticate header',
    make: () => serve(new (class extends ReferenceService {
      protected override authenticate(req: IncomingMessage): string {
        try {
          return super.authenticate(req);
        } catch (error) {
          if (error instanceof HttpError) throw new HttpError(error.status, error.code, error.message);
          throw error;
        }
      }
    })()),
  },
  {
    name: 'auth-error-echoes-token', rule: 'AUTH-5',
    description: 'names the rejected token in the Error message ("unknown token \\"…\\"")',
    make: () => serve(new (class extends ReferenceService {
      protected override authenticate(req: IncomingMessage): string {
        try {
          return super.authenticate(req);
        } catch (error) {
          const header = req.headers.authorization;
          if (error instanceof HttpError && header !== undefined) {
            throw new HttpError(error.status, error.code, `Unknown credentials ${JSON.stringify(header)}.`, error.headers);
          }
          throw error;
        }
      }
    })()),
  },
];

export const MALFORMED_FAULTS: readonly FaultCase[] = [
  {
    name: 'missing-name-defaulted', rule: 'MAL-1',
    description: 'gives a widget created without name the name "Untitled widget"',
    make: () => serve(new (class extends ReferenceService {
      protected override validateCreate(value: unknown): WidgetInput {
        if (value !== null && typeof value === 'object' && !Array.isArray(value) && !Object.hasOwn(value, 'name')) {
          return super.validateCreate({ ...value, name: 'Untitled widget' });
        }
        return super.validateCreate(value);
      }
    })()),
  },
  {
    name: 'number-name-coerced', rule: 'MAL-2',
    description: 'accepts a number as name and stores it as a string (42 becomes "42")',
    make: () => serve(new (class extends ReferenceService {
      protected override validateCreate(value: unknown): WidgetInput {
        const fields = value as Record<string, unknown> | null;
        if (fields !== null && typeof fields === 'object' && typeof fields.name === 'number') {
          return super.validateCreate({ ...fields, name: String(fields.name) });
        }
        return super.validateCreate(value);
      }
    })()),
  },
  {
    name: 'invalid-json-500', rule: 'MAL-3',
    description: 'parses the body with an unguarded JSON.parse, so a body that is not JSON (or empty) answers 500',
    make: () => serve(new (class extends QuietService {
      protected override parseJson(body: Buffer): unknown {
        return JSON.parse(body.toString('utf8'));
      }
    })()),
  },
  {
    name: 'array-body-bulk-create', rule: 'MAL-3',
    description: 'takes a JSON array of widgets as a bulk create and answers 201 with the array of created widgets',
    make: () => serve(new (class extends ReferenceService {
      protected override async create(account: string, req: IncomingMessage): Promise<Reply> {
        if (!this.isJsonMediaType(req.headers['content-type'])) return super.create(account, req);
        const value = this.parseJson(await this.readBody(req));
        const inputs = (Array.isArray(value) ? value : [value]).map((item) => this.validateCreate(item));
        const widgets = inputs.map((input) => this.toJson(this.store.create(account, input)));
        if (Array.isArray(value)) return { status: 201, body: widgets };
        return { status: 201, headers: { Location: this.widgetPath(widgets[0]!.id) }, body: widgets[0] };
      }
    })()),
  },
  {
    name: 'malformed-body-409', rule: 'MAL-4',
    description: 'answers malformed create bodies with 409 Conflict (an Error object, but not 400 or 422)',
    make: () => serve(new (class extends ReferenceService {
      protected override toHttpError(thrown: unknown): HttpError {
        const error = super.toHttpError(thrown);
        if (error.code === 'invalid_request' || error.code === 'invalid_json') return new HttpError(409, error.code, error.message, error.headers);
        return error;
      }
    })()),
  },
  {
    name: 'unsupported-media-type-as-text', rule: 'MAL-4',
    description: 'refuses a body that is not sent as application/json with a plain-text 415, not an Error object',
    make: () => serve(new (class extends ReferenceService {
      protected override sendError(res: ServerResponse, requestId: string, error: HttpError): void {
        if (error.status !== 415) return super.sendError(res, requestId, error);
        res.writeHead(415, { 'Content-Type': 'text/plain' }).end('Unsupported Media Type');
      }
    })()),
  },
];

export const ISOLATION_FAULTS: readonly FaultCase[] = [
  {
    name: 'list-of-every-account', rule: 'ISO-1',
    description: "lists every account's widgets: the list query has no owner filter",
    make: () => serve(new ReferenceService({ store: new (class extends InspectableStore {
      override page(_account: string, afterSeq: number | undefined, limit: number): WidgetPage {
        const rest = this.allWidgets().filter((w) => afterSeq === undefined || w.seq > afterSeq);
        const items = rest.slice(0, limit);
        return { items, lastSeq: items.at(-1)?.seq, hasMore: rest.length > limit };
      }
    })() })),
  },
  {
    name: 'retrieve-ignores-account', rule: 'ISO-2',
    description: 'retrieves a widget by id alone, whichever account owns it',
    make: () => serve(new (class extends ReferenceService {
      protected override retrieve(account: string, id: string): Reply {
        return super.retrieve(ownerOf(this, this.store, id) ?? account, id);
      }
    })()),
  },
  {
    name: 'delete-ignores-account', rule: 'ISO-3',
    description: 'deletes a widget by id alone, whichever account owns it',
    make: () => serve(new (class extends ReferenceService {
      protected override remove(account: string, id: string): Reply {
        return super.remove(ownerOf(this, this.store, id) ?? account, id);
      }
    })()),
  },
  {
    name: 'cursor-account-trusted', rule: 'ISO-4',
    description: 'resumes a list in the account the cursor names, not the account of the token',
    make: () => serve(new (class extends ReferenceService {
      protected override list(account: string, query: URLSearchParams): Reply {
        const cursor = query.get('cursor');
        const position = cursor === null ? undefined : this.decodeCursor(cursor);
        return super.list(position?.account ?? account, query);
      }
    })()),
  },
  {
    name: 'foreign-widget-403', rule: 'ISO-5',
    description: "answers 403 forbidden for another account's widget but 404 for an id that never existed",
    make: () => serve(new (class extends ReferenceService {
      private forbidIfForeign(account: string, id: string): void {
        const owner = ownerOf(this, this.store, id);
        if (owner !== undefined && owner !== account) throw new HttpError(403, 'forbidden', 'This widget belongs to another account.');
      }
      protected override retrieve(account: string, id: string): Reply {
        this.forbidIfForeign(account, id);
        return super.retrieve(account, id);
      }
      protected override remove(account: string, id: string): Reply {
        this.forbidIfForeign(account, id);
        return super.remove(account, id);
      }
    })()),
  },
];

/** Packs a snapshot bound and an offset into the one number a reference cursor carries. */
const OFFSET_SPAN = 1_000_000;

/** A list reply with these widgets, has_more and (when given) next_cursor. */
function pageReply(data: WidgetJson[], hasMore: boolean, nextCursor: string | undefined): Reply {
  const body: PageJson = { data, has_more: hasMore };
  if (nextCursor !== undefined) body.next_cursor = nextCursor;
  return { status: 200, body };
}

export const PAGINATION_FAULTS: readonly FaultCase[] = [
  {
    name: 'page-keeps-lookahead-item', rule: 'PAGE-1',
    description: 'fetches limit + 1 widgets to learn whether more follow, and forgets to drop the extra one',
    make: () => serve(new ReferenceService({ store: new (class extends WidgetStore {
      override page(account: string, afterSeq: number | undefined, limit: number): WidgetPage {
        const { items } = super.page(account, afterSeq, limit + 1);
        return { items, lastSeq: items.at(-1)?.seq, hasMore: items.length > limit };
      }
    })() })),
  },
  {
    name: 'limit-ignored', rule: 'PAGE-1',
    description: 'ignores the limit parameter and always answers pages of the default size (20)',
    make: () => serve(new (class extends ReferenceService {
      protected override parseLimit(_raw: string | undefined): number {
        return this.defaultLimit;
      }
    })()),
  },
  {
    name: 'has-more-from-full-page', rule: 'PAGE-2',
    description: 'sets has_more when the page is full, but next_cursor only when the store has more: a full last page says has_more true with no cursor',
    make: () => serve(new (class extends ReferenceService {
      protected override list(account: string, query: URLSearchParams): Reply {
        const { limit, afterSeq } = this.parseListQuery(account, query);
        const page = this.store.page(account, afterSeq, limit);
        const body = this.toPageJson(account, page);
        return { status: 200, body: { ...body, has_more: page.items.length === limit } };
      }
    })()),
  },
  {
    name: 'cursor-skips-boundary-widget', rule: 'PAGE-3',
    description: 'makes next_cursor name the first widget of the next page, then resumes after it: one widget lost at each page boundary',
    make: () => serve(new ReferenceService({ store: new (class extends WidgetStore {
      override page(account: string, afterSeq: number | undefined, limit: number): WidgetPage {
        const { items } = super.page(account, afterSeq, limit + 1);
        const hasMore = items.length > limit;
        const shown = items.slice(0, limit);
        return { items: shown, lastSeq: hasMore ? items[limit]!.seq : shown.at(-1)?.seq, hasMore };
      }
    })() })),
  },
  {
    name: 'has-more-always-false', rule: 'PAGE-4',
    description: 'always answers has_more false (and so no next_cursor), however many widgets follow',
    make: () => serve(new ReferenceService({ store: new (class extends WidgetStore {
      override page(account: string, afterSeq: number | undefined, limit: number): WidgetPage {
        return { ...super.page(account, afterSeq, limit), hasMore: false };
      }
    })() })),
  },
  {
    name: 'cursor-never-advances', rule: 'PAGE-5',
    description: "encodes the request's own position in next_cursor instead of the page's end: the same cursor, and page, forever",
    make: () => serve(new (class extends ReferenceService {
      protected override list(account: string, query: URLSearchParams): Reply {
        const { limit, afterSeq } = this.parseListQuery(account, query);
        const page = this.store.page(account, afterSeq, limit);
        return { status: 200, body: this.toPageJson(account, { ...page, lastSeq: afterSeq ?? 0 }) };
      }
    })()),
  },
  {
    name: 'no-limit-500', rule: 'PAGE-6',
    description: 'reads the default limit from an unset setting, so a list without limit fails with a 500',
    make: () => serve(new (class extends QuietService {
      protected override parseLimit(raw: string | undefined): number {
        if (raw === undefined) return Number(process.env.WIDGETS_DEFAULT_PAGE_SIZE_UNSET);
        return super.parseLimit(raw);
      }
    })()),
  },
  {
    name: 'offset-cursors', rule: 'PAGE-7',
    description: 'pages newest first by offset over the widgets that existed at the first page: new widgets cannot shift a walk, but a widget deleted behind the offset makes the next page skip one',
    make: () => serve(new (class extends ReferenceService {
      protected override list(account: string, query: URLSearchParams): Reply {
        const { limit, afterSeq } = this.parseListQuery(account, query);
        const all = this.store.page(account, undefined, Number.MAX_SAFE_INTEGER).items;
        // The cursor keeps the walk's snapshot bound (the newest seq at its first page) and an offset.
        const [bound, offset] = afterSeq === undefined ? [all.at(-1)?.seq ?? 0, 0] : [Math.floor(afterSeq / OFFSET_SPAN), afterSeq % OFFSET_SPAN];
        const visible = all.filter((w) => w.seq <= bound).reverse();
        const hasMore = offset + limit < visible.length;
        const next = hasMore ? this.encodeCursor({ account, seq: bound * OFFSET_SPAN + offset + limit }) : undefined;
        return pageReply(visible.slice(offset, offset + limit).map((w) => this.toJson(w)), hasMore, next);
      }
    })()),
  },
  {
    name: 'invalid-limit-500', rule: 'PAGE-8',
    description: 'passes limit through Number() unchecked, so "abc", "-1" or "1.5" fail deep in the store with a 500',
    make: () => serve(new (class extends QuietService {
      protected override parseLimit(raw: string | undefined): number {
        return raw === undefined ? super.parseLimit(raw) : Math.min(Number(raw), this.maxLimit);
      }
    })()),
  },
  {
    name: 'unsigned-cursor-500', rule: 'PAGE-8',
    description: 'decodes a cursor as base64 JSON without checking it, so a cursor it never issued fails with a 500',
    make: () => serve(new (class extends QuietService {
      protected override decodeCursor(cursor: string): CursorPosition | undefined {
        const [account, seq] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, number];
        return { account, seq };
      }
      protected override encodeCursor(position: CursorPosition): string {
        return Buffer.from(JSON.stringify([position.account, position.seq]), 'utf8').toString('base64url');
      }
    })()),
  },
];

/** Every fault the self-tests run. */
/** Faults of the response format: the shapes server authors get wrong. */
export const FORMAT_FAULTS: readonly FaultCase[] = [
  {
    name: 'id-is-a-number', rule: 'FMT-3', description: 'sends ids as JSON numbers (a database sequence serialised as is)',
    make: () => serve(new (class extends ReferenceService {
      private readonly numbers = new Map<string, number>();
      protected override toJson(widget: StoredWidget): WidgetJson {
        if (!this.numbers.has(widget.id)) this.numbers.set(widget.id, this.numbers.size + 1);
        return { ...super.toJson(widget), id: this.numbers.get(widget.id) as unknown as string };
      }
    })()),
  },
  {
    name: 'error-with-200', rule: 'FMT-2', description: 'sends Error objects with status 200 (errors in the body, success on the wire)',
    make: () => serve(new (class extends ReferenceService {
      protected override sendError(res: ServerResponse, requestId: string, error: HttpError): void {
        this.sendJson(res, 200, { code: error.code, message: error.message, request_id: requestId });
      }
    })()),
  },
  {
    name: 'html-error-pages', rule: 'FMT-1', description: 'answers failures with the framework\'s HTML error page, under text/html',
    make: () => serve(new (class extends ReferenceService {
      protected override sendError(res: ServerResponse, _requestId: string, error: HttpError): void {
        res.writeHead(error.status, { ...error.headers, 'Content-Type': 'text/html; charset=utf-8' }).end(`<html><body><h1>${error.status}</h1><p>${error.message}</p></body></html>`);
      }
    })()),
  },
  {
    name: 'description-null-when-absent', rule: 'FMT-3', description: 'sends "description": null for widgets created without one',
    make: () => serve(new (class extends ReferenceService {
      protected override toJson(widget: StoredWidget): WidgetJson {
        return { description: null as unknown as string, ...super.toJson(widget) };
      }
    })()),
  },
  {
    name: 'local-time-labelled-utc', rule: 'CRUD-2', description: 'writes created_at in the server\'s local time (UTC+3) but labels it Z',
    make: () => serve(new ReferenceService({ store: new (class extends WidgetStore {
      protected override now(): string { return new Date(Date.now() + 3 * 3600_000).toISOString(); }
    })() })),
  },
  {
    name: 'list-items-without-created-at', rule: 'FMT-3', description: 'leaves created_at out of the widgets in list pages (a lighter projection for lists)',
    make: () => serve(new (class extends ReferenceService {
      protected override toPageJson(account: string, page: WidgetPage): PageJson {
        const body = super.toPageJson(account, page);
        return { ...body, data: body.data.map(({ created_at: _dropped, ...rest }) => rest as WidgetJson) };
      }
    })()),
  },
];

/** Plain offset pagination over the current list: exactly-once when nothing changes, not under writes. */
export function offsetPaged(order: 'oldest-first' | 'newest-first', options: ReferenceServiceOptions = {}): ReferenceService {
  return new (class extends ReferenceService {
    protected override list(account: string, query: URLSearchParams): Reply {
      const { limit, afterSeq: offset = 0 } = this.parseListQuery(account, query);
      const all = this.store.page(account, undefined, Number.MAX_SAFE_INTEGER).items;
      if (order === 'newest-first') all.reverse();
      const hasMore = offset + limit < all.length;
      return pageReply(all.slice(offset, offset + limit).map((w) => this.toJson(w)), hasMore, hasMore ? this.encodeCursor({ account, seq: offset + limit }) : undefined);
    }
  })(options);
}

/** Faults found by reviewing the suite against its own blind spots. */
export const REVIEW_FAULTS: readonly FaultCase[] = [
  {
    name: 'offset-oldest-first', rule: 'PAGE-7', description: 'pages oldest first by plain offset: a widget deleted behind the walk makes the next page skip one',
    make: () => serve(offsetPaged('oldest-first')),
  },
  {
    name: 'offset-newest-first', rule: 'PAGE-7', description: 'pages newest first by plain offset: a widget created during the walk shifts the next page',
    make: () => serve(offsetPaged('newest-first')),
  },
  {
    name: 'truncated-token-accepted', rule: 'AUTH-2', description: 'accepts any prefix of a valid token (known.startsWith(presented))',
    make: () => serve(new (class extends ReferenceService {
      protected override accountForToken(token: string): string | undefined {
        const known = Object.keys(this.tokens).find((k) => k.startsWith(token));
        return known === undefined ? undefined : this.tokens[known];
      }
    })()),
  },
  {
    name: 'token-case-insensitive', rule: 'AUTH-2', description: 'compares tokens without regard to case',
    make: () => serve(new (class extends ReferenceService {
      protected override accountForToken(token: string): string | undefined {
        return super.accountForToken(token.toLowerCase());
      }
    })()),
  },
  {
    name: 'resumed-page-unfiltered', rule: 'ISO-1', description: 'filters the first page by account but not the pages fetched with a cursor',
    make: () => serve(new ReferenceService({ store: new (class extends WidgetStore {
      override page(account: string, afterSeq: number | undefined, limit: number): WidgetPage {
        if (afterSeq === undefined) return super.page(account, afterSeq, limit);
        const rest = [...this.widgetsByAccount.values()].flatMap((m) => [...m.values()]).sort((a, b) => a.seq - b.seq).filter((w) => w.seq > afterSeq);
        const items = rest.slice(0, limit);
        return { items, lastSeq: items.at(-1)?.seq, hasMore: rest.length > limit };
      }
    })() })),
  },
  {
    name: 'limit-zero-500', rule: 'PAGE-8', description: 'accepts limit=0 and then fails in the store with a 500',
    make: () => serve(new (class extends QuietService {
      protected override parseLimit(raw: string | undefined): number {
        if (raw !== undefined && /^[0-9]+$/.test(raw)) return Math.min(Number(raw), this.maxLimit);
        return super.parseLimit(raw);
      }
    })()),
  },
  {
    name: 'trailing-garbage-accepted', rule: 'MAL-3', description: 'parses the first JSON value of the body and ignores what follows',
    make: () => serve(new (class extends ReferenceService {
      protected override parseJson(body: Buffer): unknown {
        const text = body.toString('utf8');
        for (let end = text.length; end > 0; end -= 1) {
          try {
            return JSON.parse(text.slice(0, end));
          } catch {
            // a shorter prefix may parse
          }
        }
        return super.parseJson(body);
      }
    })()),
  },
];

export const FAULTS: readonly FaultCase[] = [...CRUD_FAULTS, ...AUTH_FAULTS, ...MALFORMED_FAULTS, ...ISOLATION_FAULTS, ...PAGINATION_FAULTS, ...REVIEW_FAULTS, ...FORMAT_FAULTS];

export type { StoredWidget };
