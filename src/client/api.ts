/**
 * The Widget Service operations (§4) on top of the HTTP client, bound to one account's token.
 * Every write goes through the ledger's door (door.ts): a create is journalled before it is sent
 * and claimed when answered 2xx; a delete, or a write to a widget, is sent only right after a
 * retrieve of the id that proves the widget the suite's own (see ownership.ts and ledger.ts).
 * Each job beside the operations has its module: the token and its renewal (token-guard.ts), the
 * cursors lists were given (cursors.ts), what the profile records (observe.ts), the second
 * delete's exception (second-delete.ts).
 */
import { CollectionWriteRefused, RateLimitError, TransportError, UnprovenDeleteError, UnsafeIdError } from '../errors.ts';
import { idText } from '../schema.ts';
import type { ApiResponse, HttpClient, Reader } from '../http/client.ts';
import { isGone } from './ledger.ts';
import type { Ownership } from './ownership.ts';
import { unsafeSegment } from './safe-ids.ts';
import type { CreateTicket, Credential, Door, WidgetWrite } from './door.ts';
import type { TokenSource } from './token-source.ts';
import type { Unsent } from '../shared/observation.ts';
import type { ApiHooks, AuthOverride, CreateOptions, ListQuery, SecondDelete } from './api-options.ts';
import { createSituation, credentialSituation, idSituation, listSituation } from './situation.ts';
import { TokenGuard } from './token-guard.ts';
import { IssuedCursors } from './cursors.ts';
import { ProfileObserver } from './observe.ts';
import { removeAgain } from './second-delete.ts';

export type { ApiHooks, AuthOverride, CreateOptions, ListQuery, SecondDelete } from './api-options.ts';

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

/** One account's view of the service. */
export class WidgetApi {
  private readonly tokens: TokenGuard;
  /** next_cursor values this account's lists were given. */
  private readonly issued = new IssuedCursors();
  private readonly observer: ProfileObserver;
  /** Creates whose answer repeated an id the run held (see repeatOf). */
  private readonly repeats = new WeakMap<ApiResponse, 'collided' | 'reused' | 'overlapped'>();
  /** The run's one door for writes (door.ts): private, so holding an account lets no one write around it. */
  readonly #door: Door;

  constructor(
    readonly http: HttpClient,
    /** A fixed token, or one a --token-command renews (token-guard.ts). */
    token: string | TokenSource,
    /** "primary" or "second": which account, for messages and the ownership ledger. */
    readonly account: string,
    /** The run's ledger of ids the suite holds, shared by every account. */
    readonly ownership: Ownership,
    /** The ledger's door, opened with the client (accounts.ts openAccounts). */
    door: Door,
    private readonly hooks: ApiHooks = {},
  ) {
    this.#door = door;
    this.tokens = new TokenGuard(token, account, hooks.onTokenRejected);
    this.observer = new ProfileObserver(hooks);
  }

  private headers(auth: AuthOverride | undefined, extra: Record<string, string> = {}, token = this.tokens.token): Record<string, string> {
    const authorization = auth ? auth.authorization : `Bearer ${token}`;
    return authorization === null ? extra : { ...extra, authorization };
  }

  /** The credential a write carries: the override's, or this account's own with `token`. */
  private credential(auth: AuthOverride | undefined, token: string): Credential {
    if (!auth) return { authorization: `Bearer ${token}` };
    return { authorization: auth.authorization, ...(auth.query ? { query: auth.query } : {}) };
  }

  /** The Authorization value this account sends (for building variants of it in auth tests). */
  get bearer(): string {
    return `Bearer ${this.tokens.token}`;
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
    if (!auth) this.issued.note((res.json as { next_cursor?: unknown } | undefined)?.next_cursor);
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
   * while the earlier widget at it was live (CRUD-3), `reused` after it was deleted (DEL-2),
   * `overlapped` while its DELETE was on the wire unanswered (either, and the client cannot tell which).
   */
  repeatOf(res: ApiResponse): 'collided' | 'reused' | 'overlapped' | undefined {
    return this.repeats.get(res);
  }

  /** POST /widgets (§4.2); a 2xx answer with an id claims it in the ledger (a claim, not proof). */
  async create(body: unknown, opts: CreateOptions = {}): Promise<ApiResponse> {
    const contentType = opts.contentType === undefined ? 'application/json' : opts.contentType;
    const raw = opts.raw ?? JSON.stringify(body);
    this.hooks.beforeCreate?.();
    // Bytes that are not text (FMT-4's) are no situation of the profile's: not observed.
    const kind = this.observer.recording && typeof raw !== 'object' ? createSituation(raw ?? '', contentType) : undefined;
    // Journalled by the door just before it is sent (not when a refused token keeps it from
    // being sent), whatever the body: a create whose answer is lost is known to be lost.
    let ticket: CreateTicket | undefined;
    let res: ApiResponse;
    try {
      res = await this.authed(opts.auth, 'POST /widgets', (token) => {
        const door = (ticket ??= this.#door.openCreate(this.account, tagOf(body, this.ownership.isOurs)));
        return this.writing(() => door.send({ credential: this.credential(opts.auth, token), contentType, ...(raw === undefined ? {} : { body: raw }), ...(opts.accept === undefined ? {} : { accept: opts.accept }) }));
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
      if (before) this.repeats.set(res, before.deleted ? 'reused' : this.ownership.deleteOnWire(this.account, id) ? 'overlapped' : 'collided');
      this.ownership.claim(this.account, id, key, res.json);
      const unsafe = unsafeSegment(id);
      if (unsafe) this.ownership.unsendable(this.account, id, unsafe);
    } else if (!is2xx(res.status) && key !== undefined) {
      this.ownership.refused(this.account, key, res.status);
    }
    // A 2xx without a usable id stays pending: a widget may exist that the run cannot name.
    return res;
  }

  /**
   * GET /widgets/{id} (§4.3); with the account's own token, the answer is a sighting of the id.
   * `via`: the lane of a proven write, whose slot the door holds (door.ts).
   */
  async retrieve(id: string, auth?: AuthOverride, via: Reader = this.http): Promise<ApiResponse> {
    const path = this.widgetPath(id, 'GET');
    const situation = credentialSituation(auth, this.bearer.slice('Bearer '.length)) ?? idSituation(this.ownership, this.account, id);
    // Deleted (its DELETE answered 2xx) before this retrieve went out: a 404 or 410 now proves it gone, as the cleanup's own retrieve would.
    const deletedBefore = !auth && this.ownership.get(this.account, id)?.deleted === true;
    const res = await this.authed(auth, `GET ${path}`, (token) => via.request('GET', path, { headers: this.headers(auth, {}, token), ...(auth?.query ? { query: auth.query } : {}) }), via);
    this.observe('retrieve', situation, res, { id });
    if (!auth) {
      // A 2xx body that is no widget (none, not JSON, no id) shows nothing at the id; another id's widget is one without the marker here.
      if (is2xx(res.status)) {
        if (idOf(res.json) === undefined) this.ownership.sawUnreadable(this.account, id);
        else this.ownership.saw(this.account, id, idOf(res.json) === id ? res.json : undefined, 'retrieve');
        // Another id's widget shown here (a router that reads ids leniently, or by a segment): a widget stands at that id too.
        if (idOf(res.json) !== undefined && idOf(res.json) !== id) this.ownership.shownAt(this.account, idOf(res.json)!);
      } else if (isGone(res.status)) {
        this.ownership.sawAbsent(this.account, id);
        if (deletedBefore) this.ownership.provenGone(this.account, id);
      }
    }
    return res;
  }

  /**
   * A retrieve of the account's own widget that is also the proof of its delete (door.ts judge):
   * `judge` reads the answer as soon as it comes; unless it throws (then nothing is deleted, and
   * the error is the caller's), the delete rule decides on that answer and the DELETE leaves on the
   * same slot. One request fewer than a retrieve and a delete, each with its proof.
   */
  async retrieveThenRemove(id: string, judge: (retrieved: ApiResponse) => void): Promise<{ readonly retrieved: ApiResponse; readonly removed: ApiResponse | UnprovenDeleteError }> {
    let retrieved: ApiResponse | undefined;
    try {
      const removed = await this.remove(id, undefined, (res) => {
        retrieved = res;
        judge(res);
      });
      return { retrieved: retrieved!, removed };
    } catch (error) {
      if (!(error instanceof UnprovenDeleteError)) throw error;
      // The rule refused before any retrieve (an earlier write to the id lost its answer): the caller's is sent now.
      if (retrieved === undefined) {
        retrieved = await this.retrieve(id);
        judge(retrieved);
      }
      return { retrieved, removed: error };
    }
  }

  /**
   * DELETE /widgets/{id} (§4.4), sent only with proof that it cannot touch a widget the suite
   * did not create (door.ts write); otherwise UnprovenDeleteError and nothing is sent. `judge`
   * reads the proof's retrieve first (retrieveThenRemove).
   */
  async remove(id: string, auth?: AuthOverride, judge?: (proof: ApiResponse) => void): Promise<ApiResponse> {
    const path = this.widgetPath(id, 'DELETE');
    let situation: string | undefined;
    // From the DELETE's send to its answer recorded, a create answered with this id is no proof of two live widgets (Ownership.deleteSent).
    let onWire = 0;
    try {
      // The write slot (WalkGate) is taken first, so that nothing holds the DELETE back once the door's retrieve is answered.
      const res = await this.authed(auth, `DELETE ${path}`, async (token) =>
        this.writing(() =>
          this.provenWrite({
            account: this.account,
            id,
            method: 'DELETE',
            ...(auth ? { credential: this.credential(auth, token) } : {}),
            onSend: () => {
              situation ??= credentialSituation(auth, this.bearer.slice('Bearer '.length)) ?? idSituation(this.ownership, this.account, id);
              if (!auth) {
                this.ownership.deleteSent(this.account, id);
                onWire += 1;
              }
            },
            ...(judge ? { judge } : {}),
          }),
        ),
      );
      this.observe('delete', situation ?? 'valid', res, { id });
      if (!auth && is2xx(res.status)) this.ownership.deleted(this.account, id);
      return res;
    } finally {
      for (; onWire > 0; onWire -= 1) this.ownership.deleteSettled(this.account, id);
    }
  }

  /**
   * DELETE of `target`, an id no create answered that extends this account's own widget's id
   * `base` (DEL-4: `31-x` beside `31`), aimed at that widget alone: sent only on fresh proofs of
   * the widget and of the exact id, when a lookup that reads ids leniently could reach no other
   * widget the run knows (door.ts, ledger.ts extensionVerdict); otherwise UnprovenDeleteError.
   */
  async removeExtension(base: string, target: string): Promise<ApiResponse> {
    const path = this.widgetPath(target, 'DELETE');
    const res = await this.authed(undefined, `DELETE ${path}`, () => this.writing(() => this.provenWrite({ account: this.account, id: target, method: 'DELETE', extends: base })));
    this.observe('delete', 'extended-id', res, { id: target });
    return res;
  }

  /** A second DELETE of an id this account already deleted (second-delete.ts): its answer, or why it was not sent. */
  async removeAgain(id: string): Promise<SecondDelete> {
    const path = this.widgetPath(id, 'DELETE');
    return removeAgain({
      id,
      before: (quiet) => this.#door.secondDeleteBefore(this.account, id, quiet),
      window: this.hooks.quiet,
      // Not through `writing`: this is the window's own write, the one it holds every other back for.
      send: () => this.authed(undefined, `DELETE ${path}`, () => this.provenWrite({ account: this.account, id, method: 'DELETE', again: true })),
      situation: () => idSituation(this.ownership, this.account, id),
      observer: this.observer,
    });
  }

  /** Tells the profile that a request of this kind was not sent, and why (see Unsent); never throws. */
  notSent(unsent: Unsent): void {
    this.observer.notSent(unsent);
  }

  /**
   * A method the spec does not define (MAL-5) on a widget proven the suite's own (as for a
   * delete, through the door), or on /widgets only when the run's settings allow collection
   * writes (--allow-collection-writes, read by the door when it was opened): sent as a write,
   * since a faulty server may act on it. On the collection it is journalled like a create, and
   * any id a 2xx answer names is claimed for the cleanup. `judge` reads the owner's retrieve the
   * proof of a write to a widget makes, first (as for `remove`).
   */
  async sendUndefinedMethod(method: 'POST' | 'PUT' | 'PATCH', id: string | undefined, body: unknown, judge?: (proof: ApiResponse) => void): Promise<ApiResponse> {
    if (id !== undefined) {
      const path = this.widgetPath(id, method);
      const res = await this.authed(undefined, `${method} ${path}`, () => this.writing(() => this.provenWrite({
        account: this.account,
        id,
        method,
        body,
        // Sent: a server that applies it may show the widget changed from now on (MAL-5 judges that, not the ledger).
        onSend: () => this.ownership.wrote(this.account, id),
        ...(judge ? { judge } : {}),
      })));
      // A faulty server may have made a widget: any other id a 2xx answer names is claimed for the cleanup.
      const made = is2xx(res.status) ? idOf(res.json) : undefined;
      if (made !== undefined && made !== id) this.ownership.claim(this.account, made, undefined, res.json);
      return res;
    }
    // On the collection, a server could take PUT or PATCH for "replace or change them all", and
    // no list proves an account empty (a list may hide widgets): only on the user's word.
    if (method === 'POST' || !this.#door.collectionWrites) throw new CollectionWriteRefused(method);
    let ticket: CreateTicket | undefined;
    const res = await this.authed(undefined, `${method} /widgets`, (token) => {
      const door = (ticket ??= this.#door.openCreate(this.account, tagOf(body, this.ownership.isOurs)));
      return this.writing(() => door.send({ method, credential: this.credential(undefined, token), contentType: 'application/json', body: JSON.stringify(body) }));
    });
    const made = is2xx(res.status) ? idOf(res.json) : undefined;
    if (made !== undefined) this.ownership.claim(this.account, made, ticket?.key, res.json);
    else if (!is2xx(res.status) && ticket) this.ownership.refused(this.account, ticket.key, res.status);
    return res;
  }

  /**
   * A write to one widget through the door (door.ts write): a fresh retrieve of the id in the
   * id's turn, the delete rule (ledger.ts deleteVerdict) on it and the ledger's facts, then the
   * write at once; UnprovenDeleteError and nothing sent when the rule refuses it.
   */
  private async provenWrite(w: WidgetWrite): Promise<ApiResponse> {
    const outcome = await this.#door.write(w);
    if ('response' in outcome) return outcome.response;
    const { reason, why, broken } = outcome.refused;
    throw new UnprovenDeleteError(`${w.method} /widgets/${JSON.stringify(w.id.slice(0, 80))} not sent (${this.account} account): ${reason}`, reason, why, broken, { id: w.id, account: this.account });
  }

  /** Sends with the account's current token, renewed when the target stops accepting it (token-guard.ts). */
  private authed(auth: AuthOverride | undefined, request: string, send: (token: string) => Promise<ApiResponse>, via: Reader = this.http): Promise<ApiResponse> {
    return this.tokens.send(auth, request, send, via);
  }

  private observe(...args: Parameters<ProfileObserver['observe']>): void {
    this.observer.observe(...args);
  }

  /** Runs a create or delete through the run's write hook (WalkGate: walks that must see everything wait for them). */
  private writing(send: () => Promise<ApiResponse>): Promise<ApiResponse> {
    return this.hooks.write ? this.hooks.write(send) : send();
  }
}
