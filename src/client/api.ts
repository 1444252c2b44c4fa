/**
 * The Widget Service operations (§4) on top of the HTTP client, bound to one account's token.
 * Every create answered 2xx is claimed in the run's ownership ledger, and a delete is sent only
 * with proof from the server that the widget at that id is the suite's own (see ownership.ts).
 */
import { TokenRejectedError, UnprovenDeleteError, UnsafeIdError } from '../errors.ts';
import { DELETE_WITH_PROOF, type ApiResponse, type HttpClient } from '../http/client.ts';
import { unsafeSegment, type Ownership } from './ownership.ts';
import { TokenSource } from './token-source.ts';

/** Overrides the Authorization header of one request; `null` sends none. */
export interface AuthOverride {
  readonly authorization: string | null;
  /** Query parameters to add (e.g. a token sent as access_token). */
  readonly query?: Readonly<Record<string, string>>;
}

export interface ListQuery {
  readonly limit?: number | string;
  readonly cursor?: string;
  /** Extra query parameters (e.g. a token sent in the query string). */
  readonly extra?: Readonly<Record<string, string>>;
  /**
   * A body over the cap is answered with its prefix (flagged `truncated`) instead of a transport
   * error. Only list walks ask for it: they judge the prefix (PAGE-1 counts its complete items)
   * and end as "not a page"; a single list elsewhere (the probe, FMT checks) must not take a cut
   * body for one that is not JSON.
   */
  readonly keepPrefix?: boolean;
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
  /** Throws to refuse a create before it is sent (once the run is cancelled, nothing new may be created). */
  readonly beforeCreate?: () => void;
  /** Runs each create and delete (see QuietGate: walks that must see everything wait for them). */
  readonly write?: <T>(send: () => Promise<T>) => Promise<T>;
  /**
   * Told once the target refuses the account's own token after accepting it (the run ends with
   * exit 2). The account itself sends nothing more with that token; the worker also stops its
   * whole client here, while the runner's cleanup goes on with the other account.
   */
  readonly onTokenRejected?: (message: string) => void;
}

/** The id of a response body as the suite addresses it: a string, or an integer written in decimal. */
export function idOf(body: unknown): string | undefined {
  const id = body !== null && typeof body === 'object' ? (body as { id?: unknown }).id : undefined;
  if (typeof id === 'string') return id;
  return Number.isSafeInteger(id) ? String(id) : undefined;
}

const is2xx = (status: number): boolean => status >= 200 && status < 300;
const is4xx = (status: number): boolean => status >= 400 && status < 500;

/** One account's view of the service. */
export class WidgetApi {
  private readonly source: TokenSource;
  /** Set once the target refused this account's token for good: no request is sent with it again. */
  private refusedBecause: string | undefined;

  constructor(
    readonly http: HttpClient,
    /** A fixed token, or one a --token-command renews (see checkToken). */
    token: string | TokenSource,
    /** "primary" or "second": which account, for messages and the ownership ledger. */
    readonly account: string,
    /** The run's ledger of ids the suite holds, shared by every account. */
    readonly ownership: Ownership,
    private readonly hooks: ApiHooks = {},
    /** Every account of the run by name (this one included), for proofs across accounts. */
    private readonly peers: Map<string, WidgetApi> = new Map(),
  ) {
    peers.set(account, this);
    this.source = typeof token === 'string' ? new TokenSource(token) : token;
  }

  private headers(auth: AuthOverride | undefined, extra: Record<string, string> = {}, token = this.source.token): Record<string, string> {
    const authorization = auth ? auth.authorization : `Bearer ${token}`;
    return authorization === null ? extra : { ...extra, authorization };
  }

  /** The Authorization value this account sends (for building variants of it in auth tests). */
  get bearer(): string {
    return `Bearer ${this.source.token}`;
  }

  /** The path of one widget: the id as one percent-encoded segment, or UnsafeIdError. */
  private widgetPath(id: string, method: string): string {
    const unsafe = unsafeSegment(id);
    if (unsafe) throw new UnsafeIdError(`${method} /widgets/{id} not sent for the id ${JSON.stringify(id.slice(0, 80))}: ${unsafe}`, `never sent in a path: ${unsafe}`);
    return `/widgets/${encodeURIComponent(id)}`;
  }

  /** GET /widgets (§4.1); with the account's own token, every held id on the page is a sighting. */
  async list(query: ListQuery = {}, auth?: AuthOverride): Promise<ApiResponse> {
    const q: Record<string, string> = { ...query.extra, ...auth?.query };
    if (query.limit !== undefined) q.limit = String(query.limit);
    if (query.cursor !== undefined) q.cursor = query.cursor;
    const prefixOverCap = query.keepPrefix === true;
    const res = await this.authed(auth, 'GET /widgets', (token) => this.http.request('GET', '/widgets', { query: q, headers: this.headers(auth, {}, token), prefixOverCap }));
    const data = (res.json as { data?: unknown } | undefined)?.data;
    if (!auth && is2xx(res.status) && Array.isArray(data)) {
      for (const item of data) {
        const id = idOf(item);
        if (id !== undefined) this.ownership.saw(this.account, id, item);
      }
    }
    return res;
  }

  /** POST /widgets (§4.2); a 2xx answer with an id claims it in the ledger (a claim, not proof). */
  async create(body: unknown, opts: CreateOptions = {}): Promise<ApiResponse> {
    const contentType = opts.contentType === undefined ? 'application/json' : opts.contentType;
    const extra: Record<string, string> = contentType === null ? {} : { 'content-type': contentType };
    const raw = opts.raw ?? JSON.stringify(body);
    this.hooks.beforeCreate?.();
    const res = await this.authed(opts.auth, 'POST /widgets', (token) =>
      this.writing(() => this.http.request('POST', '/widgets', { headers: this.headers(opts.auth, extra, token), body: raw, ...(opts.auth?.query ? { query: opts.auth.query } : {}) })),
    );
    const id = is2xx(res.status) ? idOf(res.json) : undefined;
    if (id !== undefined) {
      this.ownership.claim(this.account, id);
      const unsafe = unsafeSegment(id);
      if (unsafe) this.ownership.failed(this.account, id, `never sent in a path: ${unsafe}`);
    }
    return res;
  }

  /** GET /widgets/{id} (§4.3); with the account's own token, the answer is a sighting of the id. */
  async retrieve(id: string, auth?: AuthOverride): Promise<ApiResponse> {
    const path = this.widgetPath(id, 'GET');
    const res = await this.authed(auth, `GET ${path}`, (token) => this.http.request('GET', path, { headers: this.headers(auth, {}, token), ...(auth?.query ? { query: auth.query } : {}) }));
    if (!auth) {
      if (is2xx(res.status)) this.ownership.saw(this.account, id, idOf(res.json) === id ? res.json : undefined);
      else if (is4xx(res.status)) this.ownership.sawAbsent(this.account, id);
    }
    return res;
  }

  /**
   * DELETE /widgets/{id} (§4.4), sent only with proof that it cannot touch a widget the suite
   * did not create (see proveDeletable); otherwise UnprovenDeleteError and nothing is sent.
   */
  async remove(id: string, auth?: AuthOverride): Promise<ApiResponse> {
    const path = this.widgetPath(id, 'DELETE');
    await this.proveDeletable(id);
    const res = await this.authed(auth, `DELETE ${path}`, (token) =>
      this.writing(() => this.http.request('DELETE', path, { headers: this.headers(auth, {}, token), ...(auth?.query ? { query: auth.query } : {}), proof: DELETE_WITH_PROOF })),
    );
    if (!auth && is2xx(res.status)) this.ownership.deleted(this.account, id);
    return res;
  }

  /**
   * A method the spec does not define (MAL-5) on /widgets, or on a widget proven the suite's own
   * (as for a delete): sent as a write, since a faulty server may act on it, and any id a 2xx
   * answer names is claimed for the cleanup.
   */
  async sendUndefinedMethod(method: 'POST' | 'PUT' | 'PATCH', id: string | undefined, body: unknown): Promise<ApiResponse> {
    const path = id === undefined ? '/widgets' : this.widgetPath(id, method);
    if (id !== undefined) await this.proveDeletable(id);
    const res = await this.authed(undefined, `${method} ${path}`, (token) =>
      this.writing(() => this.http.request(method, path, { headers: this.headers(undefined, { 'content-type': 'application/json' }, token), body: JSON.stringify(body) })),
    );
    const made = is2xx(res.status) ? idOf(res.json) : undefined;
    if (made !== undefined && made !== id) this.ownership.claim(this.account, made);
    return res;
  }

  /** True when the server shows, now, the suite's marker at the id in this account. */
  async provenNow(id: string): Promise<boolean> {
    return this.ownership.proven(this.account, id) || this.showsMarker(await this.retrieve(id), id);
  }

  private showsMarker(res: ApiResponse, id: string): boolean {
    return is2xx(res.status) && idOf(res.json) === id && this.ownership.isOurs(res.json);
  }

  /**
   * A delete sent with this account's credentials may act only on the suite's own widget: the
   * id must carry the run marker in this account's view, or name nothing in it (a retrieve
   * answered 4xx) while being an id the suite made up or holds, proven, in another account.
   */
  private async proveDeletable(id: string): Promise<void> {
    if (this.ownership.proven(this.account, id)) return;
    const res = await this.retrieve(id);
    if (this.showsMarker(res, id)) return;
    if (is4xx(res.status)) {
      if (this.ownership.isMadeUp(id)) return;
      for (const account of this.ownership.claimants(id)) {
        const peer = account === this.account ? undefined : this.peers.get(account);
        if (peer && (await peer.provenNow(id))) return;
      }
    }
    const why = is2xx(res.status)
      ? 'a retrieve shows a widget without the run marker at this id: not proven the suite\'s own, so not deleted'
      : `the server never showed the run marker at this id (a retrieve answered ${res.status}): not proven the suite's own, so not deleted`;
    throw new UnprovenDeleteError(`DELETE /widgets/${JSON.stringify(id.slice(0, 80))} not sent (${this.account} account): ${why}`, why);
  }

  /**
   * A 401 or 403 to the account's own token after the target accepted it: a 403 may be the
   * server's answer for another account's widget, so a list with the same token decides.
   * When that is refused too, the token stopped working: a setup problem, never a verdict.
   */
  private async checkToken(res: ApiResponse, auth: AuthOverride | undefined, request: string, token: string): Promise<'accepted' | 'refused'> {
    if (auth || (res.status !== 401 && res.status !== 403)) return 'accepted';
    const list = request === 'GET /widgets' ? res : await this.http.request('GET', '/widgets', { headers: this.headers(undefined, {}, token) });
    return list.status === 401 || list.status === 403 ? 'refused' : 'accepted';
  }

  /**
   * Sends with the account's current token; on a confirmed refusal (checkToken) a token
   * command renews the token and the request is sent once more (a refused request was not
   * applied). Refused again, or with no way to renew, the run ends (exit 2).
   */
  private async authed(auth: AuthOverride | undefined, request: string, send: (token: string) => Promise<ApiResponse>): Promise<ApiResponse> {
    // A token refused for good is not sent again: each further request would only be refused too.
    if (!auth && this.refusedBecause !== undefined) throw new TokenRejectedError(`${request} not sent: ${this.refusedBecause}`);
    const token = this.source.token;
    const res = await send(token);
    if ((await this.checkToken(res, auth, request, token)) === 'accepted') return res;
    let renewed: string | undefined;
    try {
      renewed = await this.source.renewed(token);
    } catch (error) {
      this.tokenRejected(`the target stopped accepting the ${this.account} account's token during the run (${request} answered ${res.status}), and renewing it failed: ${(error as Error).message}`);
    }
    if (renewed !== undefined) {
      const again = await send(renewed);
      if ((await this.checkToken(again, auth, request, renewed)) === 'accepted') return again;
      this.tokenRejected(`the target stopped accepting the ${this.account} account's token during the run: ${request} answered ${res.status}, and ${again.status} again with the token the command renewed`);
    }
    // No renewal left: say so, or a run with a command would read as one without.
    const renewals = this.source.renewals;
    const spent = renewals === undefined ? '' : `, after the token command had renewed the token ${renewals} time(s), the most a run allows`;
    this.tokenRejected(`the target stopped accepting the ${this.account} account's token during the run: ${request} answered ${res.status}${request === 'GET /widgets' ? '' : ', and a list with the same token was refused too'}${spent}`);
  }

  private tokenRejected(message: string): never {
    this.refusedBecause ??= message;
    this.hooks.onTokenRejected?.(message);
    throw new TokenRejectedError(message);
  }

  private writing(send: () => Promise<ApiResponse>): Promise<ApiResponse> {
    return this.hooks.write ? this.hooks.write(send) : send();
  }
}
