/**
 * The Widget Service operations (§4) on top of the HTTP client, bound to one account's token.
 * Every write goes through the ledger's door (door.ts): a create is journalled before it is sent
 * and claimed when answered 2xx; a delete, or a write to a widget, is sent only right after a
 * retrieve of the id that proves the widget the suite's own (see ownership.ts and ledger.ts).
 * Long because every request of an account passes here, and each operation keeps its ledger,
 * token renewal and profile observation together where one reading shows the whole path.
 */
import { CollectionWriteRefused, RateLimitError, TokenRejectedError, TransportError, UnprovenDeleteError, UnsafeIdError } from '../errors.ts';
import { idText } from '../schema.ts';
import type { ApiResponse, HttpClient, WritePass } from '../http/client.ts';
import { deleteVerdict, type DeleteFacts, type RetrieveShows, type SecondDeleteFacts } from './ledger.ts';
import type { Ownership } from './ownership.ts';
import { unsafeSegment } from './safe-ids.ts';
import { ledgerFacts, openCreate, retrieveShows, sendProven, type CreateTicket, type ProvenOutcome } from './door.ts';
import { TokenSource } from './token-source.ts';
import type { Observation, Unsent } from '../shared/observation.ts';
import type { ApiHooks, AuthOverride, CreateOptions, ListQuery, SecondDelete } from './api-options.ts';
import { createSituation, credentialSituation, idSituation, listSituation } from './situation.ts';

export type { ApiHooks, AuthOverride, CreateOptions, ListQuery, SecondDelete } from './api-options.ts';

/** Cursors remembered as issued, so a cursor the server never gave is told apart (a bound: the memory is the suite's). */
const MAX_ISSUED_CURSORS = 4096;

/**
 * The name or description a create sends, cut short, for the journal: what names the widget when
 * its answer is lost. The field carrying the run marker when one does (PROP-1's generated names,
 * an empty one among them, carry it in the description), else the name, else the description.
 */
function tagOf(body: unknown, isOurs: (widget: unknown) => boolean): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const { name, description } = body as { name?: unknown; description?: unknown };
  const texts = [name, description].filter((v): v is string => typeof v === 'string');
  const text = texts.find((v) => isOurs({ name: v })) ?? texts[0];
  return text?.slice(0, 200);
}

/** The id of a response body as the suite addresses it: a string, or an integer written in decimal. */
export function idOf(body: unknown): string | undefined {
  return idText(body !== null && typeof body === 'object' ? (body as { id?: unknown }).id : undefined);
}

const is2xx = (status: number): boolean => status >= 200 && status < 300;
const is4xx = (status: number): boolean => status >= 400 && status < 500;

/** One account's view of the service. */
export class WidgetApi {
  private readonly source: TokenSource;
  /** Set once the target refused this account's token for good: no request is sent with it again. */
  private refusedBecause: string | undefined;
  /** next_cursor values this account's lists were given. */
  private readonly issued = new Set<string>();
  /** Creates whose answer repeated an id the run held (see repeatOf). */
  private readonly repeats = new WeakMap<ApiResponse, 'collided' | 'reused'>();

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
    const situation = credentialSituation(auth, this.bearer.slice('Bearer '.length)) ?? listSituation(q.limit, q.cursor, this.issued);
    const res = await this.authed(auth, 'GET /widgets', (token) => this.http.request('GET', '/widgets', { query: q, headers: this.headers(auth, {}, token), prefixOverCap }));
    this.observe('list', situation, res, { ...(q.limit === undefined ? {} : { limit: q.limit }), ...(q.cursor === undefined ? {} : { paged: true }) });
    const next = (res.json as { next_cursor?: unknown } | undefined)?.next_cursor;
    if (!auth && typeof next === 'string' && this.issued.size < MAX_ISSUED_CURSORS) this.issued.add(next);
    const data = (res.json as { data?: unknown } | undefined)?.data;
    if (!auth && is2xx(res.status) && Array.isArray(data)) {
      const onPage = new Set<string>();
      for (const item of data) {
        const id = idOf(item);
        if (id === undefined) continue;
        if (onPage.has(id)) this.ownership.listedTwice(this.account, id);
        onPage.add(id);
        this.ownership.saw(this.account, id, item, 'list');
      }
    }
    return res;
  }

  /**
   * Whether this create's answer gave an id the run already held in the account: `collided`
   * while the earlier widget at it was live (CRUD-3), `reused` after it was deleted (DEL-2).
   */
  repeatOf(res: ApiResponse): 'collided' | 'reused' | undefined {
    return this.repeats.get(res);
  }

  /** POST /widgets (§4.2); a 2xx answer with an id claims it in the ledger (a claim, not proof). */
  async create(body: unknown, opts: CreateOptions = {}): Promise<ApiResponse> {
    const contentType = opts.contentType === undefined ? 'application/json' : opts.contentType;
    const extra: Record<string, string> = contentType === null ? {} : { 'content-type': contentType };
    const raw = opts.raw ?? JSON.stringify(body);
    this.hooks.beforeCreate?.();
    // Bytes that are not text (FMT-4's) are no situation of the profile's: not observed.
    const kind = this.hooks.observe && typeof raw !== 'object' ? createSituation(raw ?? '', contentType) : undefined;
    // Journalled by the door just before it is sent (not when a refused token keeps it from
    // being sent), whatever the body: a create whose answer is lost is known to be lost.
    let ticket: CreateTicket | undefined;
    let res: ApiResponse;
    try {
      res = await this.authed(opts.auth, 'POST /widgets', (token) => {
        const door = (ticket ??= openCreate(this.ownership, this.account, tagOf(body, this.ownership.isOurs)));
        return this.writing(() => door.send('POST', '/widgets', (pass) => this.http.request('POST', '/widgets', { headers: this.headers(opts.auth, extra, token), ...(raw === undefined ? {} : { body: raw }), ...(opts.auth?.query ? { query: opts.auth.query } : {}), pass })));
      });
    } catch (error) {
      // What the run recorded, said as it is: a create never sent (the client stopped, the
      // deadline) or answered 429/503 at every try made nothing, so it is not a create that lost
      // its answer; every other failure leaves it pending (lost), as a widget may exist.
      if (ticket !== undefined && ((error instanceof TransportError && !error.sent) || error instanceof RateLimitError)) {
        this.ownership.refused(this.account, ticket.key, error instanceof RateLimitError ? (error.status ?? 429) : 0);
      }
      throw error;
    }
    const key = ticket?.key;
    if (kind) this.observe('create', credentialSituation(opts.auth, this.bearer.slice('Bearer '.length)) ?? kind.situation, res, 'sent' in kind ? { sent: kind.sent } : {});
    const id = is2xx(res.status) ? idOf(res.json) : undefined;
    if (id !== undefined) {
      const before = this.ownership.get(this.account, id);
      if (before) this.repeats.set(res, before.deleted ? 'reused' : 'collided');
      this.ownership.claim(this.account, id, key, res.json).answeredUnmarked = !this.ownership.isOurs(res.json);
      const unsafe = unsafeSegment(id);
      if (unsafe) this.ownership.failed(this.account, id, `never sent in a path: ${unsafe}`);
    } else if (!is2xx(res.status) && key !== undefined) {
      this.ownership.refused(this.account, key, res.status);
    }
    // A 2xx without a usable id stays pending: a widget may exist that the run cannot name.
    return res;
  }

  /** GET /widgets/{id} (§4.3); with the account's own token, the answer is a sighting of the id. */
  async retrieve(id: string, auth?: AuthOverride): Promise<ApiResponse> {
    const path = this.widgetPath(id, 'GET');
    const situation = credentialSituation(auth, this.bearer.slice('Bearer '.length)) ?? idSituation(this.ownership, this.account, id);
    const res = await this.authed(auth, `GET ${path}`, (token) => this.http.request('GET', path, { headers: this.headers(auth, {}, token), ...(auth?.query ? { query: auth.query } : {}) }));
    this.observe('retrieve', situation, res, { id });
    if (!auth) {
      if (is2xx(res.status)) this.ownership.saw(this.account, id, idOf(res.json) === id ? res.json : undefined, 'retrieve');
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
    let situation: string | undefined;
    // The write slot (WalkGate) is taken first, so that nothing holds the DELETE back once the door's retrieve is answered.
    const res = await this.authed(auth, `DELETE ${path}`, async (token) =>
      this.writing(() =>
        this.provenWrite(id, 'DELETE', path, (pass) => {
          situation ??= credentialSituation(auth, this.bearer.slice('Bearer '.length)) ?? idSituation(this.ownership, this.account, id);
          return this.http.request('DELETE', path, { headers: this.headers(auth, {}, token), ...(auth?.query ? { query: auth.query } : {}), pass });
        }),
      ),
    );
    this.observe('delete', situation ?? 'valid', res, { id });
    if (!auth && is2xx(res.status)) this.ownership.deleted(this.account, id);
    return res;
  }

  /**
   * A second DELETE of an id this account already deleted (the profile's "second delete of the
   * same id"; DEL-3 judges it: the id names no widget now). A server may give a freed id to
   * another widget, so it goes out only under the delete rule's one exception for it (ledger.ts
   * secondDeleteVerdict): inside a window in which no write of the suite is in flight, after a
   * retrieve in that window answered 404 or 410 (any other answer is not taken for "nothing
   * there"). Otherwise nothing is sent, the profile notes why, and the reason is returned.
   */
  async removeAgain(id: string): Promise<SecondDelete> {
    const path = this.widgetPath(id, 'DELETE');
    const window = this.hooks.quiet;
    // The facts the ledger holds first: no request is spent on a delete that could not go out anyway.
    const before = deleteVerdict(this.secondDeleteFacts(id, 'absent', window !== undefined));
    let outcome: SecondDelete;
    if (!before.send) outcome = { notSent: before.reason };
    else if (!window) outcome = { notSent: 'no window without writes of the suite' };
    else outcome = await window(() => this.secondDeleteInWindow(id, path));
    if ('notSent' in outcome) this.notSent({ op: 'delete', situation: 'after-delete', reason: outcome.notSent });
    return outcome;
  }

  /** Inside the quiet window: the ledger's facts again, the retrieve, the rule with what it showed, and the DELETE when the rule says so. */
  private async secondDeleteInWindow(id: string, path: string): Promise<SecondDelete> {
    // What the writes just drained may have taught the ledger (an id given twice) is asked again first.
    const drained = deleteVerdict(this.secondDeleteFacts(id, 'absent', true));
    if (!drained.send) return { notSent: drained.reason };
    const situation = idSituation(this.ownership, this.account, id);
    // Through the door like every write: its retrieve (only 404 or 410 counts as nothing there),
    // the rule with the second delete's facts, then the DELETE in the same turn. Not through
    // `writing`: this is the window's own write, the one it holds every other back for.
    try {
      const response = await this.authed(undefined, `DELETE ${path}`, (token) =>
        this.provenWrite(id, 'DELETE', path, (pass) => this.http.request('DELETE', path, { headers: this.headers(undefined, {}, token), pass }), true),
      );
      this.observe('delete', situation, response, { id });
      return { response };
    } catch (error) {
      if (error instanceof UnprovenDeleteError) return { notSent: error.reason };
      throw error;
    }
  }

  private secondDeleteFacts(id: string, retrieve: RetrieveShows, quiet: boolean): DeleteFacts {
    const claim = this.ownership.get(this.account, id);
    const again: SecondDeleteFacts = {
      deletedOnce: claim?.deleted === true && claim.creates === 1,
      heldNothingBefore: this.ownership.heldNothingBefore(this.account),
      idsUnreliable: this.ownership.reissued || this.ownership.repeated || this.ownership.anyContradiction(this.account),
      quiet,
    };
    return { journalled: claim !== undefined, preExisting: this.ownership.preExisting(this.account, id), contradiction: this.ownership.contradiction(this.account, id), retrieve, absentHereProvenElsewhere: false, again };
  }

  /** Tells the profile that a request of this kind was not sent, and why (see Unsent); never throws. */
  notSent(unsent: Unsent): void {
    try {
      this.hooks.unsent?.(unsent);
    } catch {
      // Recording must never change what a check sees.
    }
  }

  /** What a retrieve with this account's token shows at the id now, read by the door (door.ts retrieveShows): never an earlier proof. */
  private async shows(id: string): Promise<RetrieveShows> {
    return retrieveShows(this.ownership, this.account, id, await this.retrieve(id));
  }

  /**
   * A method the spec does not define (MAL-5) on a widget proven the suite's own (as for a
   * delete, through the door), or on /widgets only when the run was given
   * --allow-collection-writes (`collectionWrites`): sent as a write, since a faulty server may
   * act on it. On the collection it is journalled like a create, and any id a 2xx answer names
   * is claimed for the cleanup.
   */
  async sendUndefinedMethod(method: 'POST' | 'PUT' | 'PATCH', id: string | undefined, body: unknown, collectionWrites = false): Promise<ApiResponse> {
    const headers = (token: string): Record<string, string> => this.headers(undefined, { 'content-type': 'application/json' }, token);
    if (id !== undefined) {
      const path = this.widgetPath(id, method);
      const res = await this.authed(undefined, `${method} ${path}`, (token) => this.writing(() => this.provenWrite(id, method, path, (pass) => {
        // Sent: a server that applies it may show the widget changed from now on (MAL-5 judges that, not the ledger).
        this.ownership.wrote(this.account, id);
        return this.http.request(method, path, { headers: headers(token), body: JSON.stringify(body), pass });
      })));
      // A faulty server may have made a widget: any other id a 2xx answer names is claimed for the cleanup.
      const made = is2xx(res.status) ? idOf(res.json) : undefined;
      if (made !== undefined && made !== id) this.ownership.claim(this.account, made, undefined, res.json);
      return res;
    }
    // On the collection, a server could take PUT or PATCH for "replace or change them all", and
    // no list proves an account empty (a list may hide widgets): only on the user's word.
    if (!collectionWrites) throw new CollectionWriteRefused(method);
    let ticket: CreateTicket | undefined;
    const res = await this.authed(undefined, `${method} /widgets`, (token) => {
      const door = (ticket ??= openCreate(this.ownership, this.account, tagOf(body, this.ownership.isOurs)));
      return this.writing(() => door.send(method, '/widgets', (pass) => this.http.request(method, '/widgets', { headers: headers(token), body: JSON.stringify(body), pass })));
    });
    const made = is2xx(res.status) ? idOf(res.json) : undefined;
    if (made !== undefined) this.ownership.claim(this.account, made, ticket?.key, res.json);
    else if (!is2xx(res.status) && ticket) this.ownership.refused(this.account, ticket.key, res.status);
    return res;
  }

  /** True when the server shows, now, the suite's marker at the id in this account (a fresh retrieve). */
  async provenNow(id: string): Promise<boolean> {
    return (await this.shows(id)) === 'marked';
  }

  /** Whether this account's own create answered the id and the delete rule would let this account delete it now (a fresh retrieve); the rule's reason when not. */
  async deletableHere(id: string): Promise<{ readonly send: boolean; readonly reason?: string }> {
    if (!this.ownership.journalled(this.account, id)) return { send: false };
    const verdict = deleteVerdict(ledgerFacts(this.ownership, this.account, id, await this.shows(id)));
    return verdict.send ? { send: true } : { send: false, reason: verdict.reason };
  }

  /**
   * A write to one widget through the door (door.ts sendProven): a fresh retrieve of the id in
   * the id's turn, the delete rule (ledger.ts deleteVerdict) on it and the ledger's facts, then
   * the write at once. When this account shows nothing at the id (or the marked widget of an id
   * another account's create answered), the rule may rest on that account's own fresh proof, or
   * on the id being one the suite made up. Otherwise UnprovenDeleteError and nothing is sent.
   */
  private async provenWrite(id: string, method: string, path: string, send: (pass: WritePass) => Promise<ApiResponse>, again = false): Promise<ApiResponse> {
    const outcome: ProvenOutcome = await sendProven(this.ownership, {
      account: this.account,
      id,
      method,
      path,
      retrieve: () => this.retrieve(id),
      ...(again ? { strictAbsent: true } : {}),
      extra: async (shows, base) => {
        // The second delete's exception (removeAgain) rests on facts of its own, never on another account.
        if (again) return { again: this.secondDeleteFacts(id, shows, true).again! };
        const otherAccounts = shows === 'absent' || (shows === 'marked' && !base.journalled);
        if (!otherAccounts || base.preExisting || base.contradiction !== undefined) return {};
        let elsewhere = shows === 'absent' && this.ownership.isMadeUp(id);
        let refusedThere: { account: string; reason: string } | undefined;
        for (const account of this.ownership.claimants(id)) {
          const peer = account === this.account ? undefined : this.peers.get(account);
          if (elsewhere || !peer) continue;
          const there = await peer.deletableHere(id);
          elsewhere = there.send;
          if (!there.send && there.reason !== undefined) refusedThere ??= { account, reason: there.reason };
        }
        return { absentHereProvenElsewhere: elsewhere, ...(!elsewhere && refusedThere ? { refusedElsewhere: refusedThere } : {}) };
      },
      send,
    });
    if ('response' in outcome) return outcome.response;
    const { reason, broken } = outcome.refused;
    throw new UnprovenDeleteError(`${method} /widgets/${JSON.stringify(id.slice(0, 80))} not sent (${this.account} account): ${reason}`, reason, broken, { id, account: this.account });
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
      this.tokenRejected(`the target stopped accepting the ${this.account} account's token during the run (${request} answered ${res.status}), and renewing it failed: ${(error as Error).message}`, res);
    }
    if (renewed !== undefined) {
      const again = await send(renewed);
      if ((await this.checkToken(again, auth, request, renewed)) === 'accepted') return again;
      this.tokenRejected(`the target stopped accepting the ${this.account} account's token during the run: ${request} answered ${res.status}, and ${again.status} again with the token the command renewed`, again);
    }
    // No renewal left: say so, or a run with a command would read as one without.
    const renewals = this.source.renewals;
    const spent = renewals === undefined ? '' : `, after the token command had renewed the token ${renewals} time(s), the most a run allows`;
    this.tokenRejected(`the target stopped accepting the ${this.account} account's token during the run: ${request} answered ${res.status}${request === 'GET /widgets' ? '' : ', and a list with the same token was refused too'}${spent}`, res);
  }

  private tokenRejected(message: string, res?: ApiResponse): never {
    this.refusedBecause ??= message;
    this.hooks.onTokenRejected?.(message);
    throw new TokenRejectedError(message, res ? { status: res.status, ...serverMessage(res) } : undefined);
  }

  private observe(op: Observation['op'], situation: string, res: ApiResponse, extra: { limit?: string; paged?: boolean; sent?: unknown; id?: string } = {}): void {
    const observe = this.hooks.observe;
    if (!observe) return;
    try {
      observe({ op, situation, status: res.status, headers: res.headers, json: res.json, ...(res.jsonError === undefined ? {} : { jsonError: res.jsonError }), exchange: res.exchange, ...extra });
    } catch {
      // Recording must never change what a check sees.
    }
  }

  private writing(send: () => Promise<ApiResponse>): Promise<ApiResponse> {
    return this.hooks.write ? this.hooks.write(send) : send();
  }
}

/** The message a refusal carried: the Error object's message, or the start of a body that is not one. */
function serverMessage(res: ApiResponse): { message?: string } {
  const json = res.json as { message?: unknown; error?: unknown } | undefined;
  const said = typeof json?.message === 'string' ? json.message : typeof json?.error === 'string' ? json.error : res.text.trim();
  const flat = said.replace(/\s+/g, ' ').trim();
  return flat === '' ? {} : { message: flat.length > 200 ? `${flat.slice(0, 200)}…` : flat };
}
