/**
 * What a walk keeps of each page: a server may pad every page to the body cap with fields no
 * check reads, and a walk may take thousands of pages, so a page is reduced, as it arrives, to
 * the facts the checks use. Verdicts stay those of the page as received: the page schema is
 * checked on the whole body before it is reduced, and every value a check inspects keeps its
 * JSON type.
 */
import type { ApiResponse } from '../http/client.ts';
import type { Exchange, RecordedRequest } from '../shared/exchange.ts';
import { placeholder } from './walk-exchanges.ts';
import { checkSchema, type SchemaIssue } from '../schema.ts';
import { countPrefixItems, type PrefixCount } from '../http/json-prefix.ts';

/** The Widget fields a page item keeps (spec §2); any other field is dropped. */
export const KEPT_WIDGET_FIELDS = ['id', 'name', 'description', 'created_at'] as const;
/** Characters of a cursor kept for messages; the walk still sends the whole cursor. */
export const MAX_STORED_CURSOR_CHARS = 1024;
/** Schema issues kept per page: the first ones show what is wrong; the count says how many more. */
export const MAX_KEPT_ISSUES = 50;
/** Characters kept of an item that is a bare string instead of a Widget (it fails the schema either way). */
const MAX_STRAY_STRING_CHARS = 200;

/** A page's answer as a walk keeps it: everything a check reads, nothing a server padded it with. */
export interface PageResponse {
  readonly status: number;
  /** Why the body is not JSON, when it is not. */
  readonly jsonError?: string;
  /**
   * The body reduced to `data` (its items reduced to the Widget fields), `has_more` and
   * `next_cursor` (cut at MAX_STORED_CURSOR_CHARS), each only when present; undefined when the
   * body is not JSON. Arrays and objects a check only types are kept as empty shells.
   */
  readonly json: unknown;
  /** The page schema's issues with the whole body as received (at most MAX_KEPT_ISSUES). */
  readonly schemaIssues: readonly SchemaIssue[];
  /** How many schema issues there were in all. */
  readonly schemaIssueCount: number;
  /** For a body over the cap (read only up to it): the items its prefix shows complete (PAGE-1 judges them). */
  readonly prefix?: PrefixCount;
  /** The recorded exchange, or a placeholder when the walk did not keep it (see walk-exchanges.ts). */
  readonly exchange: Exchange;
}

const NO_ISSUES: readonly SchemaIssue[] = Object.freeze([]);

/** An empty value of the same JSON type: what a type check needs of a value nobody reads. */
export function shell(value: unknown): unknown {
  if (Array.isArray(value)) return [];
  if (value !== null && typeof value === 'object') return {};
  return value;
}

/** A cursor cut for storage: still a non-empty string when it was one. */
export function storedCursor(cursor: string): string {
  return cursor.length > MAX_STORED_CURSOR_CHARS ? `${cursor.slice(0, MAX_STORED_CURSOR_CHARS)}…` : cursor;
}

/**
 * A page item reduced to the Widget fields: strings kept whole (the checks compare them),
 * other values as shells of their type. An item that is no object keeps its type too.
 */
export function compactItem(item: unknown): unknown {
  if (typeof item === 'string') return item.length > MAX_STRAY_STRING_CHARS ? item.slice(0, MAX_STRAY_STRING_CHARS) : item;
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return shell(item);
  const out: Record<string, unknown> = {};
  for (const field of KEPT_WIDGET_FIELDS) {
    if (!Object.hasOwn(item, field)) continue;
    const value = (item as Record<string, unknown>)[field];
    out[field] = typeof value === 'string' ? value : shell(value);
  }
  return out;
}

/** The body reduced to what the checks read (see PageResponse.json). */
export function compactBody(json: unknown): unknown {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return compactItem(json);
  const body = json as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (Object.hasOwn(body, 'data')) out.data = Array.isArray(body.data) ? body.data.map(compactItem) : shell(body.data);
  if (Object.hasOwn(body, 'has_more')) out.has_more = shell(body.has_more);
  if (Object.hasOwn(body, 'next_cursor')) out.next_cursor = typeof body.next_cursor === 'string' ? storedCursor(body.next_cursor) : shell(body.next_cursor);
  return out;
}

/** A page's answer reduced, before the walk decides whether it keeps the exchange. */
export type ReducedAnswer = Omit<PageResponse, 'exchange'>;

/** A page's answer reduced as it arrives: the schema checked on the whole body, then the body reduced. */
export function compactResponse(res: ApiResponse): ReducedAnswer {
  const { issues, total } = res.json === undefined ? { issues: NO_ISSUES, total: 0 } : checkSchema('page', res.json, MAX_KEPT_ISSUES);
  return {
    status: res.status,
    ...(res.jsonError === undefined ? {} : { jsonError: res.jsonError }),
    json: res.json === undefined ? undefined : compactBody(res.json),
    schemaIssues: total === 0 ? NO_ISSUES : issues,
    schemaIssueCount: total,
    ...(res.truncated ? { prefix: countPrefixItems(res.text) } : {}),
  };
}

/** The redacted URL a walk requested a page with, from the cursor it sent. */
export type RequestUrl = (cursor: string | undefined) => string;

/**
 * A page's answer as a walk keeps it. An exchange the walk does not keep is not stored at
 * all: a walk may have tens of thousands of pages, and a placeholder (request line, status,
 * a note) is rebuilt only when a message asks for it.
 */
export class PageAnswer implements PageResponse {
  readonly status: number;
  readonly jsonError?: string;
  readonly json: unknown;
  readonly schemaIssues: readonly SchemaIssue[];
  readonly schemaIssueCount: number;
  readonly prefix?: PrefixCount;
  private kept: Exchange | undefined;
  private readonly durationMs: number;

  /** The request as recorded, kept for an exact replay once the exchange went (absent past the walk's request budget). */
  private readonly request: RecordedRequest | undefined;

  constructor(
    reduced: ReducedAnswer,
    exchange: Exchange,
    kept: Exchange | undefined,
    private readonly requestUrl: RequestUrl,
    private readonly cursor: string | undefined,
    request?: RecordedRequest,
  ) {
    this.status = reduced.status;
    if (reduced.jsonError !== undefined) this.jsonError = reduced.jsonError;
    this.json = reduced.json;
    this.schemaIssues = reduced.schemaIssues;
    this.schemaIssueCount = reduced.schemaIssueCount;
    if (reduced.prefix !== undefined) this.prefix = reduced.prefix;
    this.kept = kept;
    this.request = request;
    this.durationMs = exchange.durationMs;
  }

  /** The recorded exchange, or its placeholder once the walk let it go. */
  get exchange(): Exchange {
    return this.kept ?? placeholder(this.request ?? { method: 'GET', url: this.requestUrl(this.cursor) }, this.status, this.durationMs);
  }

  /** Lets the recorded exchange go (the page left the walk's window of kept exchanges). */
  drop(): void {
    this.kept = undefined;
  }
}
