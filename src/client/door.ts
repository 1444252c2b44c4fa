/**
 * The ownership ledger's one door for writes. The HTTP client sends only reads (GET, HEAD,
 * OPTIONS); a write (POST, PUT, PATCH, DELETE or any other method) leaves only through the
 * client's writer, which the client hands out once, when it is built, and which this door takes
 * (openDoor) and keeps where no other module reaches it. The door builds every write itself,
 * each part bound to what it checked, and sends
 * - a create (or any write that may make a widget) after its `sent` entry is in the journal,
 *   whatever its body, so a create whose answer is lost is known (openCreate): POST on
 *   /widgets (PUT or PATCH there only when the run's settings allow collection writes), no query
 *   but a credential parameter, a JSON or text/plain body or none, never a form;
 * - a DELETE of an id no create answered, extending the run's own widget's id (DEL-4), on proofs
 *   of that widget and of the exact id made just then, when a lookup that reads ids leniently could
 *   reach no other widget the run knows (ledger.ts extensionVerdict);
 * - a write to one widget (DELETE, or PUT/PATCH/POST on its URL) to the widget's own path, right
 *   after a retrieve of that id, inside the id's turn (nothing else this process writes to the id
 *   goes out between them), that shows this run's marker and the widget as the create answered
 *   it, when the delete rule (ledger.ts deleteVerdict) says so from that retrieve and the
 *   ledger's own facts (write), with the credential that proof covers: the account's own, whose
 *   retrieve it was; or, for a credential that is no account's own (none, garbage, another
 *   scheme), a proof in every account the run holds. The proofs and the write share one slot of
 *   the client (a lane), the write first in the pace, so it leaves as soon as the last proof's
 *   answer is read, ahead of every request waiting for a slot. A write to an id whose earlier
 *   write lost its answer is never sent again.
 * test/unit/network.test.ts holds that no other module reaches the network, takes a writer or
 * opens a door.
 */
import { TransportError } from '../errors.ts';
import { takeWriter, type ApiResponse, type BoundRequest, type HttpClient, type Reader, type Writer } from '../http/client.ts';
import { secondDeleteBefore, writeVerdict, type DeleteVerdict, type Proof } from './ledger.ts';
import type { Ownership } from './ownership.ts';
import { extendsId, unsafeSegment } from './safe-ids.ts';

/** The credentials a request carries: an Authorization value (null: none), and query parameters such as access_token. */
export interface Credential {
  readonly authorization: string | null;
  readonly query?: Readonly<Record<string, string>>;
}

/** The query parameters a request may carry as credentials (RFC 6750 §2.3): the only query a write may have. */
const CREDENTIAL_PARAMETERS: ReadonlySet<string> = new Set(['access_token']);

/** A create's request, as its caller describes it: the door builds the rest. */
export interface CreateRequest {
  /** POST; PUT or PATCH (on /widgets) only when the run allows collection writes. */
  readonly method?: 'POST' | 'PUT' | 'PATCH';
  readonly credential: Credential;
  /** The Content-Type header; null sends none. */
  readonly contentType: string | null;
  readonly body?: string | Buffer;
  /** The Accept header instead of the client's application/json (null: none): a documented failure asked so (FMT-1, FMT-2). */
  readonly accept?: string | null;
}

/** A create journalled as sent: its key pairs it with its outcome in the journal. */
export interface CreateTicket {
  readonly key: string;
  /** Sends the create this ticket journalled (again only after a refused token: see WidgetApi.authed). */
  send(request: CreateRequest): Promise<ApiResponse>;
}

/** What the door reads of the run's settings, once, when it is opened. */
export interface DoorSettings {
  /** --allow-collection-writes: PUT and PATCH on /widgets may be sent (MAL-5), as creates. */
  readonly allowCollectionWrites: boolean;
}

/** The accounts of the run, as the accounts' factory gives them to the door: nothing a caller of the door can replace. */
export interface DoorAccounts {
  /** Every account of the run, by its role. */
  names(): readonly string[];
  /** The Authorization value the account sends now (its token may be renewed during the run). */
  credential(account: string): string;
  /** A retrieve of the id with the account's own token, observed and recorded like any retrieve, sent through `via` (the write's lane). */
  retrieve(account: string, id: string, via: Reader): Promise<ApiResponse>;
}

/** A write to one widget, as its caller describes it: the door proves it and builds the request. */
export interface WidgetWrite {
  /** The account whose operation sends it (its ledger entries and lost writes are kept under it). */
  readonly account: string;
  readonly id: string;
  readonly method: 'DELETE' | 'POST' | 'PUT' | 'PATCH';
  /** The credential to send; absent: the account's own, as its proof's retrieve sent it. */
  readonly credential?: Credential;
  /** A JSON body (POST, PUT and PATCH), sent as application/json. */
  readonly body?: unknown;
  /**
   * The profile's second delete of the same id (WidgetApi.removeAgain), inside a window in which
   * no write of the suite is in flight: the delete rule's one exception for an id found absent.
   */
  readonly again?: boolean;
  /**
   * A DELETE of an id no create answered, made by extending this run's own widget's id (DEL-4:
   * `31-x` beside `31`), aimed at that widget alone: proven on it and on the exact id, and sent
   * only when a lookup that reads ids leniently could reach no other widget (ledger.ts extensionVerdict).
   */
  readonly extends?: string;
  /** Called just before the write is sent (the profile's situation, MAL-5's note that the widget was written). */
  readonly onSend?: () => void;
  /**
   * Reads the proof's retrieve in the account whose operation sends the write, as soon as it is
   * answered, before the delete rule decides (a test's own retrieve of the widget: retrieve,
   * judge, then write on this proof). What it throws ends the write unsent, and reaches the
   * caller. It runs on the proof's slot, so it judges and sends nothing itself.
   */
  readonly judge?: (proof: ApiResponse) => void;
}

/** The answer of a proven write, or the delete rule's reason for not sending it. */
export type ProvenOutcome = { readonly response: ApiResponse } | { readonly refused: Extract<DeleteVerdict, { send: false }> };

/** The one door of a run's ledger: it holds the client's writer, and sends every write. */
export interface Door {
  /** True when the run's settings allow PUT and PATCH on /widgets. */
  readonly collectionWrites: boolean;
  /** Journals a write that may make a widget (a `sent` entry with its tag), and returns what sends it. */
  openCreate(account: string, tag: string | undefined): CreateTicket;
  /**
   * Sends a write to one widget only on a proof made just then: inside the id's turn, a fresh
   * retrieve, the delete rule on it and the ledger's facts, then the write at once. A write whose
   * answer is lost (a transport failure after it may have gone out) is recorded, and no write to
   * that id is sent again in this run or by the cleanups reading its journal.
   */
  write(w: WidgetWrite): Promise<ProvenOutcome>;
  /** The delete rule's verdict on the second delete of an id from the ledger's facts alone (no request): whether the window is worth asking for. */
  secondDeleteBefore(account: string, id: string, quiet: boolean): DeleteVerdict;
}

/**
 * The door of a ledger over a client: it takes the client's writer (once: a client has one
 * writer, and a second door cannot be opened over it), and reads the run's settings now. Only
 * the accounts' factory (accounts.ts) calls it.
 */
export function openDoor(http: HttpClient, ownership: Ownership, settings: DoorSettings, accounts: DoorAccounts): Door {
  return new LedgerDoor(takeWriter(http), ownership, settings, accounts);
}

/** The media type of a Content-Type value: before any parameter, trimmed, lower-cased. */
function mediaType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * The bodies a create may be sent as: JSON in any spelling (CRUD-7's `Application/JSON`, with a
 * charset), MAL-4's text/plain, or no Content-Type. Never a form (urlencoded or multipart): a
 * server reads fields from those, `_method` among them.
 */
const CREATE_MEDIA_TYPES: ReadonlySet<string> = new Set(['application/json', 'text/plain']);

/** Why a query cannot go with a write (anything but credential parameters), or undefined. */
function queryProblem(query: Readonly<Record<string, string>> | undefined): string | undefined {
  const other = Object.keys(query ?? {}).filter((k) => !CREDENTIAL_PARAMETERS.has(k));
  return other.length === 0 ? undefined : `a write carries no query but a credential parameter (${[...CREDENTIAL_PARAMETERS].join(', ')}), not ${other.map((k) => JSON.stringify(k.slice(0, 40))).join(', ')}`;
}

/** The headers of a write: its credential, its body's media type, and an Accept other than the client's when asked (null: none). */
function headersOf(credential: Credential, contentType: string | null, accept?: string | null): Record<string, string | null> {
  return { ...(credential.authorization === null ? {} : { authorization: credential.authorization }), ...(contentType === null ? {} : { 'content-type': contentType }), ...(accept === undefined ? {} : { accept }) };
}

class LedgerDoor implements Door {
  readonly #writer: Writer;
  readonly #ownership: Ownership;
  readonly #accounts: DoorAccounts;
  /** Methods a create ticket sends to /widgets: POST, and PUT and PATCH when the run allows collection writes. */
  readonly #creates: ReadonlySet<string>;
  /** Turns per id: a proven write's retrieve and its write go out with no other proven write of the id between them. */
  readonly #turns = new Map<string, Promise<unknown>>();
  readonly collectionWrites: boolean;

  constructor(writer: Writer, ownership: Ownership, settings: DoorSettings, accounts: DoorAccounts) {
    this.#writer = writer;
    this.#ownership = ownership;
    this.#accounts = accounts;
    this.collectionWrites = settings.allowCollectionWrites;
    this.#creates = new Set(settings.allowCollectionWrites ? ['POST', 'PUT', 'PATCH'] : ['POST']);
    Object.freeze(this);
  }

  openCreate(account: string, tag: string | undefined): CreateTicket {
    const key = this.#ownership.sent(account, tag);
    const writer = this.#writer;
    const creates = this.#creates;
    return Object.freeze({
      key,
      send(request: CreateRequest): Promise<ApiResponse> {
        const method = request.method ?? 'POST';
        const problem = !creates.has(method)
          ? `a create ticket sends ${creates.size > 1 ? 'POST, PUT or PATCH on /widgets' : 'POST /widgets only (PUT and PATCH there with --allow-collection-writes)'}`
          : request.contentType !== null && !CREATE_MEDIA_TYPES.has(mediaType(request.contentType))
            ? `a create is sent as JSON, text/plain or with no Content-Type, not ${JSON.stringify(request.contentType.slice(0, 60))}`
            : queryProblem(request.credential.query);
        if (problem !== undefined) return Promise.reject(new Error(`${method} /widgets refused: ${problem}`));
        const { query } = request.credential;
        return writer.send({ method, path: '/widgets', headers: headersOf(request.credential, request.contentType, request.accept), ...(query === undefined ? {} : { query }), ...(request.body === undefined ? {} : { body: request.body }) });
      },
    });
  }

  write(w: WidgetWrite): Promise<ProvenOutcome> {
    const problem = w.credential === undefined ? undefined : queryProblem(w.credential.query);
    if (problem !== undefined) return Promise.reject(new Error(`${w.method} /widgets/{id} refused: ${problem}`));
    if ((w.body === undefined) !== (w.method === 'DELETE')) return Promise.reject(new Error(`${w.method} /widgets/{id} refused: a DELETE has no body, a ${w.method} has a JSON one`));
    if (w.extends !== undefined && (w.method !== 'DELETE' || w.credential !== undefined || w.again === true)) return Promise.reject(new Error(`${w.method} /widgets/{id} refused: an extension of the run's widget's id is sent as a DELETE with the account's own credential only`));
    // What no proof on the same path covers (safe-ids.ts): never sent, whoever asks.
    const unsafe = unsafeSegment(w.id);
    if (unsafe !== undefined) return Promise.reject(new Error(`${w.method} /widgets/{id} refused for the id ${JSON.stringify(w.id.slice(0, 80))}: ${unsafe}`));
    const ownership = this.#ownership;
    // The id's turn first (no slot held while waiting for it), then one slot for the proof and the
    // write. An extension takes the turn of the widget it extends too, first (the longer id second,
    // so two such writes never wait on each other in a circle; one that extends nothing is refused in its own turn).
    const turns = <T>(run: () => Promise<T>): Promise<T> => (w.extends !== undefined && extendsId(w.extends, w.id) ? this.#inTurn(w.extends, () => this.#inTurn(w.id, run)) : this.#inTurn(w.id, run));
    return turns(() => this.#writer.inLane(async (lane) => {
      const owner = w.credential === undefined ? w.account : this.#ownerOf(w.credential);
      const proof: Proof = w.again === true ? { kind: 'second-delete', account: w.account, quiet: true }
        : w.extends !== undefined ? { kind: 'extension', account: w.account, base: w.extends }
        : owner === undefined ? { kind: 'any-account', last: w.account } : { kind: 'own', account: owner };
      const verdict = await writeVerdict(ownership, w.id, proof, {
        accounts: this.#accounts.names(),
        // The proof's retrieve of the write's own id in its own account is the one a test may judge first (judge).
        retrieve: async (account, id) => {
          const proof = await this.#accounts.retrieve(account, id, lane);
          if (account === w.account && id === w.id) w.judge?.(proof);
          return proof;
        },
      });
      if (!verdict.send) return { refused: verdict };
      // The credential the proof covers: the owner's own as it stands after its retrieve (a renewed token included).
      const credential = w.credential ?? { authorization: this.#accounts.credential(w.account) };
      const body = w.body === undefined ? undefined : JSON.stringify(w.body);
      const request: BoundRequest = {
        method: w.method,
        path: `/widgets/${encodeURIComponent(w.id)}`,
        headers: headersOf(credential, body === undefined ? null : 'application/json'),
        ...(credential.query === undefined ? {} : { query: credential.query }),
        ...(body === undefined ? {} : { body }),
      };
      w.onSend?.();
      try {
        // On the proof's slot, first in the pace: nothing waiting for a slot goes out before it.
        return { response: await lane.write(request) };
      } catch (error) {
        if (error instanceof TransportError && !/: not sent\b/.test(error.message)) {
          const why = `${w.method} was sent and its answer lost (${error.message.slice(0, 160)})`;
          ownership.writeLost(w.account, w.id, why);
          // A lenient lookup may have acted on the widget the id extends: nothing is sent to it again either.
          if (w.extends !== undefined) ownership.writeLost(w.account, w.extends, `${why}, to an extension of this id`);
        }
        throw error;
      }
    }));
  }

  secondDeleteBefore(account: string, id: string, quiet: boolean): DeleteVerdict {
    return secondDeleteBefore(this.#ownership, account, id, quiet);
  }

  /** The account whose own credential this is (the exact Authorization value it sends, no query credential), if any. */
  #ownerOf(credential: Credential): string | undefined {
    if (credential.query !== undefined && Object.keys(credential.query).length > 0) return undefined;
    return this.#accounts.names().find((name) => this.#accounts.credential(name) === credential.authorization);
  }

  async #inTurn<T>(id: string, run: () => Promise<T>): Promise<T> {
    const before = this.#turns.get(id) ?? Promise.resolve();
    const mine = before.then(run, run);
    const settled = mine.then(() => undefined, () => undefined);
    this.#turns.set(id, settled);
    try {
      return await mine;
    } finally {
      if (this.#turns.get(id) === settled) this.#turns.delete(id);
    }
  }
}
