/**
 * The Widget Service operations (§4) on top of the HTTP client, bound to one account's token.
 * Every successful create and delete is reported to the run's hooks, so whatever the suite
 * creates is known and deleted at the end.
 */
import type { ApiResponse, HttpClient } from './http/client.ts';

/** Overrides the Authorization header of one request; `null` sends none. */
export interface AuthOverride {
  readonly authorization: string | null;
}

export interface ListQuery {
  readonly limit?: number | string;
  readonly cursor?: string;
  /** Extra query parameters (e.g. a token sent in the query string). */
  readonly extra?: Readonly<Record<string, string>>;
}

export interface CreateOptions {
  readonly auth?: AuthOverride;
  /** The Content-Type header; `null` sends none. Defaults to application/json. */
  readonly contentType?: string | null;
  /** A raw body sent as it is, instead of the JSON of `body`. */
  readonly raw?: string;
}

/** What the run hooks into every account's writes. */
export interface ApiHooks {
  /** Called for every create answered 2xx with an id: the widget is registered for cleanup. */
  readonly onCreated?: (account: WidgetApi, id: string) => void;
  /** Called for every delete answered 2xx with the account's own token. */
  readonly onDeleted?: (account: WidgetApi, id: string) => void;
  /** Throws to refuse a create before it is sent (once the run is cancelled, nothing new may be created). */
  readonly beforeCreate?: () => void;
  /** Runs each create and delete (see QuietGate: walks that must see everything wait for them). */
  readonly write?: <T>(send: () => Promise<T>) => Promise<T>;
}

/** One account's view of the service. */
export class WidgetApi {
  constructor(
    readonly http: HttpClient,
    private readonly token: string,
    /** "primary" or "second": which account, for messages. */
    readonly account: string,
    private readonly hooks: ApiHooks = {},
  ) {}

  private headers(auth: AuthOverride | undefined, extra: Record<string, string> = {}): Record<string, string> {
    const authorization = auth ? auth.authorization : `Bearer ${this.token}`;
    return authorization === null ? extra : { ...extra, authorization };
  }

  /** The Authorization value this account sends (for building variants of it in auth tests). */
  get bearer(): string {
    return `Bearer ${this.token}`;
  }

  /** GET /widgets (§4.1). */
  list(query: ListQuery = {}, auth?: AuthOverride): Promise<ApiResponse> {
    const q: Record<string, string> = { ...query.extra };
    if (query.limit !== undefined) q.limit = String(query.limit);
    if (query.cursor !== undefined) q.cursor = query.cursor;
    return this.http.request('GET', '/widgets', { query: q, headers: this.headers(auth) });
  }

  /** POST /widgets (§4.2); a 2xx answer with an id registers the widget for cleanup. */
  async create(body: unknown, opts: CreateOptions = {}): Promise<ApiResponse> {
    const contentType = opts.contentType === undefined ? 'application/json' : opts.contentType;
    const headers = this.headers(opts.auth, contentType === null ? {} : { 'content-type': contentType });
    const raw = opts.raw ?? JSON.stringify(body);
    this.hooks.beforeCreate?.();
    const res = await this.writing(() => this.http.request('POST', '/widgets', { headers, body: raw }));
    const id = (res.json as { id?: unknown } | undefined)?.id;
    if (res.status >= 200 && res.status < 300 && typeof id === 'string' && id !== '') this.hooks.onCreated?.(this, id);
    return res;
  }

  /** GET /widgets/{id} (§4.3). */
  retrieve(id: string, auth?: AuthOverride): Promise<ApiResponse> {
    return this.http.request('GET', `/widgets/${encodeURIComponent(id)}`, { headers: this.headers(auth) });
  }

  /** DELETE /widgets/{id} (§4.4); a 2xx answer with this account's own token unregisters the widget. */
  async remove(id: string, auth?: AuthOverride): Promise<ApiResponse> {
    const res = await this.writing(() => this.http.request('DELETE', `/widgets/${encodeURIComponent(id)}`, { headers: this.headers(auth) }));
    if (!auth && res.status >= 200 && res.status < 300) this.hooks.onDeleted?.(this, id);
    return res;
  }

  private writing(send: () => Promise<ApiResponse>): Promise<ApiResponse> {
    return this.hooks.write ? this.hooks.write(send) : send();
  }
}
