/**
 * One exchange on one undici dispatcher, and nothing more: the request sent, the body read up
 * to the cap (undici's own maxResponseSize would throw the prefix away), the headers
 * normalised. Failures before the response headers come as NoResponse, so the client can tell
 * a request the server may never have seen from one it answered. Retries, deadlines and
 * budgets are the client's (client.ts).
 */
import { request as undiciRequest, type Dispatcher } from 'undici';

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

/** Error codes of a connection the server reset or closed (as opposed to refused, timed out or too large). */
export const CONNECTION_LOST_CODES: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/** What sendOnce sends: undici's request options, the body as given. */
export interface Outgoing {
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: string | Buffer | undefined;
  /** The whole exchange's deadline: undici's own timeouts restart with every chunk. */
  readonly signal: AbortSignal;
}

/** How much of a body is read, and whether a body over it is an answer (its prefix) or an OverCap. */
export interface BodyCap {
  readonly maxBytes: number;
  readonly prefixOverCap: boolean;
}

/** One exchange on one dispatcher; failures before the headers arrive come as NoResponse. */
export async function sendOnce(dispatcher: Dispatcher, url: string, outgoing: Outgoing, cap: BodyCap): Promise<RawResponse> {
  let res: Dispatcher.ResponseData;
  try {
    res = await undiciRequest(url, { ...outgoing, method: outgoing.method as Dispatcher.HttpMethod, dispatcher });
  } catch (error) {
    throw new NoResponse(error);
  }
  const { bytes, truncated } = await readCapped(res.body, cap.maxBytes);
  if (truncated && !cap.prefixOverCap) throw new OverCap('response body over the cap');
  return { status: res.statusCode, headers: normaliseHeaders(res.headers), bytes, truncated };
}

/** Reads a body up to `max` bytes; past that it stops reading (the connection is dropped) and says so. */
export async function readCapped(body: AsyncIterable<Buffer> & { destroy(): unknown }, max: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (chunk.length > max - size) {
      chunks.push(chunk.subarray(0, max - size));
      body.destroy();
      return { bytes: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { bytes: Buffer.concat(chunks), truncated: false };
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
