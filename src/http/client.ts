/**
 * The HTTP client every suite uses: undici request() over keep-alive connections (one per slot,
 * transport.ts), with a per-request deadline, a cap on response size (decoded too), no redirects,
 * a bound on requests in flight (--concurrency, or what the server serves: concurrency.ts), a pace (pacer.ts: --max-rate and what the server says of its limit),
 * every 429 and 503 taken as a refusal (never an answer for the rules) and waited out within a
 * wall-clock budget, past which the client stops and says how many were refused, a GET answered
 * 502/504 or whose connection was lost sent once more, and every exchange recorded (redacted).
 * Long because these bounds interact (a retry holds its slot and its deadline, a server's pause
 * holds back every request, the budget and the give-up rule end the same way): one class
 * keeps them in one place. One exchange on one connection, its body read up to the cap, is
 * transport.ts; a transport failure in words, transport-errors.ts; the bytes made an answer
 * (decoded, parsed, recorded), answer.ts; how many large bodies are held at once, large-bodies.ts.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { RateLimitError, TokenRejectedError, TransportError, type SuiteError } from '../errors.ts';
import { prefixAnswer, wholeAnswer, type ApiResponse, type Recording } from './answer.ts';
import { recordBody, type Exchange } from '../shared/exchange.ts';
import { ConcurrencyController } from './concurrency.ts';
import { Limiter } from './limiter.ts';
import { Pacer } from './pacer.ts';
import { readRateHint } from './rate-headers.ts';
import { parseRetryAfter } from './parse.ts';
import { LARGE_BODY_BYTES, LargeBodies, type BodyPass } from './large-bodies.ts';
import { TimeBox } from './time-box.ts';
import { Redactor } from '../shared/redact.ts';
import { secretHeaderSet } from '../shared/header-secrecy.ts';
import { mergeHeaders } from './headers.ts';
import { methodOverride } from '../shared/method-override.ts';
import type { ClientStats } from '../shared/client-stats.ts';
import { describeSentCredential, type KnownTokens } from '../shared/sent-credential.ts';
import { describeTransportError } from './transport-errors.ts';
import { isConnectionLost, NoResponse, openWire, OverCap, SAFE_METHODS, WireRefusal, type RawResponse, type Wire, type WireConnection, type WireWriter } from './transport.ts';

/** Responses larger than this are refused: a server that streams without end must not take the suite's memory. */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/**
 * After this many transport failures in a row the target is taken as gone: every further
 * request fails at once, so a server that stops answering ends the run within about this
 * many timeouts instead of one timeout per remaining request.
 */
export const GIVE_UP_AFTER_FAILURES = 5;

/** Default of ClientOptions.maxRateLimitWaitMs: a 429 storm costs the run at most this much wall-clock time blocked. */
export const DEFAULT_RATE_LIMIT_WAIT_TOTAL_MS = 120_000;

/**
 * Adaptive concurrency (no --concurrency given, concurrency.ts): the most slots, and the request
 * rate that the slots beyond --concurrency's default may never let the run exceed. A slot serves
 * at most 1 / latency requests per second, so those slots are added only while slots / latency
 * stays at or under the bound: at 20 ms (about 22 ms on the wire) up to 8, on loopback none. Eight
 * is the most the verdict-independence checks run at (concurrency 1, 4 and 8).
 */
export const ADAPTIVE_MAX_SLOTS = 8;
export const ADAPTIVE_RATE_BOUND = 320;

/**
 * How many times --max-retries a request may be refused while the server answers other requests
 * meanwhile (it sheds a share of the load rather than refusing the run): enough that a gateway
 * refusing every nth request cannot end a run by chance, still a bound.
 */
const SHED_RETRY_FACTOR = 4;
/** Answers a client must have had before its share of answers to refusals can show a server shedding load. */
const SHED_EVIDENCE = 10;
/**
 * The longest a refused request's second and later retries are held back at random (at most its
 * own round trip): a gateway refusing every nth request of a token refuses a place in the
 * rotation, and when the requests in flight fill the rotation exactly (n of them, or 2n) a retry
 * sent at once takes the same place every time. Held back a random part of one round trip, it
 * lands at a random place. Not the first retry: sent at once it takes the next place, which such
 * a gateway refuses only in that lockstep, while at a random place the refusal is one in n, and
 * a client that has seen no other answer yet (other workers send the token's other requests) has
 * only --max-retries of them.
 */
export const RETRY_JITTER_MAX_MS = 100;
/** First wait after a 429 or 503 without Retry-After; it doubles on each further retry of the request. */
export const BACKOFF_BASE_MS = 250;
/** The longest wait after a refusal without Retry-After: backoff is bounded, the pace does the rest. */
export const BACKOFF_MAX_MS = 4_000;

/** Answers of a gateway whose upstream failed: sent once more (a safe method) before a rule is blamed. */
const GATEWAY_ERRORS: ReadonlySet<number> = new Set([502, 504]);

/**
 * How long an idle connection is kept for reuse. A request written just as the server closes
 * an idle connection is reset, and servers close them early, mostly without a Keep-Alive hint
 * (gunicorn 2 s, uvicorn 5 s; Node says 5 s): undici's 4 s without a hint outlives gunicorn's.
 * One second stays clear of them even when a busy worker's timers run a second late, and the
 * suite's requests follow each other closely enough to reuse connections anyway. No timer
 * helps while the event loop is stalled, hence the retry of a GET in sendRepeatable.
 */
export const IDLE_KEEP_ALIVE_MS = 1_000;

/**
 * undici keeps a connection for the server's Keep-Alive: timeout= hint less this margin (its
 * own default, stated so it cannot change under us): the server's clock starts first.
 */
export const KEEP_ALIVE_HINT_MARGIN_MS = 2_000;

/** Methods sent a second time when the connection was lost before any answer: repeating them cannot repeat an effect. */
const REPEATABLE_METHODS: ReadonlySet<string> = new Set(['GET']);

export interface ClientOptions {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly concurrency: number;
  readonly maxRetries: number;
  readonly maxRetryWaitMs: number;
  /** Every token the run knows: redacted wherever an exchange is recorded. */
  readonly secrets: readonly string[];
  /** The tokens by the variable each is read from: recorded exchanges name the one sent (sent-credential.ts). */
  readonly tokens?: KnownTokens;
  readonly maxResponseBytes?: number;
  readonly userAgent?: string;
  /** Sent on every request (--header); a request's own headers of the same name win. The secret ones' values must be among `secrets`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** --secret-header: names of headers whose values are hidden in recordings, besides the ones secret by name. */
  readonly secretHeaders?: string;
  /** PEM text of the CA certificates trusted for https (--ca-file), instead of Node's defaults. */
  readonly ca?: string;
  /**
   * Wall-clock time the client may spend blocked by the server's Retry-After, backoff or spent
   * RateLimit window (default DEFAULT_RATE_LIMIT_WAIT_TOTAL_MS): a pause counts once however
   * many requests wait on it. Once a pause cannot be paid from it, every further request fails at once.
   */
  readonly maxRateLimitWaitMs?: number;
  /** --max-rate: most requests per second, every request of this client together (both accounts). */
  readonly maxRate?: number;
  /**
   * No --concurrency given: the slots follow what the server serves (concurrency.ts): from one,
   * doubled while its throughput grows with them, up to ADAPTIVE_MAX_SLOTS, those beyond
   * `concurrency` only while slots / latency stays under ADAPTIVE_RATE_BOUND; fewer again when a
   * doubling brings nothing, latency rises without throughput, or a request stalls.
   */
  readonly adaptConcurrency?: boolean;
  /** A Date.now() value: no request is sent after it, and no request runs past it. */
  readonly deadline?: number;
  /** Called once when the target refused requests (429/503) past the wait budget and the client stopped: the run has no verdict. */
  readonly onRefusedBeyondBudget?: (message: string) => void;
  /**
   * Called as each request goes out (every attempt, as `stats.requests` counts it), in the async
   * context of the code that asked for it: the harness tells by it which test sent what
   * (harness/request-tally.ts). Accounting only: what it throws is ignored.
   */
  readonly onSent?: (method: string, url: string) => void;
}

/** What a read (GET, HEAD, OPTIONS) carries besides its method and path: no body. */
export interface RequestOptions {
  /** Query parameters, appended in order. */
  readonly query?: Readonly<Record<string, string>>;
  /** Extra or overriding headers (e.g. authorization); null sends none of that name (e.g. no Accept). */
  readonly headers?: Readonly<Record<string, string | null>>;
  /**
   * A body over the cap is answered with the prefix read (flagged `truncated`) instead of a
   * TransportError: a list page can still be judged from it (json-prefix.ts counts its items).
   */
  readonly prefixOverCap?: boolean;
}

/**
 * A write as the ownership ledger's door built it, every part of it bound: the method, the path
 * and query, the headers (the credential and the media type among them) and the body. The client
 * sends exactly this, through the writer only the door holds (takeWriter).
 */
export interface BoundRequest {
  readonly method: string;
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  /** Null sends no header of that name (the client's default Accept, for one). */
  readonly headers: Readonly<Record<string, string | null>>;
  /** A raw body, sent as it is. */
  readonly body?: string | Buffer;
}

/** What sends reads: the client itself, or a lane (a slot the door holds for a proof and its write). */
export interface Reader {
  request(method: string, path: string, opts?: RequestOptions): Promise<ApiResponse>;
}

/**
 * One slot of the client, held by the door from a proof's retrieve to its write: what it sends
 * queues behind nothing in the client's limiter, and goes first in the pace, so the write leaves
 * as soon as the proof's answer is read, ahead of every request waiting for a slot.
 */
export interface Lane extends Reader {
  /** Sends the write on the held slot, first in the pace. */
  write(request: BoundRequest): Promise<ApiResponse>;
}

/**
 * The write capability of one client: created with it, handed out once (takeWriter) to the
 * ownership ledger's door, never reachable from the client itself.
 */
export interface Writer {
  /** Sends one write as any request is sent (a slot, the pace, the budgets), and answers it. */
  send(request: BoundRequest): Promise<ApiResponse>;
  /** Holds one slot while `run` sends its proof and its write through the lane (see Lane). */
  inLane<T>(run: (lane: Lane) => Promise<T>): Promise<T>;
}

/** Every client's writer until the door takes it; module-private, so only takeWriter reaches it. */
const writers = new WeakMap<HttpClient, Writer>();

/**
 * The client's writer, once: a second call (or a call after the door took it) throws. Only the
 * ownership ledger's door calls it, when it is built with the client (test/unit/network.test.ts
 * refuses an import of it anywhere else).
 */
export function takeWriter(http: HttpClient): Writer {
  const writer = writers.get(http);
  if (writer === undefined) throw new Error('this client\'s writer was already taken: a client has one writer, held by the ownership ledger\'s door');
  writers.delete(http);
  return writer;
}

/** A request on its way out, as once() hands it from step to step. */
interface Outbound {
  readonly method: string;
  readonly url: string;
  /** The URL as messages and recordings show it (redacted). */
  readonly shownUrl: string;
  readonly headers: Record<string, string>;
  readonly body: string | Buffer | undefined;
  readonly prefixOverCap: boolean;
  /** Sent by the writer (the door's), not the wire. */
  readonly write: boolean;
}

/** A request as attempts() takes it: the method, the absolute URL, and what it carries. */
interface Attempt {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | null>> | undefined;
  readonly body: string | Buffer | undefined;
  readonly prefixOverCap: boolean;
  readonly write: boolean;
  /** Sent on a lane: first in the pace (a proof, or the write it proves). */
  readonly priority?: boolean;
}

/** Why requests are no longer sent, and the error class they fail with. */
interface Gone {
  readonly because: string;
  readonly ErrorClass: typeof TransportError | typeof RateLimitError | typeof TokenRejectedError;
}

/** The suite's HTTP client; one per worker, shared by every test. */
export class HttpClient implements Reader {
  private readonly counts = { requests: 0, retries: 0 };
  /** The pace shared by every request of this client (see pacer.ts). */
  readonly pacer: Pacer;
  readonly redactor: Redactor;
  /** The connections: reads go on the wire; writes on its writer, which only the door's Writer reaches. */
  readonly #wire: Wire;
  readonly #wireWriter: WireWriter;
  private readonly limiter: Limiter;
  /** Large bodies read, decoded and parsed one at a time (large-bodies.ts). */
  private readonly largeBodies = new LargeBodies();
  private readonly maxResponseBytes: number;
  private readonly rateLimitBudgetMs: number;
  private failuresInARow = 0;
  private gone: Gone | undefined;
  /** Refusals by status and whether they named a wait ("503 (no Retry-After)"): what the give-up message says. */
  private readonly refusedBy = new Map<string, number>();
  /** Answers that were not refusals: none means the target refused everything (an outage?), not a rate. */
  private accepted = 0;
  /** The slots' controller when they adapt (no --concurrency given). */
  readonly #slots: ConcurrencyController | undefined;
  /** The look at the clock for a stall no answer shows (#followSlots); one at a time. */
  #stallTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: ClientOptions) {
    this.redactor = new Redactor(options.secrets, secretHeaderSet(options.secretHeaders));
    this.maxResponseBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
    this.rateLimitBudgetMs = options.maxRateLimitWaitMs ?? DEFAULT_RATE_LIMIT_WAIT_TOTAL_MS;
    this.#slots = options.adaptConcurrency ? new ConcurrencyController({ max: ADAPTIVE_MAX_SLOTS, unbounded: options.concurrency, rateBound: ADAPTIVE_RATE_BOUND }) : undefined;
    this.limiter = new Limiter(this.#slots?.limit ?? options.concurrency);
    this.pacer = new Pacer(options.maxRate === undefined ? {} : { maxRate: options.maxRate });
    const { wire, writer } = openWire({
      timeoutMs: options.timeoutMs,
      connections: options.adaptConcurrency ? Math.max(options.concurrency, ADAPTIVE_MAX_SLOTS) : options.concurrency,
      idleMs: IDLE_KEEP_ALIVE_MS,
      hintMarginMs: KEEP_ALIVE_HINT_MARGIN_MS,
      ...(options.ca === undefined ? {} : { ca: options.ca }),
    });
    this.#wire = wire;
    this.#wireWriter = writer;
    writers.set(this, Object.freeze({ send: (request: BoundRequest) => this.#write(request), inLane: <T>(run: (lane: Lane) => Promise<T>) => this.#inLane(run) }));
  }

  /** Requests sent, retries, time blocked, refusals and the pace, as the reports show them. */
  get stats(): ClientStats {
    const { pacedRate } = this.pacer;
    return { ...this.counts, rateLimitWaitMs: Math.round(this.pacer.blockedMs), refused: this.pacer.refused, ...(pacedRate === undefined ? {} : { pacedRate }), slots: this.#slots?.peak ?? this.options.concurrency };
  }

  /** The absolute URL of a path under the base URL (path starts with "/"). */
  url(path: string, query?: Readonly<Record<string, string>>): string {
    const url = new URL(this.options.baseUrl + path);
    for (const [k, v] of Object.entries(query ?? {})) url.searchParams.append(k, v);
    return url.toString();
  }

  /**
   * Sends one read (GET, HEAD or OPTIONS); retries 429 and 503 within the budget, and a GET
   * answered 502/504 once. Throws only SuiteErrors, but for a write: any other method is refused
   * before anything is sent, since a write goes out only through the ownership ledger's door.
   */
  async request(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse> {
    const attempt = this.readAttempt(method, path, opts, false);
    // The whole exchange, retries and waits included, holds one slot. Every attempt passes the
    // pacer: while the server's pause runs no request goes out (a 429 asks the client, not one
    // request, to slow down), and afterwards they go at the rate it learned.
    return this.limiter.run(() => this.attempts(attempt));
  }

  /** A read as attempts() takes it, refused first when it is no read or asks for another method. */
  private readAttempt(method: string, path: string, opts: RequestOptions, priority: boolean): Attempt {
    if (!SAFE_METHODS.has(method)) {
      throw new Error(`${method} ${path.slice(0, 80)} refused before it was sent: a write goes out only through the ownership ledger's door (client/door.ts), which journals a create and proves a widget the suite's own first`);
    }
    const attempt: Attempt = { method, url: this.url(path, opts.query), headers: opts.headers, body: undefined, prefixOverCap: opts.prefixOverCap === true, write: false, priority };
    this.refuseOverride(attempt, path);
    return attempt;
  }

  /** A write as attempts() takes it, refused first when it is a read or asks for another method. */
  private writeAttempt(request: BoundRequest, priority: boolean): Attempt {
    if (SAFE_METHODS.has(request.method)) throw new Error(`${request.method} is not a write: it is sent with request()`);
    const attempt: Attempt = { method: request.method, url: this.url(request.path, request.query), headers: request.headers, body: request.body, prefixOverCap: false, write: true, priority };
    this.refuseOverride(attempt, request.path);
    return attempt;
  }

  /** The door's write (see Writer), sent as a request is: a slot, the pace, the budgets. */
  async #write(request: BoundRequest): Promise<ApiResponse> {
    const attempt = this.writeAttempt(request, false);
    return this.limiter.run(() => this.attempts(attempt));
  }

  /**
   * One slot held for `run`, whose requests go through the lane: none waits for a slot again,
   * and each goes first in the pace, so a proven write follows its proof's answer at once.
   */
  #inLane<T>(run: (lane: Lane) => Promise<T>): Promise<T> {
    return this.limiter.run(() => {
      const lane: Lane = Object.freeze({
        request: async (method: string, path: string, opts: RequestOptions = {}) => this.attempts(this.readAttempt(method, path, opts, true)),
        write: async (request: BoundRequest) => this.attempts(this.writeAttempt(request, true)),
      });
      return run(lane);
    });
  }

  /**
   * Throws when the request asks the server to take it for another method (a `_method` query
   * parameter or body field, an X-HTTP-Method-Override header, in any spelling): a server that
   * honours one would act on a write the door never proved (method-override.ts). Every request,
   * reads included, the headers of --header too.
   */
  private refuseOverride(attempt: Attempt, path: string): void {
    const asks = methodOverride({ url: attempt.url, headers: this.requestHeaders(attempt.headers), ...(attempt.body === undefined ? {} : { body: attempt.body }) });
    if (asks !== undefined) throw new Error(`${attempt.method} ${path.slice(0, 80)} refused before it was sent: it asks for another method than its own (${asks}), which a server that honours method override would take for a write the door never proved`);
  }

  private async attempts(attempt: Attempt): Promise<ApiResponse> {
    const { method, url } = attempt;
    /** A 502/504 answer already sent once more: the rules see the second answer, the exchange shows both. */
    let earlier: ApiResponse | undefined;
    /** Requests of this client answered when this one was last refused: more since means the server sheds a share, not everything. */
    let acceptedAtRefusal = this.accepted;
    /** Refusals met while other requests were answered: bounded apart from --max-retries (SHED_RETRY_FACTOR). */
    let shed = 0;
    for (let refusals = 0; ; ) {
      // Not sent when the pace would hold it past the run's deadline, or the target was given up meanwhile: once() says why.
      const { deadline } = this.options;
      const until = deadline === undefined ? undefined : performance.now() + (deadline - Date.now());
      if (!(await this.pacer.acquire(until, attempt.priority === true))) {
        const shownUrl = this.redactor.url(url, this.options.baseUrl);
        throw this.refusal(method, shownUrl) ?? new TransportError(`${method} ${shownUrl}: not sent: the pace the server's rate limit set would send it past the run's time budget`, false);
      }
      const sentAt = this.pacer.clock;
      const sentWall = performance.now();
      // Which connection it goes out on, for the slots' stall detector (concurrency.ts): the wire fills it in.
      const connection: WireConnection | undefined = this.#slots === undefined ? undefined : { id: undefined };
      const onWire = this.#slots?.sent(connection);
      let res: ApiResponse;
      try {
        res = await this.once(attempt, connection);
      } catch (error) {
        this.#settle(onWire, 'failed');
        throw error;
      }
      const wait = this.retryDelay(res, refusals + shed);
      // A refusal (429, 503) is no answer of the server's capacity: more slots that only meet refusals bring no throughput.
      this.#settle(onWire, wait === undefined ? 'answered' : 'refused');
      if (wait === undefined) {
        this.accepted += 1;
        this.pacer.onAccepted(readRateHint(res.headers));
        this.pauseForSpentWindow(res);
        if (!GATEWAY_ERRORS.has(res.status) || earlier !== undefined) return withEarlier(res, earlier);
        // A 502/504 may be one bad upstream or a gateway's hiccup: reproduced once before a rule is
        // blamed. A write is not sent again (it may have been applied behind the gateway): its
        // answer is the rules' as it is, with a note saying so.
        if (!SAFE_METHODS.has(method)) return withNote(res, `${res.status} to a ${method}: not sent again, since the gateway may have passed it on and the server applied it`);
        earlier = res;
        this.counts.retries += 1;
        continue;
      }
      this.noteRefused(res, wait, sentAt);
      const shown = `${method} ${this.redactor.url(url, this.options.baseUrl)}`;
      // A server that sheds a share of the requests (a gateway's every-nth refusal, Retry-After: 0)
      // while answering the others is not refusing the run: such a refusal is not charged to the
      // request's --max-retries, though it is bounded (SHED_RETRY_FACTOR times as many), so a
      // request the server refuses every time still ends. Shedding shows as other answers since the
      // last refusal, or as a run the server has answered SHED_EVIDENCE times and more than twice as
      // often as it refused: a gateway counts every caller with the token (the other workers'
      // requests too), so a client holding one slot can meet the nth place several times in a row
      // while the server answers six in seven. Or the server asks for no wait at all (Retry-After:
      // 0) and has answered this client before: retrying costs nothing, and the workers whose
      // requests fill the places between are other processes, whose answers this client never sees.
      // Without any of these, it is charged.
      const freeRetry = wait === 0 && this.accepted > 0;
      const sheddingOnly = freeRetry || this.accepted > acceptedAtRefusal || (this.accepted >= SHED_EVIDENCE && this.accepted > 2 * this.pacer.refused);
      acceptedAtRefusal = this.accepted;
      const { maxRetries } = this.options;
      if ((!sheddingOnly && refusals >= maxRetries) || refusals + shed >= maxRetries * SHED_RETRY_FACTOR) {
        const amid = shed > 0 ? `, ${shed} of them taken as load shed (the server answered other requests meanwhile, or asked for no wait)` : '';
        throw this.refusedBeyondBudget(`${shown} still answered ${res.status} after ${refusals + shed} retries${amid} (--max-retries ${maxRetries})`, res.status);
      }
      if (wait > this.options.maxRetryWaitMs) {
        throw this.refusedBeyondBudget(`${shown} answered ${res.status} with Retry-After of ${Math.ceil(wait / 1000)} s, longer than --max-retry-wait ${this.options.maxRetryWaitMs} ms`, res.status);
      }
      this.payForWait(shown, res.status, wait);
      this.counts.retries += 1;
      if (sheddingOnly) shed += 1;
      else refusals += 1;
      // The pause is the pacer's: the next acquire() waits it out, with every other request. The
      // first retry goes at once (the next place of a gateway's count is almost never refused);
      // a further one is held back at random, its own, out of step with the requests it met.
      if (refusals + shed > 1) await delay(Math.random() * Math.min(RETRY_JITTER_MAX_MS, Math.max(1, performance.now() - sentWall)));
    }
  }

  /** A refusal counted (by status, and whether it named a wait) and the pace cut: the AIMD decrease of pacer.ts. */
  private noteRefused(res: ApiResponse, wait: number, sentAt: number): void {
    const asked = res.headers['retry-after'] !== undefined && parseRetryAfter(res.headers['retry-after']) !== undefined;
    const key = `${res.status}${asked ? '' : ' (no Retry-After)'}`;
    this.refusedBy.set(key, (this.refusedBy.get(key) ?? 0) + 1);
    this.pacer.onRefused(asked ? wait : undefined, sentAt);
  }

  /**
   * The server went on refusing past what the run may wait: every further request fails at once,
   * and the error says how many requests it refused, with what, and the pace to try instead.
   */
  private refusedBeyondBudget(what: string, status: number): RateLimitError {
    const message = `${what}: ${this.refusalSummary()}`;
    if (this.gone === undefined) {
      this.markGone({ because: this.refusalSummary(), ErrorClass: RateLimitError });
      this.options.onRefusedBeyondBudget?.(message);
    }
    return new RateLimitError(message, status);
  }

  /** How many requests the target refused, with which statuses, and the --max-rate to try. */
  refusalSummary(): string {
    const statuses = [...this.refusedBy].map(([key, n]) => `${n} with ${key}`).join(', ');
    const refused = `the target refused ${this.pacer.refused} request(s) (${statuses}) beyond the wait budget`;
    // Nothing answered at all: the facts say unavailable, not a rate too high.
    if (this.accepted === 0) return `${refused}, and answered none`;
    const rate = this.pacer.currentRate;
    // Half the pace it still refused: a rate it will not refuse, which AIMD then raises if it can.
    const suggested = Math.max(1, Math.floor((Number.isFinite(rate) ? rate : (this.options.maxRate ?? 20)) / 2));
    return `${refused}, after answering ${this.accepted}: it rate-limits; try --max-rate ${suggested}`;
  }

  /** Tells the slots' controller how a request on the wire ended (answered, refused, or no answer), and resizes the slots. */
  #settle(token: number | undefined, end: 'answered' | 'refused' | 'failed'): void {
    const slots = this.#slots;
    if (slots === undefined || token === undefined) return;
    slots[end](token);
    this.#followSlots(slots);
  }

  /** Acts on what the slots' controller now says: idle connections closed while requests stall, the slots resized, a check sent, the next look at the clock set. */
  #followSlots(slots: ConcurrencyController): void {
    // Requests wait on connections the server does not serve: it takes the next only once the one it serves closes.
    if (slots.stalledInFlight > 0) this.#wire.closeIdle();
    if (slots.limit !== this.limiter.size) this.limiter.resize(slots.limit);
    // A stall that may be a request hanging: one request more goes out, on a new connection, to show which.
    if (slots.checkNow()) this.limiter.letOneIn();
    // A stall no answer will show (nothing else in flight is answered): found by the clock instead.
    const due = slots.stallDueAt;
    if (due === undefined || this.#stallTimer !== undefined) return;
    this.#stallTimer = setTimeout(() => {
      this.#stallTimer = undefined;
      slots.checkStall();
      this.#followSlots(slots);
    }, Math.max(1, Math.ceil(due - performance.now()) + 1));
    this.#stallTimer.unref();
  }

  /**
   * An accepted answer saying the window has nothing left (RateLimit remaining 0 and its reset):
   * every request waits for the reset rather than be refused, when the budget and
   * --max-retry-wait allow; otherwise the requests go, and a 429 is handled as any other.
   */
  private pauseForSpentWindow(res: ApiResponse): void {
    const { remaining, resetMs } = readRateHint(res.headers);
    if (remaining !== 0 || resetMs === undefined || resetMs <= 0 || resetMs > this.options.maxRetryWaitMs) return;
    const { deadline } = this.options;
    if (deadline !== undefined && Date.now() + resetMs >= deadline) return;
    this.pacer.pause(resetMs, this.rateLimitBudgetMs);
  }

  /**
   * How long to wait before sending a refused request again, or undefined when the answer is
   * final. Every 429 and every 503 is a refusal, with or without Retry-After (nginx's limit_req
   * answers a burst 503 with an HTML page and no Retry-After): never a rule's answer to judge.
   * Without Retry-After the wait doubles from BACKOFF_BASE_MS, up to BACKOFF_MAX_MS. No jitter:
   * the pause is the pacer's, shared by every request, and the pace it sets spreads the resends.
   */
  private retryDelay(res: ApiResponse, refusals: number): number | undefined {
    if (res.status !== 429 && res.status !== 503) return undefined;
    const header = res.headers['retry-after'];
    const asked = header === undefined ? undefined : parseRetryAfter(header);
    return asked ?? Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** refusals);
  }

  /**
   * Pauses every request for the wait, or throws instead when the wait cannot be paid from the
   * rate-limit budget (wall-clock time blocked) or would end past the run's deadline. A server
   * that asks for a pause the run cannot afford would only throttle the requests sent meanwhile,
   * so the client stops sending altogether.
   */
  private payForWait(shown: string, status: number, wait: number): void {
    const answered = `${shown} answered ${status}`;
    const { deadline } = this.options;
    if (deadline !== undefined && Date.now() + wait >= deadline) {
      throw this.refusedBeyondBudget(`${answered}, asking for a wait of ${wait} ms that would end past the run's time budget`, status);
    }
    const refused = this.pacer.pause(wait, this.rateLimitBudgetMs);
    if (refused) {
      const because = `the rate-limit wait budget of ${this.rateLimitBudgetMs} ms (--max-rate-limit-wait) is spent`;
      const left = Math.floor(refused.left);
      const why = left > 0 ? `asking for a wait of ${wait} ms, more than the ${left} ms left: ${because}` : because;
      throw this.refusedBeyondBudget(`${answered}, ${why}; no further request is sent`, status);
    }
  }

  /** Stops every further request; the first reason stays, since it is the one that explains the rest. */
  private markGone(gone: Gone): void {
    this.gone ??= gone;
    this.pacer.stop();
  }

  /** Stops every further request for a reason the caller found (a token the target stopped accepting), failing them with ErrorClass. */
  giveUp(because: string, ErrorClass: Gone['ErrorClass'] = TransportError): void {
    this.markGone({ because, ErrorClass });
  }

  /** The one place that decides a request is not sent: the run's deadline passed, or the target is gone. */
  private refusal(method: string, shownUrl: string): SuiteError | undefined {
    if (this.options.deadline !== undefined && Date.now() >= this.options.deadline) {
      return new TransportError(`${method} ${shownUrl}: not sent: the run's time budget is spent`, false);
    }
    if (this.gone) {
      const message = `${method} ${shownUrl}: not sent, ${this.gone.because}`;
      return this.gone.ErrorClass === TransportError ? new TransportError(message, false) : new this.gone.ErrorClass(message);
    }
    return undefined;
  }

  /** A transport failure, counted towards giving the target up. */
  private transportFailure(method: string, shownUrl: string, reason: string, elapsedMs: number, overCap = false): TransportError {
    this.failuresInARow += 1;
    if (this.failuresInARow >= GIVE_UP_AFTER_FAILURES) {
      this.markGone({ because: `the target stopped answering (${this.failuresInARow} requests in a row failed, the last: ${reason})`, ErrorClass: TransportError });
    }
    return new TransportError(`${method} ${shownUrl}: ${reason} after ${elapsedMs} ms`, true, overCap);
  }

  /** One attempt: refused when the run cannot send it, else sent within its time box and read into an answer. */
  private async once(attempt: Attempt, connection?: WireConnection): Promise<ApiResponse> {
    const { method, url } = attempt;
    const shownUrl = this.redactor.url(url, this.options.baseUrl);
    const refused = this.refusal(method, shownUrl);
    if (refused) throw refused;
    const out: Outbound = { method, url, shownUrl, headers: this.requestHeaders(attempt.headers), body: attempt.body, prefixOverCap: attempt.prefixOverCap, write: attempt.write };
    const request = this.recordedRequest(out);
    const startedAt = new Date().toISOString();
    this.counted(method, url);
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    const pass = this.largeBodies.claim();
    let raw: RawResponse | undefined;
    try {
      raw = await this.sendInTime(out, elapsed, pass, connection);
      return await this.answerOf(raw, out, { request, startedAt, elapsed, redactor: this.redactor, maxResponseBytes: this.maxResponseBytes }, pass);
    } finally {
      // A read that failed after its pass was entered may have read up to the cap: counted so.
      pass.leave(raw?.bytes.length ?? this.maxResponseBytes);
    }
  }

  /** One request sent: counted, and told to the accounting hook (which may not change anything: its errors are ignored). */
  private counted(method: string, url: string): void {
    this.counts.requests += 1;
    try {
      this.options.onSent?.(method, url);
    } catch {
      // Accounting never costs a request its answer.
    }
  }

  /** The client's own headers, then --header, then the request's: of two with the same name the later wins. */
  private requestHeaders(own: Readonly<Record<string, string | null>> | undefined): Record<string, string> {
    return mergeHeaders(
      {
        accept: 'application/json',
        // The suite reads bodies as they are; compressed ones are still decoded (decode.ts) when a server ignores this.
        'accept-encoding': 'identity',
        'user-agent': this.options.userAgent ?? 'widget-conformance',
      },
      this.options.headers,
      own,
    );
  }

  /** The request as recordings show it: headers and body redacted, whether the body is exact, the credential sent. */
  private recordedRequest(out: Outbound): Exchange['request'] {
    const { body } = out;
    const redact = (text: string): string => this.redactor.text(text);
    const requestBody = body === undefined ? undefined : body.toString();
    const recordedBody = requestBody === undefined ? undefined : recordBody(redact, requestBody, Buffer.byteLength(requestBody), this.redactor.maxMatchLength);
    // Exact only when nothing was cut or hidden and the bytes were valid UTF-8 (a Buffer of other bytes decodes with U+FFFD).
    const bodyExact = recordedBody !== undefined && recordedBody === requestBody && (typeof body === 'string' || Buffer.from(requestBody).equals(body as Buffer));
    return {
      method: out.method,
      url: out.shownUrl,
      headers: this.redactor.requestHeaders(out.headers),
      ...(recordedBody === undefined ? {} : { body: recordedBody, bodyExact }),
      ...(this.options.tokens ? { credential: this.sentCredential(out.url, out.headers) } : {}),
    };
  }

  /**
   * The raw answer, within this request's time box (a GET whose connection was lost goes once
   * more); a failure is a TransportError, counted towards giving the target up unless the body
   * was over the cap.
   */
  private async sendInTime(out: Outbound, elapsed: () => number, pass: BodyPass, connection?: WireConnection): Promise<RawResponse> {
    // One deadline for the whole exchange, a retry included: undici's own timeouts reset on
    // every chunk, so a server that drips a byte a second would otherwise never time out. --timeout,
    // shortened so the request cannot run past the run's deadline; it does not run while a large
    // body waits for its pass, the suite's own wait (time-box.ts).
    const box = new TimeBox(this.options.timeoutMs, this.options.deadline);
    const large = { afterBytes: pass.afterBytes, enter: () => box.stopped(() => pass.enter()) };
    const cap = { maxBytes: this.maxResponseBytes, prefixOverCap: out.prefixOverCap, large };
    const outgoing = { method: out.method, url: out.url, headers: out.headers, body: out.body, signal: box.signal, ...(connection === undefined ? {} : { connection }) };
    try {
      if (out.write) return await this.#wireWriter.write(outgoing, cap).catch((error: unknown) => {
        // An answer that was lost may hide an applied change; only the caller can tell whether it happened.
        throw error instanceof NoResponse && isConnectionLost(error.error) ? new NoResponse(error.error, `not retried: the ${out.method} may have been applied before the connection was lost`) : error;
      });
      return await this.sendRepeatable(out.method, out.url, (fresh) => this.#wire.read(outgoing, cap, fresh));
    } catch (error) {
      // Not a failure of the target's: the suite asked for something the wire never sends.
      if (error instanceof WireRefusal) throw error;
      const reason = describeTransportError(error, { byDeadline: box.byDeadline, timeoutMs: this.options.timeoutMs, maxResponseBytes: this.maxResponseBytes, redact: (text) => this.redactor.text(text) });
      // A body over the cap is an answer, not a silence: it never counts towards giving the target up.
      if (error instanceof OverCap) throw new TransportError(`${out.method} ${out.shownUrl}: ${reason} after ${elapsed()} ms`, true, true);
      throw this.transportFailure(out.method, out.shownUrl, reason, elapsed());
    } finally {
      box.close();
    }
  }

  /** The answer from the raw bytes; a large body (its pass taken while it was read) or an encoded one (it may decode up to the cap) is made under its pass. */
  private async answerOf(raw: RawResponse, out: Outbound, recording: Recording, pass: BodyPass): Promise<ApiResponse> {
    if (raw.bytes.length > LARGE_BODY_BYTES || raw.headers['content-encoding'] !== undefined) await pass.enter();
    return this.digest(raw, out, recording);
  }

  /** The answer, whole or cut at the cap: an answer ends a run of transport failures; a body over the cap once decoded is one. */
  private digest(raw: RawResponse, out: Outbound, recording: Recording): ApiResponse {
    if (raw.truncated) {
      this.failuresInARow = 0;
      return prefixAnswer(raw, recording);
    }
    const answer = wholeAnswer(raw, recording);
    if ('tooLargeAfter' in answer) {
      throw this.transportFailure(out.method, out.shownUrl, `response body larger than ${this.maxResponseBytes} bytes (after decoding ${answer.tooLargeAfter})`, recording.elapsed(), true);
    }
    this.failuresInARow = 0;
    return answer;
  }

  /** The credentials of a request as token references, decided before anything is redacted. */
  private sentCredential(url: string, headers: Readonly<Record<string, string>>) {
    const name = Object.keys(headers).find((k) => k.toLowerCase() === 'authorization');
    const isClean = (text: string): boolean => this.redactor.text(text) === text;
    return describeSentCredential(url, name === undefined ? undefined : headers[name], this.options.tokens ?? [], isClean);
  }

  /**
   * Sends on the client's keep-alive connections. A GET whose connection was reset or closed before the
   * response headers goes once more, on a fresh connection: a server closing an idle keep-alive
   * connection just as the request is written is a race no client timer fully avoids.
   */
  private async sendRepeatable(method: string, url: string, send: (fresh: boolean) => Promise<RawResponse>): Promise<RawResponse> {
    try {
      return await send(false);
    } catch (error) {
      if (!(error instanceof NoResponse) || !isConnectionLost(error.error)) throw error;
      // HEAD and OPTIONS are not sent twice either: only what a GET answers is worth a second try.
      if (!REPEATABLE_METHODS.has(method)) throw new NoResponse(error.error, `not retried: the ${method} is sent once`);
      this.counted(method, url);
      try {
        return await send(true);
      } catch (again) {
        throw again instanceof NoResponse ? new NoResponse(again.error, 'also on a retry over a fresh connection') : again;
      }
    }
  }

  /** Closes the keep-alive connections. */
  async close(): Promise<void> {
    clearTimeout(this.#stallTimer);
    this.#stallTimer = undefined;
    await this.#wire.close();
  }
}

/** The answer, with the 502/504 answer it replaces recorded in its exchange. */
function withEarlier(res: ApiResponse, earlier: ApiResponse | undefined): ApiResponse {
  return earlier === undefined ? res : { ...res, exchange: { ...res.exchange, earlier: earlier.exchange } };
}

/** The answer, with a note on its exchange. */
function withNote(res: ApiResponse, note: string): ApiResponse {
  return { ...res, exchange: { ...res.exchange, note } };
}

export type { ApiResponse } from './answer.ts';
export { decodeUtf8, parseJsonBody, parseRetryAfter, type DecodedBody } from './parse.ts';
