/**
 * The HTTP client every suite uses: undici request() on one keep-alive Agent, with a
 * per-request deadline, a cap on response size, no redirects, a bound on requests in
 * flight, 429/503 + Retry-After waited out, and every exchange recorded (redacted).
 */
import { Agent, request as undiciRequest } from 'undici';
import { RateLimitError, TransportError } from '../errors.ts';
import { cutBody, recordBody, type Exchange } from './exchange.ts';
import { Limiter } from './limiter.ts';
import { relieve } from '../memory-valve.ts';
import { Redactor } from './redact.ts';

/** Responses larger than this are refused: a server that streams without end must not take the suite's memory. */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/**
 * After this many transport failures in a row the target is taken as gone: every further
 * request fails at once, so a server that stops answering ends the run within about this
 * many timeouts instead of one timeout per remaining request.
 */
export const GIVE_UP_AFTER_FAILURES = 5;

/**
 * Bodies announced larger than this are read and parsed one at a time. Each costs several
 * times its size while it is read, decoded and parsed, so a server that pads every answer to
 * the cap would otherwise multiply that by --concurrency; small bodies never wait.
 */
export const LARGE_BODY_BYTES = 1024 * 1024;

export interface ClientOptions {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly concurrency: number;
  readonly maxRetries: number;
  readonly maxRetryWaitMs: number;
  /** Every token the run knows: redacted wherever an exchange is recorded. */
  readonly secrets: readonly string[];
  readonly maxResponseBytes?: number;
  readonly userAgent?: string;
}

export interface RequestOptions {
  /** Query parameters, appended in order. */
  readonly query?: Readonly<Record<string, string>>;
  /** Extra or overriding headers (e.g. authorization, content-type). */
  readonly headers?: Readonly<Record<string, string>>;
  /** A raw body, sent as it is. */
  readonly body?: string | Buffer;
}

/** A complete HTTP answer, with the raw body for checks and the redacted exchange for messages. */
export interface ApiResponse {
  readonly status: number;
  /** Lower-case header names; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  /** The parsed body when it is valid UTF-8 JSON; undefined otherwise (see jsonError). */
  readonly json: unknown;
  /** Why the body is not JSON, when it is not. */
  readonly jsonError?: string;
  readonly exchange: Exchange;
}

export interface ClientStats {
  requests: number;
  retries: number;
  rateLimitWaitMs: number;
}

/** The suite's HTTP client; one per worker, shared by every test. */
export class HttpClient {
  readonly stats: ClientStats = { requests: 0, retries: 0, rateLimitWaitMs: 0 };
  readonly redactor: Redactor;
  private readonly agent: Agent;
  private readonly limiter: Limiter;
  /** One large body read and parsed at a time (see LARGE_BODY_BYTES). */
  private readonly largeBodies = new Limiter(1);
  private readonly maxResponseBytes: number;
  private failuresInARow = 0;
  private gone: string | undefined;
  /** Set while a throttled request is being retried; new requests wait for it. */
  private throttled: { promise: Promise<void>; release: () => void } | undefined;

  constructor(private readonly options: ClientOptions) {
    this.redactor = new Redactor(options.secrets);
    this.maxResponseBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
    this.limiter = new Limiter(options.concurrency);
    this.agent = new Agent({
      connections: options.concurrency,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connect: { timeout: options.timeoutMs },
      maxResponseSize: this.maxResponseBytes,
    });
  }

  /** The absolute URL of a path under the base URL (path starts with "/"). */
  url(path: string, query?: Readonly<Record<string, string>>): string {
    const url = new URL(this.options.baseUrl + path);
    for (const [k, v] of Object.entries(query ?? {})) url.searchParams.append(k, v);
    return url.toString();
  }

  /** Sends one request; retries 429 (and 503 with Retry-After) within the budget. Throws only SuiteErrors. */
  async request(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse> {
    const url = this.url(path, opts.query);
    // The whole exchange, retries and waits included, holds one slot. While a request the server
    // throttled is being retried, no other request goes out (even one that already has a slot):
    // a 429 asks the client to slow down, and the retry must not compete with fresh requests.
    return this.limiter.run(async () => {
      while (this.throttled) await this.throttled.promise;
      return this.withRetries(method, url, opts);
    });
  }

  private async withRetries(method: string, url: string, opts: RequestOptions): Promise<ApiResponse> {
    let gate: { promise: Promise<void>; release: () => void } | undefined;
    try {
      return await this.attempts(method, url, opts, () => {
        if (gate || this.throttled) return;
        let release!: () => void;
        gate = { promise: new Promise<void>((resolve) => (release = resolve)), release };
        this.throttled = gate;
      });
    } finally {
      if (gate) {
        this.throttled = undefined;
        gate.release();
      }
    }
  }

  private async attempts(method: string, url: string, opts: RequestOptions, onThrottled: () => void): Promise<ApiResponse> {
    for (let attempt = 0; ; attempt += 1) {
      const res = await this.once(method, url, opts);
      const wait = this.retryDelay(res, attempt);
      if (wait === undefined) return res;
      onThrottled();
      if (attempt >= this.options.maxRetries) {
        throw new RateLimitError(
          `${method} ${this.redactor.text(url)} still answered ${res.status} after ${attempt} retries (--max-retries ${this.options.maxRetries})`,
        );
      }
      if (wait > this.options.maxRetryWaitMs) {
        throw new RateLimitError(
          `${method} ${this.redactor.text(url)} answered ${res.status} with Retry-After of ${Math.ceil(wait / 1000)} s, longer than --max-retry-wait ${this.options.maxRetryWaitMs} ms`,
        );
      }
      this.stats.retries += 1;
      this.stats.rateLimitWaitMs += wait;
      // Waiting what the server asked for, not a fixed sleep: a 429 means the request was not processed.
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** How long to wait before retrying, or undefined when the response is final. */
  private retryDelay(res: ApiResponse, attempt: number): number | undefined {
    if (res.status !== 429 && res.status !== 503) return undefined;
    const header = res.headers['retry-after'];
    const asked = header === undefined ? undefined : parseRetryAfter(header);
    if (asked !== undefined) return asked;
    // A 503 without Retry-After is an answer, not a request to come back; a bare 429 gets a short backoff.
    return res.status === 429 ? 250 * 2 ** attempt : undefined;
  }

  private async once(method: string, url: string, opts: RequestOptions): Promise<ApiResponse> {
    if (this.gone) throw new TransportError(`${method} ${this.redactor.text(url)}: not sent, the target stopped answering (${this.gone})`);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.options.userAgent ?? 'widget-conformance',
      ...opts.headers,
    };
    const requestBody = opts.body === undefined ? undefined : opts.body.toString();
    const recordedRequest = {
      method,
      url: this.redactor.text(url),
      headers: this.redactor.headers(headers),
      ...(requestBody === undefined ? {} : { body: cutBody(this.redactor.text(requestBody), Buffer.byteLength(requestBody)) }),
    };
    this.stats.requests += 1;
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    try {
      // One deadline for the whole exchange: undici's own timeouts reset on every chunk, so a
      // server that drips a byte a second would otherwise never time out.
      const res = await undiciRequest(url, {
        method: method as 'GET',
        headers,
        body: opts.body,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      const responseHeaders = normaliseHeaders(res.headers);
      const read = async (): Promise<{ bytes: Buffer; decoded: DecodedBody; parsed: { json: unknown; jsonError?: string } }> => {
        const bytes = Buffer.from(await res.body.arrayBuffer());
        // One decoding serves the text, the JSON and the recording: a body may be 8 MiB, and each copy counts.
        const decoded = decodeUtf8(bytes);
        return { bytes, decoded, parsed: parseJsonBody(bytes, decoded) };
      };
      const large = Number(responseHeaders['content-length']) > LARGE_BODY_BYTES;
      const { bytes, decoded, parsed } = large ? await this.largeBodies.run(() => (relieve(), read())) : await read();
      const { text } = decoded;
      const { json, jsonError } = parsed;
      const exchange: Exchange = {
        request: recordedRequest,
        response: {
          status: res.statusCode,
          headers: this.redactor.headers(responseHeaders),
          body: recordBody(text, bytes.length, this.redactor),
        },
        durationMs: elapsed(),
      };
      this.failuresInARow = 0;
      return { status: res.statusCode, headers: responseHeaders, text, json, ...(jsonError ? { jsonError } : {}), exchange };
    } catch (error) {
      const reason = this.describeTransportError(error);
      this.failuresInARow += 1;
      if (this.failuresInARow >= GIVE_UP_AFTER_FAILURES) this.gone ??= `${this.failuresInARow} requests in a row failed, the last: ${reason}`;
      throw new TransportError(`${method} ${recordedRequest.url}: ${reason} after ${elapsed()} ms`);
    }
  }

  private describeTransportError(error: unknown): string {
    const e = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
    const code = e.code ?? e.cause?.code;
    if (e.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
      return `no complete response within --timeout ${this.options.timeoutMs} ms`;
    }
    if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') return `response body larger than ${this.maxResponseBytes} bytes`;
    if (code === 'ECONNREFUSED') return 'connection refused';
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host name not found (DNS)';
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset or closed before a complete response';
    if (code?.startsWith('ERR_TLS') || code?.includes('CERT') || code === 'EPROTO') return `TLS failure (${code})`;
    return this.redactor.text(`${code ?? e.name ?? 'error'}: ${e.message ?? String(error)}`);
  }

  /** Closes the keep-alive connections. */
  async close(): Promise<void> {
    await this.agent.close();
  }
}

function normaliseHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

// The byte order mark is kept in the text (it is part of what was sent) and skipped for JSON.parse.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const BOM = 0xfeff;

/** A body as text: strictly decoded when it is valid UTF-8, else with replacement characters. */
export interface DecodedBody {
  readonly text: string;
  readonly validUtf8: boolean;
}

/** Decodes a body once, strictly when it can. */
export function decodeUtf8(bytes: Buffer): DecodedBody {
  try {
    return { text: strictUtf8.decode(bytes), validUtf8: true };
  } catch {
    return { text: bytes.toString('utf8'), validUtf8: false };
  }
}

/** JSON.parse of a strictly UTF-8 body (RFC 8259 §8.1), with the reason when it is not JSON. */
export function parseJsonBody(bytes: Buffer, decoded: DecodedBody = decodeUtf8(bytes)): { json: unknown; jsonError?: string } {
  if (bytes.length === 0) return { json: undefined, jsonError: 'the body is empty' };
  if (!decoded.validUtf8) return { json: undefined, jsonError: 'the body is not valid UTF-8' };
  const text = decoded.text.charCodeAt(0) === BOM ? decoded.text.slice(1) : decoded.text;
  try {
    return { json: JSON.parse(text) };
  } catch (error) {
    return { json: undefined, jsonError: `the body is not valid JSON (${(error as Error).message})` };
  }
}

// RFC 9110 §5.6.7: IMF-fixdate, and the obsolete RFC 850 and asctime forms a recipient must accept.
const HTTP_DATE = [
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
  /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT$/,
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/,
];

/** Retry-After as milliseconds (delta-seconds or an HTTP-date, RFC 9110 §10.2.3), or undefined when unreadable. */
export function parseRetryAfter(value: string, now = Date.now()): number | undefined {
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  if (!HTTP_DATE.some((form) => form.test(trimmed))) return undefined;
  // asctime carries no zone; it is GMT by definition.
  const date = Date.parse(/GMT$/.test(trimmed) ? trimmed : `${trimmed} GMT`);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
