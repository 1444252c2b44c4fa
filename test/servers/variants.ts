/**
 * Conformant variants: servers that make other valid choices than the reference (RULES.md,
 * "What a conformant implementation may choose"). The suite must pass each with no MUST failure.
 *
 * Together they span every choice of that list:
 *
 * | choice                                  | variants (reference in brackets)                                   |
 * |-----------------------------------------|--------------------------------------------------------------------|
 * | create status                           | 200: uuid…; 201: the others                                        |
 * | delete status                           | 200 with a body: sequential…; 202: sharded…; [204]: the others     |
 * | malformed body status                   | 422: uuid…; 400: the others                                        |
 * | auth failure status                     | 403 without challenge: uuid…; 401 with Bearer challenge: the others |
 * | unknown id status                       | 404; 400 for ids not in the server's format: sequential…, rate-limited…; 400 for every id the server did not issue to the account: strict… |
 * | id format                               | UUID, decimal sequence, [wgt_ hex], account-signed, ULID, base64 with "/" and "+" (behind Apache), free text with "%41", "?", "#", ";", " " and "\\", a case-sensitive base62 counter |
 * | list order                              | creation: uuid…, sharded… (per shard), rate-limited…, offset…; newest first: sequential…; random but stable: strict… |
 * | default / maximum limit                 | 5/100, 5/7, 10/100, 25/50, 3/1000, 3/3 [20/100]                    |
 * | over-maximum limit                      | rejected with 400: sequential…; clamped: the others                |
 * | pages shorter than limit                | sharded… (⌈limit/2⌉, shard boundaries, empty pages with has_more), sixteen-shards… (runs of empty pages) |
 * | next_cursor on the last page            | [absent]; null: sequential…; a string (for polling): sharded…      |
 * | cursor format                           | [HMAC'd base64url]; the last id: sequential…; ~300-char AES-GCM: sharded…; sort key: strict…; an offset: offset… |
 * | error code values                       | snake_case; SCREAMING_CASE: sequential…; dotted namespaces: rate-limited… |
 * | request_id                              | present; absent: sequential…                                       |
 * | extra fields                            | uuid… (every object), rate-limited… (Error objects)                |
 * | name / description limits               | strict… (name 1..64, description ≤ 256 code points, no control characters) |
 * | unsupported Content-Type                | [415]; tolerated (text/plain, none): sharded…                      |
 * | delete of an unknown or deleted id      | success: uuid…; error: the others                                  |
 * | created_at precision and offset         | [ms, Z]; µs with +02:00: sharded…; whole seconds, Z: rate-limited… |
 * | rate limiting                           | rate-limited… (every 7th request of each caller answers 429, Retry-After: 0) |
 * | bytes that are not UTF-8 in a body      | [400]; decoded with U+FFFD in their place and stored, as Express, hapi, gin and chi do: uuid… |
 *
 * Beyond the list: `Connection: close` on every response (strict…); plain offset pagination,
 * exactly-once only while nothing changes, since only PAGE-7 (a SHOULD) asks more (offset…);
 * Apache httpd in front, passing an encoded "/" through (`AllowEncodedSlashes NoDecode`:
 * base64…; its default, which answers an encoded "/" with its own 404, is a fault:
 * test/servers/faults/crud.ts base64-ids-behind-apache-default); one worker thread serving one
 * keep-alive connection at a time, where a request on a second connection waits until the first
 * closes (one-worker…: under the defaults the slots must find that one is all it serves, and no
 * request may wait out its timeout).
 *
 * Two variants hold the suite to fixes of false positives they once exposed: sixteen-shards…
 * (empty pages with a truthful has_more are pages shorter than the limit, not a walk that
 * makes no progress) and rate-limited… (a throttled request's retry goes out before any other
 * request, so it is not again the 7th; an unknown id made from a ULID is still a ULID).
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, ReferenceService, type PageJson, type Reply } from '../../src/reference/service.ts';
import { WidgetStore, type StoredWidget, type WidgetInput } from '../../src/reference/store.ts';
import type { TestServer } from './test-server.ts';
import { InspectableStore, offsetPaged, oneParam, SequenceStore, serve } from './support.ts';
import { apache, Base62CounterStore, Base64Store, FreeTextIdStore, oneWorker } from './deployments.ts';

export interface VariantCase {
  readonly name: string;
  readonly description: string;
  /**
   * The variant chooses nothing a SHOULD rule warns about, so every rule must pass: none failed,
   * warned or errored (a request that waited out its timeout errors its test).
   */
  readonly everyRulePasses?: true;
  make(): TestServer;
}

/** Adds fields the spec does not name to every object it sends. */
function withExtras(body: unknown): unknown {
  if (body === null || typeof body !== 'object') return body;
  const page = body as Partial<PageJson>;
  if (Array.isArray(page.data)) return { ...page, data: page.data.map((w) => ({ ...w, kind: 'widget', revision: 1 })), object: 'list' };
  return { ...body, kind: 'extra-field' };
}

// ---------------------------------------------------------------------------------------
// sequential ids, newest first, a hard maximum limit

const DECIMAL_ID = /^[1-9][0-9]{0,15}$/;

/** Newest first, `limit` at most 7 (larger ones refused), the last id as cursor, codes in SCREAMING_CASE, no request_id. */
class SequenceService extends ReferenceService {
  private readonly widgets: SequenceStore;

  constructor(store: SequenceStore) {
    super({ defaultLimit: 5, maxLimit: 7, store });
    this.widgets = store;
  }

  protected override list(account: string, query: URLSearchParams): Reply {
    const limit = this.parseLimit(oneParam(query, 'limit', 'invalid_limit'));
    const cursor = oneParam(query, 'cursor', 'invalid_cursor');
    if (cursor !== undefined && !DECIMAL_ID.test(cursor)) throw new HttpError(400, 'invalid_cursor', 'cursor must be the id of a widget from a previous page.');
    const before = cursor === undefined ? Number.POSITIVE_INFINITY : Number(cursor);
    const older = this.widgets.all(account).filter((w) => Number(w.id) < before).sort((a, b) => Number(b.id) - Number(a.id));
    const items = older.slice(0, limit);
    const hasMore = older.length > limit;
    return {
      status: 200,
      body: { data: items.map((w) => this.toJson(w)), has_more: hasMore, next_cursor: hasMore ? items.at(-1)!.id : null },
    };
  }

  protected override parseLimit(raw: string | undefined): number {
    if (raw === undefined) return this.defaultLimit;
    if (!/^[0-9]+$/.test(raw) || Number(raw) < 1) throw new HttpError(400, 'invalid_limit', 'limit must be a positive integer.');
    if (Number(raw) > this.maxLimit) throw new HttpError(400, 'limit_too_large', `limit must be at most ${this.maxLimit}.`);
    return Number(raw);
  }

  protected override retrieve(account: string, id: string): Reply {
    this.requireDecimalId(id);
    return super.retrieve(account, id);
  }

  protected override remove(account: string, id: string): Reply {
    this.requireDecimalId(id);
    const widget = this.widgets.get(account, id);
    if (widget === undefined || !this.widgets.delete(account, id)) throw this.widgetNotFound();
    return { status: 200, body: this.toJson(widget) };
  }

  private requireDecimalId(id: string): void {
    if (!DECIMAL_ID.test(id)) throw new HttpError(400, 'invalid_id', 'invalid id');
  }

  protected override toHttpError(thrown: unknown): HttpError {
    const error = super.toHttpError(thrown);
    return new HttpError(error.status, error.code.toUpperCase(), error.message, error.headers);
  }

  protected override sendError(res: ServerResponse, _requestId: string, error: HttpError): void {
    this.sendJson(res, error.status, { code: error.code, message: error.message }, error.headers);
  }
}

// ---------------------------------------------------------------------------------------
// sharded list with short pages, long encrypted cursors, lenient Content-Type

const OFFSET_MINUTES = 120;

/** RFC 3339 with microseconds in +02:00: 2026-01-01T12:00:00.123456+02:00. */
function microsecondsAtOffset(offsetMinutes: number): string {
  const micros = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  const millis = Math.floor(micros / 1000);
  const local = new Date(millis + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const fraction = String(micros % 1_000_000).padStart(6, '0');
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${local}.${fraction}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Widgets spread over shards by a hash of their id; created_at in the data centre's local time. */
class ShardedStore extends InspectableStore {
  readonly shards: number;

  constructor(shards: number) {
    super();
    this.shards = shards;
  }

  shardOf(id: string): number {
    return createHash('sha256').update(id).digest().readUInt32BE(0) % this.shards;
  }

  protected override now(): string {
    return microsecondsAtOffset(OFFSET_MINUTES);
  }

  /** Up to `max` widgets of one shard after `afterSeq`, and whether that shard holds more. */
  shardPage(account: string, shard: number, afterSeq: number, max: number): { items: StoredWidget[]; more: boolean } {
    const rest = this.all(account).filter((w) => this.shardOf(w.id) === shard && w.seq > afterSeq);
    return { items: rest.slice(0, max), more: rest.length > max };
  }

  /** Whether any shard after this one holds a widget of the account. */
  anyAfter(account: string, shard: number): boolean {
    return this.all(account).some((w) => this.shardOf(w.id) > shard);
  }
}

interface ShardPosition {
  account: string;
  shard: number;
  seq: number;
}

/**
 * A list that scans shard after shard: a page never crosses a shard boundary (so it ends
 * early, and is empty, with has_more true, for an empty shard followed by a non-empty one;
 * has_more is exact) and holds at most ⌈limit/2⌉ widgets. Cursors are AES-GCM encrypted, padded, ~300 characters; the last page also
 * carries one, for polling. created_at has microseconds and a +02:00 offset. Any
 * Content-Type is read as JSON. Delete answers 202.
 */
class ShardedService extends ReferenceService {
  private readonly widgets: ShardedStore;
  private readonly cursorCipherKey = randomBytes(32);

  constructor(store: ShardedStore) {
    super({ defaultLimit: 10, maxLimit: 100, store });
    this.widgets = store;
  }

  protected override list(account: string, query: URLSearchParams): Reply {
    const limit = this.parseLimit(oneParam(query, 'limit', 'invalid_limit'));
    const raw = oneParam(query, 'cursor', 'invalid_cursor');
    const at = raw === undefined ? { account, shard: 0, seq: 0 } : this.openCursor(raw);
    if (at === undefined || at.account !== account || at.shard >= this.widgets.shards) throw new HttpError(400, 'invalid_cursor', 'The cursor is not valid.');
    const { items, more } = this.widgets.shardPage(account, at.shard, at.seq, Math.ceil(limit / 2));
    const lastSeq = items.at(-1)?.seq ?? at.seq;
    let next: ShardPosition;
    let hasMore: boolean;
    if (more) [next, hasMore] = [{ account, shard: at.shard, seq: lastSeq }, true];
    else if (this.widgets.anyAfter(account, at.shard)) [next, hasMore] = [{ account, shard: at.shard + 1, seq: 0 }, true];
    else [next, hasMore] = [{ account, shard: at.shard, seq: lastSeq }, false];
    return { status: 200, body: { data: items.map((w) => this.toJson(w)), has_more: hasMore, next_cursor: this.sealCursor(next) } };
  }

  private sealCursor(position: ShardPosition): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.cursorCipherKey, iv);
    const plain = JSON.stringify({ v: 1, a: position.account, s: position.shard, q: position.seq, p: randomBytes(96).toString('base64') });
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  }

  private openCursor(cursor: string): ShardPosition | undefined {
    const bytes = Buffer.from(cursor, 'base64url');
    if (bytes.toString('base64url') !== cursor || bytes.length < 29) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.cursorCipherKey, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      const plain = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
      const { a, s, q } = JSON.parse(plain) as { a: string; s: number; q: number };
      return { account: a, shard: s, seq: q };
    } catch {
      return undefined;
    }
  }

  protected override isJsonMediaType(): boolean {
    return true; // the body is parsed as JSON whatever the Content-Type says, if any
  }

  protected override remove(account: string, id: string): Reply {
    if (!this.widgets.delete(account, id)) throw this.widgetNotFound();
    return { status: 202 };
  }
}

// ---------------------------------------------------------------------------------------
// account-signed ids, strict input limits, random stable order, Connection: close

const SIGNED_ID = /^wd_([0-9a-f]{20})([0-9a-f]{12})$/;

/** Ids that carry an HMAC of the owning account: `wd_` + 20 random hex digits + 12 hex digits of MAC. */
class SignedIdStore extends InspectableStore {
  private readonly idKey = randomBytes(32);
  private creatingFor = '';

  override create(account: string, input: WidgetInput): StoredWidget {
    this.creatingFor = account;
    return super.create(account, input);
  }

  protected override randomId(): string {
    const random = randomBytes(10).toString('hex');
    return `wd_${random}${this.mac(this.creatingFor, random)}`;
  }

  /** Whether the id is one this server issued to this account. */
  issuedTo(account: string, id: string): boolean {
    const m = SIGNED_ID.exec(id);
    return m !== null && timingSafeEqual(Buffer.from(m[2]!), Buffer.from(this.mac(account, m[1]!)));
  }

  private mac(account: string, random: string): string {
    return createHmac('sha256', this.idKey).update(`${account}\0${random}`).digest('hex').slice(0, 12);
  }
}

const NAME_MAX = 64;
const DESCRIPTION_MAX = 256;
const CONTROL = /\p{Cc}/u;
const SORT_CURSOR = /^k1\.([0-9a-f]{64})$/;

/**
 * Names of 1..64 and descriptions of at most 256 code points without control characters;
 * ids signed for their account, so any id the server did not issue to the caller is a 400
 * and only a deleted one a 404; a random but stable order (by a keyed hash of the id) with
 * the sort key as cursor; limit clamped to 50; every response closes the connection.
 */
class StrictService extends ReferenceService {
  private readonly widgets: SignedIdStore;
  private readonly orderKey = randomBytes(32);

  constructor(store: SignedIdStore) {
    super({ defaultLimit: 25, maxLimit: 50, store });
    this.widgets = store;
  }

  override async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('Connection', 'close');
    await super.handle(req, res);
  }

  protected override validateCreate(value: unknown): WidgetInput {
    const input = super.validateCreate(value);
    const nameLength = [...input.name].length;
    if (nameLength < 1 || nameLength > NAME_MAX) throw new HttpError(400, 'validation_failed', `name must be 1 to ${NAME_MAX} characters.`);
    if (CONTROL.test(input.name)) throw new HttpError(400, 'validation_failed', 'name must not contain control characters.');
    if (input.description !== undefined) {
      if ([...input.description].length > DESCRIPTION_MAX) throw new HttpError(400, 'validation_failed', `description must be at most ${DESCRIPTION_MAX} characters.`);
      if (CONTROL.test(input.description)) throw new HttpError(400, 'validation_failed', 'description must not contain control characters.');
    }
    return input;
  }

  private sortKey(id: string): string {
    return createHmac('sha256', this.orderKey).update(id).digest('hex');
  }

  protected override list(account: string, query: URLSearchParams): Reply {
    const limit = this.parseLimit(oneParam(query, 'limit', 'invalid_limit'));
    const raw = oneParam(query, 'cursor', 'invalid_cursor');
    let after = '';
    if (raw !== undefined) {
      const m = SORT_CURSOR.exec(raw);
      if (m === null) throw new HttpError(400, 'invalid_cursor', 'The cursor is not valid.');
      after = m[1]!;
    }
    const rest = this.widgets
      .all(account)
      .map((w) => ({ w, key: this.sortKey(w.id) }))
      .filter((e) => e.key > after)
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const items = rest.slice(0, limit);
    const hasMore = rest.length > limit;
    const body: PageJson = { data: items.map((e) => this.toJson(e.w)), has_more: hasMore };
    if (hasMore) body.next_cursor = `k1.${items.at(-1)!.key}`;
    return { status: 200, body };
  }

  protected override retrieve(account: string, id: string): Reply {
    this.requireIssued(account, id);
    return super.retrieve(account, id);
  }

  protected override remove(account: string, id: string): Reply {
    this.requireIssued(account, id);
    return super.remove(account, id);
  }

  private requireIssued(account: string, id: string): void {
    if (!this.widgets.issuedTo(account, id)) throw new HttpError(400, 'invalid_id', 'This is not a widget id of this account.');
  }
}

// ---------------------------------------------------------------------------------------
// ULIDs, rate limiting, whole-second timestamps

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/i;

/** ULIDs (48-bit time, 80 random bits, Crockford base32) and created_at in whole seconds. */
class UlidStore extends WidgetStore {
  protected override randomId(): string {
    let time = Date.now();
    let head = '';
    for (let i = 0; i < 10; i += 1) {
      head = CROCKFORD[time % 32]! + head;
      time = Math.floor(time / 32);
    }
    const tail = [...randomBytes(16)].map((b) => CROCKFORD[b % 32]).join('');
    return head + tail;
  }

  protected override now(): string {
    return `${new Date().toISOString().slice(0, 19)}Z`;
  }
}

/** Every RATE_EVERY-th request of a caller (by Authorization header) is refused with 429 and Retry-After: 0. */
const RATE_EVERY = 7;

/**
 * A gateway in front that sheds every 7th request of each caller with 429 and
 * `Retry-After: 0`; ULIDs, validated (a malformed one is 400, a well-formed unknown one
 * 404); created_at in whole seconds; codes as dotted namespaces; Error objects carry extra
 * fields (status, docs_url); default limit 3.
 */
class RateLimitedService extends ReferenceService {
  private readonly seen = new Map<string, number>();
  /** Refusals per run, for whoever inspects the server. */
  refused = 0;

  constructor() {
    super({ defaultLimit: 3, maxLimit: 1000, store: new UlidStore() });
  }

  override async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const caller = req.headers.authorization ?? '';
    const count = (this.seen.get(caller) ?? 0) + 1;
    this.seen.set(caller, count);
    if (count % RATE_EVERY === 0) {
      this.refused += 1;
      req.resume();
      this.sendJson(res, 429, { code: 'gateway.rate_limited', message: 'Too many requests; retry after the delay in Retry-After.', status: 429 }, { 'Retry-After': '0' });
      return;
    }
    await super.handle(req, res);
  }

  protected override retrieve(account: string, id: string): Reply {
    this.requireUlid(id);
    return super.retrieve(account, id);
  }

  protected override remove(account: string, id: string): Reply {
    this.requireUlid(id);
    return super.remove(account, id);
  }

  private requireUlid(id: string): void {
    if (!ULID.test(id)) throw new HttpError(400, 'invalid_id', 'The widget id is not a ULID.');
  }

  protected override sendError(res: ServerResponse, requestId: string, error: HttpError): void {
    this.sendJson(
      res,
      error.status,
      { code: `widgets.${error.code}`, message: error.message, request_id: requestId, status: error.status, docs_url: `https://docs.example.invalid/errors#${error.code}` },
      error.headers,
    );
  }
}

export const VARIANTS: readonly VariantCase[] = [
  {
    name: 'uuid-200-422-403-idempotent-delete-extras-limit-5',
    description: 'UUID ids, 200 on create, 422 for malformed bodies, 403 for bad credentials, delete always 204, extra fields everywhere, default limit 5, bytes that are not UTF-8 stored as U+FFFD',
    make: () => serve(new (class extends ReferenceService {
      // As Express's body parser (and hapi, gin, chi): bad bytes become U+FFFD, and FMT-4's
      // non-UTF-8 name is stored; the run must still delete that widget and leave nothing behind.
      protected override parseJson(body: Buffer): unknown {
        try {
          return JSON.parse(body.toString('utf8'));
        } catch {
          throw new HttpError(400, 'invalid_json', 'The request body is not valid JSON.');
        }
      }
      protected override toHttpError(thrown: unknown): HttpError {
        const error = super.toHttpError(thrown);
        if (error.status === 400 && (error.code === 'invalid_request' || error.code === 'invalid_json')) return new HttpError(422, error.code, error.message);
        if (error.status === 401) return new HttpError(403, 'forbidden', 'Access denied.');
        return error;
      }
      protected override async create(account: string, req: IncomingMessage): Promise<Reply> {
        return { ...(await super.create(account, req)), status: 200 };
      }
      protected override remove(account: string, id: string): Reply {
        this.store.delete(account, id);
        return { status: 204 };
      }
      protected override sendJson(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
        super.sendJson(res, status, withExtras(body), headers);
      }
    })({
      defaultLimit: 5,
      store: new (class extends WidgetStore {
        protected override randomId(): string { return randomUUID(); }
      })(),
    })),
  },
  {
    name: 'sequential-ids-newest-first-max-limit-7-rejected',
    description:
      'decimal ids from one sequence, never reused; newest first with the last id as keyset cursor; default limit 5, limit over 7 refused with 400; ' +
      'next_cursor null on the last page; delete answers 200 with the deleted Widget, 404 for an unknown id; 400 "invalid id" for an id that is not decimal, ' +
      '404 for a well-formed unknown one; Error codes in SCREAMING_CASE and no request_id',
    make: () => serve(new SequenceService(new SequenceStore())),
  },
  {
    name: 'sharded-short-pages-sealed-cursors-offset-micros-lenient-202',
    description:
      'pages of at most ⌈limit/2⌉ widgets that end at the boundaries of 3 internal shards (an empty shard before a non-empty one gives an empty page with has_more true); ' +
      '~300-character AES-GCM cursors, one even on the last page; created_at with microseconds and +02:00; ' +
      'any or no Content-Type read as JSON; delete answers 202, 404 for an unknown id; default limit 10',
    make: () => serve(new ShardedService(new ShardedStore(3))),
  },
  {
    name: 'sixteen-shards-runs-of-empty-pages',
    description:
      'the sharded variant with 16 shards: a walk meets runs of up to 15 empty pages in a row, each with an exact has_more true and a fresh cursor, ' +
      'and always ends within (widgets + 15) pages',
    make: () => serve(new ShardedService(new ShardedStore(16))),
  },
  {
    name: 'strict-limits-signed-ids-random-order-connection-close',
    description:
      'names of 1..64 and descriptions of at most 256 code points without control characters, else 400; ids signed for their account ' +
      '(any id not issued to the caller is 400, a deleted one 404); random but stable order with sort-key cursors; limit clamped to 50, default 25; ' +
      'Connection: close on every response',
    make: () => serve(new StrictService(new SignedIdStore())),
  },
  {
    name: 'rate-limited-ulid-whole-seconds',
    description:
      'every 7th request of each caller answered 429 with Retry-After: 0; ULID ids, 400 for an id that is not a ULID, 404 for an unknown ULID; ' +
      'created_at in whole seconds; Error codes namespaced ("widgets.not_found") with extra fields; default limit 3, limit clamped to 1000',
    make: () => serve(new RateLimitedService()),
  },
  {
    name: 'base64-ids-behind-apache-nodecode',
    description:
      'standard base64 ids, each holding "/" and "+" (q3/9Zk+uT0aB8w/x), behind Apache httpd with AllowEncodedSlashes NoDecode: ' +
      'an encoded "/" reaches the backend as %2F and its router decodes the id\'s segment',
    make: () => serve(apache(new ReferenceService({ store: new Base64Store() }), 'NoDecode')),
  },
  {
    name: 'free-text-ids',
    description: 'ids in several scripts holding a literal percent escape ("%41"), "?", "#", ";", a space and a backslash ("Ωmega ü-50%41?#;\\…"), each sent percent-encoded as one segment',
    make: () => serve(new ReferenceService({ store: new FreeTextIdStore() })),
  },
  {
    name: 'base62-counter-ids',
    description: 'ids from a base62 counter ("a", …, "A", …, "10"), case-sensitive: one run is given ids that differ only in case, each its own widget',
    make: () => serve(new ReferenceService({ store: new Base62CounterStore() })),
  },
  {
    name: 'one-worker-keep-alive',
    description: 'the reference behind one worker thread that serves one keep-alive connection at a time, each request taking 2 to 6 ms of it: a request on another connection waits until the one being served closes',
    // 2-6 ms, not a web app's 20-50: a run sends about 2,600 requests one after another here. A
    // server this near gets 4 slots at once and must find, from its first stall, that it serves
    // one (the slow start from one slot is tested at 20-50 ms in simulated time:
    // test/unit/http/concurrency.test.ts).
    everyRulePasses: true,
    make: () => serve(oneWorker(new ReferenceService(), () => 2 + Math.random() * 4)),
  },
  {
    name: 'offset-pagination-oldest-first-max-3',
    description: 'oldest first with plain offset cursors and limits clamped to 3, so every walk spans many pages: exactly-once in a quiet account, not under concurrent writes (only PAGE-7, a SHOULD, asks for that)',
    make: () => serve(offsetPaged({ order: 'oldest-first', defaultLimit: 3, maxLimit: 3 })),
  },
];
