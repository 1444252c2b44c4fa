/**
 * The one module that reaches the network: it alone imports undici (test/unit/network.test.ts
 * reads every module of src/ and suites/ with TypeScript's parser and refuses any other way onto
 * the network). It sends one exchange on one of the client's connections, reads the body up to the cap
 * (undici's own maxResponseSize would throw the prefix away) and normalises the headers.
 * Failures before the response headers come as NoResponse, so the client can tell a request the
 * server may never have seen from one it answered. Retries, deadlines and budgets are the
 * client's (client.ts).
 *
 * openWire gives two ways onto the same connections: a wire that sends only the safe methods (GET, HEAD,
 * OPTIONS), and a writer that sends any other. There is no raw sender to import: only the HTTP
 * client opens a wire (the network test holds every other module to that), and it hands its
 * writer on once, to the ownership ledger's door (client.ts takeWriter).
 */
import { Agent, request as undiciRequest, type Dispatcher } from 'undici';
import { methodOverride } from '../shared/method-override.ts';

/** What undici answered, before decoding. */
export interface RawResponse {
  readonly status: number;
  /** Lower-case header names; repeated headers joined with ", ". */
  readonly headers: Record<string, string>;
  readonly bytes: Buffer;
  /** The body went on past the cap; `bytes` is its prefix. */
  readonly truncated: boolean;
}

/** Thrown (after the headers) for a body over the cap when no prefix was asked for; described like undici's own. */
export class OverCap extends Error {
  readonly code = 'UND_ERR_RES_EXCEEDED_MAX_SIZE';
}

/** A transport failure before the response headers arrived: the server may not have seen the request. */
export class NoResponse extends Error {
  constructor(
    readonly error: unknown,
    readonly note?: string,
  ) {
    super('no response');
  }
}

/** A request the wire will not send (a write on the read side, a method override): the suite's own mistake, never a transport failure. */
export class WireRefusal extends Error {}

/** Error codes of a connection the server reset or closed (as opposed to refused, timed out or too large). */
export const CONNECTION_LOST_CODES: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/** A request as it leaves: the method, the absolute URL, the headers and the body as given. */
export interface Outgoing {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Buffer | undefined;
  /** The whole exchange's deadline: undici's own timeouts restart with every chunk. */
  readonly signal: AbortSignal;
  /** Told which of the client's connections the exchange went out on (the adaptive slots' stall detector reads it). */
  readonly connection?: WireConnection;
}

/**
 * The connection an exchange went out on, filled in by the wire: the client's connections are
 * numbered in the order they opened, a reconnection of a slot included. Undefined while the
 * exchange waits for its connection to open, and for the repeat over a fresh connection (not numbered).
 */
export interface WireConnection {
  id: number | undefined;
}

/** How much of a body is read, and whether a body over it is an answer (its prefix) or an OverCap. */
export interface BodyCap {
  readonly maxBytes: number;
  readonly prefixOverCap: boolean;
  /** The client's bound on large bodies held at once (large-bodies.ts): a body waits for it before it grows large. */
  readonly large?: LargeBodyGate;
}

/** What makes a body large, and the wait for the pass a large body holds (large-bodies.ts BodyPass). */
export interface LargeBodyGate {
  /** Bytes a body may reach without a pass. */
  readonly afterBytes: number;
  /** Resolves once the body may grow past afterBytes; nothing more of it is read meanwhile (it waits in the socket). */
  enter(): Promise<void>;
}

/** Methods that change nothing (RFC 9110 §9.2.1), exactly as written: the only ones a wire sends. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The connections of one client and what bounds them. */
export interface WireOptions {
  readonly timeoutMs: number;
  /** Connections kept to the origin: one per slot of the client (the most it may have), the one freed last taken first. */
  readonly connections: number;
  /** How long an idle connection is kept, and the margin taken off a server's Keep-Alive hint. */
  readonly idleMs: number;
  readonly hintMarginMs: number;
  /** PEM text of the CA certificates trusted for https, instead of Node's defaults. */
  readonly ca?: string;
}

/** Sends the safe methods; anything else is refused before a byte leaves. */
export interface Wire {
  /** One exchange; `fresh` sends it on a new connection (the one repeat of a GET whose connection was lost). */
  read(out: Outgoing, cap: BodyCap, fresh?: boolean): Promise<RawResponse>;
  /**
   * Closes the connections no exchange is using now: a server that serves one connection at a time
   * moves on to a request waiting on another only when the one it serves closes.
   */
  closeIdle(): void;
  /** Closes every connection. */
  close(): Promise<void>;
}

/** Sends a write (any method but the safe ones): the capability the client hands to the door alone. */
export interface WireWriter {
  write(out: Outgoing, cap: BodyCap): Promise<RawResponse>;
}

/**
 * The connections of a wire, one per slot of the client, each an undici Agent of one connection.
 * An exchange takes the connection freed last of those no exchange is using: n requests in flight
 * use n connections, one request at a time always the same one, and a connection beyond them idles
 * out. undici's own pool spreads even one request at a time over several connections (the one just
 * answered is not free again until a later tick), and a server with one worker that serves one
 * connection at a time (keep-alive) leaves a request on another connection waiting until the first
 * closes. Freed last, not lowest first: after such a wait the connection just answered is the one
 * that server now serves, and the one before it has closed; a request on the lowest would open a
 * new connection and wait again, until the served one idles out.
 *
 * Each connection gets a number when it opens, in the order they open (undici's 'connect', emitted
 * just before the first request is written on it): an exchange is told the number of the one it
 * went out on (WireConnection).
 */
class Connections {
  readonly #options: Agent.Options;
  readonly #agents: Agent[];
  /** Whether each agent has been used since it was made: only those can hold a connection. */
  readonly #used: boolean[];
  /** Exchanges on each connection (more than one only when more run at once than there are connections). */
  readonly #uses: number[];
  /** The connections no exchange is using, the one freed last at the end. */
  readonly #free: number[];
  /** The number of each agent's open connection (undefined while it has none). */
  readonly #open: Array<number | undefined>;
  /** The exchanges on each agent to tell of the connection it opens for them. */
  readonly #told: Array<Set<WireConnection>>;
  /** Connections opened so far: the last number given. */
  #opened = 0;
  /**
   * Agents whose connection ended other than by idling out (an abort, a body left unread, the
   * server's `Connection: close`): undici 7's Agent of one connection then opens a new socket for
   * every later request and closes it after the answer, so such an agent is replaced before its
   * next exchange (transport.test.ts shows the sockets).
   */
  readonly #broken: boolean[];

  constructor(count: number, options: Agent.Options) {
    this.#options = { ...options, connections: 1 };
    const slots = Array.from({ length: Math.max(1, count) }, (_, i) => i);
    this.#open = slots.map(() => undefined);
    this.#told = slots.map(() => new Set());
    this.#agents = [];
    for (const i of slots) this.#agents.push(this.#agent(i));
    this.#used = this.#agents.map(() => false);
    this.#broken = this.#agents.map(() => false);
    this.#uses = this.#agents.map(() => 0);
    // The first taken is the first connection.
    this.#free = this.#agents.map((_, i) => this.#agents.length - 1 - i);
  }

  /** A new agent for slot i, numbering the connections it opens while it is the slot's. */
  #agent(i: number): Agent {
    const agent = new Agent(this.#options);
    agent.on('connect', () => {
      if (this.#agents[i] !== agent) return;
      const id = (this.#opened += 1);
      this.#open[i] = id;
      for (const told of this.#told[i]!) told.id = id;
    });
    agent.on('disconnect', (_origin, _targets, error: { code?: string } | undefined) => {
      if (this.#agents[i] !== agent) return;
      this.#open[i] = undefined;
      // Its own idle timeout (keepAliveTimeout) leaves the agent sound; any other end does not.
      if (error?.code !== 'UND_ERR_INFO' || !/idle|keep.?alive/i.test(String((error as Error).message))) this.#broken[i] = true;
    });
    return agent;
  }

  /** Runs one exchange on the connection freed last (the least used, should every one be in use), telling `connection` which one it is. */
  async on(exchange: (dispatcher: Dispatcher) => Promise<RawResponse>, connection?: WireConnection): Promise<RawResponse> {
    const i = this.#free.pop() ?? this.#uses.indexOf(Math.min(...this.#uses));
    if (this.#broken[i] && this.#uses[i] === 0) this.#replace(i);
    this.#uses[i]! += 1;
    this.#used[i] = true;
    if (connection !== undefined) {
      connection.id = this.#open[i];
      this.#told[i]!.add(connection);
    }
    const agent = this.#agents[i]!;
    try {
      const res = await exchange(agent);
      // A body left unread drops its connection, and so does the server after Connection: close:
      // known now, before the agent says so (after the next exchange may have taken it).
      if ((res.truncated || /(^|,)\s*close\s*(,|$)/i.test(res.headers['connection'] ?? '')) && this.#agents[i] === agent) this.#broken[i] = true;
      return res;
    } catch (error) {
      // An aborted or failed exchange takes its connection with it.
      if (this.#agents[i] === agent) this.#broken[i] = true;
      throw error;
    } finally {
      if (connection !== undefined) this.#told[i]!.delete(connection);
      this.#uses[i]! -= 1;
      if (this.#uses[i] === 0) this.#free.push(i);
    }
  }

  /** Closes the connections no exchange is using (each agent replaced by a new one, which connects when next taken). */
  closeIdle(): void {
    for (const i of this.#free) if (this.#used[i]) this.#replace(i);
  }

  /** Slot i gets a new agent, which connects when next taken; the old one, no exchange on it, is destroyed. */
  #replace(i: number): void {
    const old = this.#agents[i]!;
    this.#agents[i] = this.#agent(i);
    this.#open[i] = undefined;
    this.#used[i] = false;
    this.#broken[i] = false;
    // Nothing is in flight on it: destroying only ends its socket (a graceful close of an agent
    // whose exchange was aborted opens a connection once more); a failure there is nothing to report.
    old.destroy().catch(() => undefined);
  }

  close(): Promise<void> {
    return Promise.all(this.#agents.map((a) => a.close())).then(() => undefined);
  }
}

/** A wire and its writer over one set of connections: opened by the HTTP client only. */
export function openWire(options: WireOptions): { readonly wire: Wire; readonly writer: WireWriter } {
  const limits = {
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connect: { timeout: options.timeoutMs, ...(options.ca === undefined ? {} : { ca: options.ca }) },
    // No maxResponseSize: exchange() reads at most the cap itself, so that an over-cap list answer keeps its prefix.
  };
  const connections = new Connections(options.connections, {
    ...limits,
    keepAliveTimeout: options.idleMs,
    keepAliveMaxTimeout: options.idleMs,
    keepAliveTimeoutThreshold: options.hintMarginMs,
  });
  // One connection per request: for the single repeat of a GET whose keep-alive connection was lost.
  const fresh = new Agent({ ...limits, pipelining: 0 });
  const wire: Wire = {
    read: (out, cap, onFresh = false) => {
      if (!SAFE_METHODS.has(out.method)) return Promise.reject(new WireRefusal(`${out.method} refused by the wire: it sends only GET, HEAD and OPTIONS; a write goes through the ownership ledger's door`));
      if (!onFresh) return connections.on((d) => exchange(d, out, cap), out.connection);
      // Not one of the numbered connections: the exchange no longer says which it is on.
      if (out.connection !== undefined) out.connection.id = undefined;
      return exchange(fresh, out, cap);
    },
    closeIdle: () => connections.closeIdle(),
    close: async () => {
      await Promise.all([connections.close(), fresh.close()]);
    },
  };
  const writer: WireWriter = {
    write: (out, cap) => {
      if (SAFE_METHODS.has(out.method)) return Promise.reject(new WireRefusal(`${out.method} is not a write: it goes through the wire`));
      return connections.on((d) => exchange(d, out, cap), out.connection);
    },
  };
  return { wire: Object.freeze(wire), writer: Object.freeze(writer) };
}

/** One exchange on one dispatcher; failures before the headers arrive come as NoResponse. */
async function exchange(dispatcher: Dispatcher, out: Outgoing, cap: BodyCap): Promise<RawResponse> {
  // The client checked it already; the last place a request passes checks again (method-override.ts).
  const asks = methodOverride(out);
  if (asks !== undefined) throw new WireRefusal(`${out.method} refused by the wire: it asks for another method than its own (${asks})`);
  let res: Dispatcher.ResponseData;
  try {
    res = await undiciRequest(out.url, { method: out.method as Dispatcher.HttpMethod, headers: out.headers, body: out.body, signal: out.signal, dispatcher });
  } catch (error) {
    throw new NoResponse(error);
  }
  const { bytes, truncated } = await readCapped(res.body, cap.maxBytes, cap.large, declaredLength(res.headers['content-length']));
  if (truncated && !cap.prefixOverCap) throw new OverCap('response body over the cap');
  return { status: res.statusCode, headers: normaliseHeaders(res.headers), bytes, truncated };
}

/**
 * Reads a body up to `max` bytes; past that it stops reading (the connection is dropped) and says
 * so. A body about to grow past `large.afterBytes` waits for its pass first; from then on, when
 * its length was declared within the cap, its bytes go into one buffer of that length as they
 * come, rather than a list of chunks copied once more at the end (twice the body at once).
 */
export async function readCapped(body: AsyncIterable<Buffer> & { destroy(): unknown }, max: number, large?: LargeBodyGate, declared?: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  const received = new Received();
  let isLarge = false;
  for await (const chunk of body) {
    const part = chunk.length > max - received.size ? chunk.subarray(0, max - received.size) : chunk;
    if (large !== undefined && !isLarge && received.size + part.length > large.afterBytes) {
      isLarge = true;
      await large.enter();
      if (declared !== undefined && declared <= max) received.reserve(declared);
    }
    received.add(part);
    if (part !== chunk) {
      body.destroy();
      return { bytes: received.bytes(), truncated: true };
    }
  }
  return { bytes: received.bytes(), truncated: false };
}

/** A Content-Length as a number of bytes; undefined when absent or not one plain number (repeated, signed, …). */
function declaredLength(header: string | string[] | undefined): number | undefined {
  return typeof header === 'string' && /^\d{1,15}$/.test(header.trim()) ? Number(header.trim()) : undefined;
}

/** The bytes of a body as they come: a list of chunks, or, once reserve() knows its length, one buffer of that length. */
class Received {
  size = 0;
  private chunks: Buffer[] = [];
  private whole: Buffer | undefined;

  /** From here on the bytes go into one buffer of `length` bytes, those so far copied into it. */
  reserve(length: number): void {
    if (length < this.size) return;
    this.whole = Buffer.allocUnsafe(length);
    let at = 0;
    for (const chunk of this.chunks) at += chunk.copy(this.whole, at);
    this.chunks = [];
  }

  add(chunk: Buffer): void {
    if (this.whole !== undefined && this.size + chunk.length <= this.whole.length) {
      chunk.copy(this.whole, this.size);
    } else {
      // More than the declared length (the connection would fail first): the chunk list takes over.
      if (this.whole !== undefined) this.chunks = [this.whole.subarray(0, this.size)];
      this.whole = undefined;
      this.chunks.push(chunk);
    }
    this.size += chunk.length;
  }

  /** Every byte received, in one buffer (never a byte the server did not send). */
  bytes(): Buffer {
    if (this.whole !== undefined) return this.size === this.whole.length ? this.whole : this.whole.subarray(0, this.size);
    return Buffer.concat(this.chunks, this.size);
  }
}

/** True for an error of a connection the server reset or closed (the code on the error or its cause). */
export function isConnectionLost(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | undefined;
  const code = e?.code ?? e?.cause?.code;
  return code !== undefined && CONNECTION_LOST_CODES.has(code);
}

/** Header names lower-cased, repeated headers joined with ", ", absent values dropped. */
export function normaliseHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
