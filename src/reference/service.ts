/**
 * The reference Widget Service: a complete, conformant implementation.
 * Long because every decision is a protected method that the faulty, variant and hostile test
 * servers override one at a time: one class keeps each fault a one-method change.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { TextDecoder } from 'node:util';
import { WidgetStore, type StoredWidget, type WidgetInput, type WidgetPage } from './store.ts';

/** Path prefix under which the API is served. */
export const API_PREFIX = '/v1';

/** Fixed tokens of the two built-in accounts, token to account; public test credentials. */
export const DEFAULT_TOKENS: Readonly<Record<string, string>> = Object.freeze({
  'ref-token-alice-5f2c9e71b4d8a036': 'alice',
  'ref-token-bob-8a14d3f6c0e9b725': 'bob',
});

export interface ReferenceServiceOptions {
  /** Accepted bearer tokens, each mapped to the account it authenticates. */
  tokens?: Record<string, string>;
  /** Page size when a list names no `limit`. */
  defaultLimit?: number;
  /** Larger limits are clamped to this. */
  maxLimit?: number;
  /** Larger create bodies are refused with 413. */
  maxBodyBytes?: number;
  /** Where widgets live; pass a subclass to change how ids or timestamps are made. */
  store?: WidgetStore;
}

/** A Widget as it appears in response bodies. */
export interface WidgetJson {
  id: string;
  name: string;
  description?: string;
  created_at: string;
}

/** The body of a list response. */
export interface PageJson {
  data: WidgetJson[];
  has_more: boolean;
  next_cursor?: string;
}

/** The Error object of every failure. */
export interface ErrorJson {
  code: string;
  message: string;
  request_id: string;
}

/** What an operation answers; an undefined `body` means an empty body. */
export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** The list position a cursor carries. */
export interface CursorPosition {
  account: string;
  seq: number;
}

/** A list request's parameters, validated. */
export interface ListQuery {
  limit: number;
  afterSeq: number | undefined;
}

/** A failure answered to the client as an Error object. */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

const COLLECTION_PATH = `${API_PREFIX}/widgets`;
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const CURSOR_MAC_BYTES = 32; // HMAC-SHA-256
const LIMIT_PATTERN = /^[1-9][0-9]*$/;
// RFC 9110 §11: the scheme is case-insensitive and separated from the credentials by one or more spaces.
const BEARER_PATTERN = /^bearer +(.+)$/i;
const CHALLENGE = 'Bearer realm="widgets"';
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A complete, conformant, in-memory Widget Service; every decision is a protected method. */
export class ReferenceService {
  /** Accepted tokens, token to account. */
  readonly tokens: Readonly<Record<string, string>>;
  readonly defaultLimit: number;
  readonly maxLimit: number;
  readonly maxBodyBytes: number;
  protected readonly store: WidgetStore;
  /** Random per process: cursors cannot be forged, and die with the process. */
  protected readonly cursorKey: Buffer = randomBytes(32);
  private readonly tokenDigests: ReadonlyArray<readonly [Buffer, string]>;

  constructor(options: ReferenceServiceOptions = {}) {
    const {
      tokens = DEFAULT_TOKENS,
      defaultLimit = 20,
      maxLimit = 100,
      maxBodyBytes = 1024 * 1024,
      store = new WidgetStore(),
    } = options;
    requirePositiveInteger('defaultLimit', defaultLimit);
    requirePositiveInteger('maxLimit', maxLimit);
    requirePositiveInteger('maxBodyBytes', maxBodyBytes);
    if (defaultLimit > maxLimit) {
      throw new RangeError(`defaultLimit (${defaultLimit}) must not exceed maxLimit (${maxLimit})`);
    }
    this.tokens = Object.freeze({ ...tokens });
    this.tokenDigests = Object.entries(tokens).map(([token, account]) => [sha256(token), account] as const);
    this.defaultLimit = defaultLimit;
    this.maxLimit = maxLimit;
    this.maxBodyBytes = maxBodyBytes;
    this.store = store;
  }

  /** Answers one HTTP request; never rejects. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = this.newRequestId();
    res.setHeader('X-Request-Id', requestId);
    try {
      this.sendReply(res, await this.dispatch(req));
    } catch (thrown) {
      const error = this.toHttpError(thrown);
      // A response already under way cannot turn into an Error object; cutting it short
      // at least keeps the client from taking it as complete.
      if (res.headersSent) res.destroy();
      else this.sendError(res, requestId, error);
    }
  }

  /** Authenticates, then routes to the operation; throws HttpError for any failure. */
  protected async dispatch(req: IncomingMessage): Promise<Reply> {
    // Authentication comes before routing so that a client without credentials learns nothing.
    const account = this.authenticate(req);
    const { path, query } = splitTarget(req.url ?? '/');
    const method = req.method ?? '';
    if (path === COLLECTION_PATH) {
      if (method === 'GET') return this.list(account, query);
      if (method === 'POST') return this.create(account, req);
      throw methodNotAllowed('GET, POST');
    }
    const id = this.widgetIdFromPath(path);
    if (id === undefined) throw new HttpError(404, 'not_found', 'No resource exists at this path.');
    if (method === 'GET') return this.retrieve(account, id);
    if (method === 'DELETE') return this.remove(account, id);
    throw methodNotAllowed('GET, DELETE');
  }

  /** The account the request's bearer token belongs to; throws 401 otherwise. */
  protected authenticate(req: IncomingMessage): string {
    const header = req.headers.authorization;
    if (header === undefined) {
      throw new HttpError(401, 'unauthorized', 'Authentication is required: send "Authorization: Bearer <token>".', {
        'WWW-Authenticate': CHALLENGE,
      });
    }
    const token = BEARER_PATTERN.exec(header)?.[1];
    const account = token === undefined ? undefined : this.accountForToken(token);
    if (account === undefined) {
      // The message is fixed: a presented token is never echoed back.
      throw new HttpError(401, 'unauthorized', 'The bearer token is malformed or unknown.', {
        'WWW-Authenticate': `${CHALLENGE}, error="invalid_token"`,
      });
    }
    return account;
  }

  /** The account of an exactly matching token, or undefined. */
  protected accountForToken(token: string): string | undefined {
    // Comparing fixed-length digests in constant time, and visiting every token, keeps the
    // response time from telling how much of a guess was right.
    const presented = sha256(token);
    let account: string | undefined;
    for (const [digest, owner] of this.tokenDigests) {
      if (timingSafeEqual(digest, presented)) account = owner;
    }
    return account;
  }

  /** The percent-decoded id of a `/v1/widgets/{id}` path; undefined for any other path. */
  protected widgetIdFromPath(path: string): string | undefined {
    const prefix = `${COLLECTION_PATH}/`;
    if (!path.startsWith(prefix)) return undefined;
    const segment = path.slice(prefix.length);
    if (segment === '' || segment.includes('/')) return undefined;
    try {
      return decodeURIComponent(segment);
    } catch {
      return undefined; // malformed percent-encoding names no widget
    }
  }

  /** GET /v1/widgets: one page of the account's widgets in creation order. */
  protected list(account: string, query: URLSearchParams): Reply {
    const { limit, afterSeq } = this.parseListQuery(account, query);
    return { status: 200, body: this.toPageJson(account, this.store.page(account, afterSeq, limit)) };
  }

  /** Validates `limit` and `cursor`; each may be given at most once. */
  protected parseListQuery(account: string, query: URLSearchParams): ListQuery {
    return {
      limit: this.parseLimit(singleParam(query, 'limit', 'invalid_limit')),
      afterSeq: this.parseCursor(account, singleParam(query, 'cursor', 'invalid_cursor')),
    };
  }

  /** The page size: the default when absent, clamped to the maximum; throws 400 when malformed. */
  protected parseLimit(raw: string | undefined): number {
    if (raw === undefined) return this.defaultLimit;
    if (!LIMIT_PATTERN.test(raw)) {
      throw new HttpError(400, 'invalid_limit', 'limit must be a positive integer in decimal digits.');
    }
    // Huge digit strings become huge (or infinite) numbers, which the clamp handles too.
    return Math.min(Number(raw), this.maxLimit);
  }

  /** The sequence number to resume after; throws 400 for a cursor not issued to this account. */
  protected parseCursor(account: string, raw: string | undefined): number | undefined {
    if (raw === undefined) return undefined;
    const position = this.decodeCursor(raw);
    // A cursor is bound to its account: another account's cursor is as invalid as a forged one.
    if (position === undefined || position.account !== account) {
      throw new HttpError(400, 'invalid_cursor', 'cursor is not one this server issued to this account.');
    }
    return position.seq;
  }

  /** The list response body; `next_cursor` is present exactly when `has_more` is true. */
  protected toPageJson(account: string, page: WidgetPage): PageJson {
    const body: PageJson = { data: page.items.map((widget) => this.toJson(widget)), has_more: page.hasMore };
    if (page.hasMore && page.lastSeq !== undefined) {
      body.next_cursor = this.encodeCursor({ account, seq: page.lastSeq });
    }
    return body;
  }

  /** An opaque base64url cursor: an HMAC of the position followed by the position itself. */
  protected encodeCursor(position: CursorPosition): string {
    const payload = Buffer.from(JSON.stringify([position.account, position.seq]), 'utf8');
    return Buffer.concat([this.signCursor(payload), payload]).toString('base64url');
  }

  /** The position a cursor carries; undefined when it is malformed or its HMAC does not match. */
  protected decodeCursor(cursor: string): CursorPosition | undefined {
    const bytes = Buffer.from(cursor, 'base64url');
    // Buffer.from skips characters outside the alphabet; re-encoding rejects every
    // spelling but the one this server issued.
    if (bytes.toString('base64url') !== cursor) return undefined;
    if (bytes.length <= CURSOR_MAC_BYTES) return undefined;
    const payload = bytes.subarray(CURSOR_MAC_BYTES);
    if (!timingSafeEqual(bytes.subarray(0, CURSOR_MAC_BYTES), this.signCursor(payload))) return undefined;
    // The HMAC matched, so this server wrote the payload and its shape is known.
    const [account, seq] = JSON.parse(payload.toString('utf8')) as [string, number];
    return { account, seq };
  }

  /** The HMAC that authenticates a cursor payload. */
  protected signCursor(payload: Buffer): Buffer {
    return createHmac('sha256', this.cursorKey).update(payload).digest();
  }

  /** POST /v1/widgets: checks media type, size and shape of the body, then stores the widget. */
  protected async create(account: string, req: IncomingMessage): Promise<Reply> {
    if (!this.isJsonMediaType(req.headers['content-type'])) {
      throw new HttpError(415, 'unsupported_media_type', 'Content-Type must be application/json.');
    }
    const input = this.validateCreate(this.parseJson(await this.readBody(req)));
    const widget = this.store.create(account, input);
    return { status: 201, headers: { Location: this.widgetPath(widget.id) }, body: this.toJson(widget) };
  }

  /** Whether a Content-Type header names application/json, with any parameters. */
  protected isJsonMediaType(header: string | undefined): boolean {
    // RFC 9110 §8.3.1: the type and subtype are case-insensitive.
    return header?.split(';', 1)[0]?.trim().toLowerCase() === 'application/json';
  }

  /** The whole request body; throws 413 beyond `maxBodyBytes`. */
  protected readBody(req: IncomingMessage): Promise<Buffer> {
    if (Number(req.headers['content-length']) > this.maxBodyBytes) return Promise.reject(payloadTooLarge());
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let received = 0;
      req.on('data', (chunk: Buffer) => {
        received += chunk.length;
        // Past the limit the rest is still read, and dropped, so that the connection stays
        // usable and the client gets the 413 instead of a reset.
        if (received > this.maxBodyBytes) reject(payloadTooLarge());
        else chunks.push(chunk);
      });
      req.on('end', () => resolve(Buffer.concat(chunks)));
      req.on('error', () => reject(new HttpError(400, 'invalid_request', 'The request body could not be read.')));
    });
  }

  /** The JSON value of a body; throws 400 `invalid_json` when it is not UTF-8 JSON. */
  protected parseJson(body: Buffer): unknown {
    let text: string;
    try {
      text = UTF8.decode(body);
    } catch {
      throw new HttpError(400, 'invalid_json', 'The request body is not valid UTF-8.');
    }
    try {
      return JSON.parse(text);
    } catch {
      // JSON.parse messages quote the input, so they are not passed on.
      throw new HttpError(400, 'invalid_json', 'The request body is not valid JSON.');
    }
  }

  /** The create fields of a parsed body; throws 400 `invalid_request` for any other shape. */
  protected validateCreate(value: unknown): WidgetInput {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw invalidRequest('The request body must be a JSON object.');
    }
    const fields = value as Record<string, unknown>;
    if (!Object.hasOwn(fields, 'name')) throw invalidRequest('name is required.');
    if (typeof fields.name !== 'string') throw invalidRequest('name must be a string.');
    if (!Object.hasOwn(fields, 'description')) return { name: fields.name };
    if (typeof fields.description !== 'string') throw invalidRequest('description must be a string when present.');
    return { name: fields.name, description: fields.description };
  }

  /** GET /v1/widgets/{id}: the account's widget. */
  protected retrieve(account: string, id: string): Reply {
    const widget = this.store.get(account, id);
    if (widget === undefined) throw this.widgetNotFound();
    return { status: 200, body: this.toJson(widget) };
  }

  /** DELETE /v1/widgets/{id}: removes the account's widget, answering 204. */
  protected remove(account: string, id: string): Reply {
    if (!this.store.delete(account, id)) throw this.widgetNotFound();
    return { status: 204 };
  }

  /** The one answer for an id that never existed and for another account's widget alike. */
  protected widgetNotFound(): HttpError {
    return new HttpError(404, 'not_found', 'No widget with this id exists on this account.');
  }

  /** The path of a widget, as sent in `Location`. */
  protected widgetPath(id: string): string {
    return `${COLLECTION_PATH}/${encodeURIComponent(id)}`;
  }

  /** A stored widget as a response Widget; `description` is omitted when it was not given. */
  protected toJson(widget: StoredWidget): WidgetJson {
    const { id, name, description, created_at } = widget;
    return description === undefined ? { id, name, created_at } : { id, name, description, created_at };
  }

  /** Sends an operation's reply: JSON when it has a body, empty otherwise. */
  protected sendReply(res: ServerResponse, reply: Reply): void {
    if (reply.body === undefined) {
      res.writeHead(reply.status, reply.headers).end();
    } else {
      this.sendJson(res, reply.status, reply.body, reply.headers);
    }
  }

  /** Sends `body` as JSON with an exact Content-Length. */
  protected sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    const payload = JSON.stringify(body);
    res
      .writeHead(status, {
        ...headers,
        'Content-Type': JSON_CONTENT_TYPE,
        'Content-Length': String(Buffer.byteLength(payload)),
      })
      .end(payload);
  }

  /** Sends an Error object with the error's status and headers. */
  protected sendError(res: ServerResponse, requestId: string, error: HttpError): void {
    const body: ErrorJson = { code: error.code, message: error.message, request_id: requestId };
    this.sendJson(res, error.status, body, error.headers);
  }

  /** The HttpError to answer for anything thrown; unexpected errors become 500. */
  protected toHttpError(thrown: unknown): HttpError {
    if (thrown instanceof HttpError) return thrown;
    this.onUnexpectedError(thrown);
    return new HttpError(500, 'internal_error', 'The server failed to process the request.');
  }

  /** Reports an error the service did not expect; a bug in the server, never the client's doing. */
  protected onUnexpectedError(error: unknown): void {
    console.error('widget reference server: unexpected error', error);
  }

  /** A fresh id for a request, sent in `X-Request-Id` and in Error objects. */
  protected newRequestId(): string {
    return `req_${randomBytes(8).toString('hex')}`;
  }
}

function splitTarget(target: string): { path: string; query: URLSearchParams } {
  const mark = target.indexOf('?');
  if (mark === -1) return { path: target, query: new URLSearchParams() };
  return { path: target.slice(0, mark), query: new URLSearchParams(target.slice(mark + 1)) };
}

function singleParam(query: URLSearchParams, name: string, code: string): string | undefined {
  const values = query.getAll(name);
  // Repeating a parameter is ambiguous; picking one silently would hide a client bug.
  if (values.length > 1) throw new HttpError(400, code, `${name} must be given at most once.`);
  return values[0];
}

function methodNotAllowed(allow: string): HttpError {
  return new HttpError(405, 'method_not_allowed', `This path supports only ${allow}.`, { Allow: allow });
}

function invalidRequest(message: string): HttpError {
  return new HttpError(400, 'invalid_request', message);
}

function payloadTooLarge(): HttpError {
  return new HttpError(413, 'payload_too_large', 'The request body is too large.');
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function requirePositiveInteger(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  }
}
