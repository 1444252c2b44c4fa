/**
 * The bench's record of a run's requests, for the plain sequential checker (tools/sequential.ts):
 * every request the suite sent, in the order the server received it, with what later requests
 * may refer to (the id a create was given, the next_cursor a page handed out).
 *
 * Recorded on the server side so the suite's own code is measured as users run it, untouched.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import type { RequestHandler } from '../src/reference/server.ts';

export interface LoggedRequest {
  readonly method: string;
  /** Path and query, as received (the API prefix included). */
  readonly target: string;
  /** The headers a checker would send: Authorization, Content-Type, Accept. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body, base64 (absent: none). */
  readonly body?: string;
  /** The status the server answered. */
  status?: number;
  /** The id a successful create was given: later paths naming it are re-pointed on replay. */
  id?: string;
  /** The next_cursor a successful list handed out: later queries naming it are re-pointed on replay. */
  cursor?: string;
}

/** Headers a plain checker sends; the rest (user-agent, framing) are its HTTP library's own. */
const KEPT_HEADERS = ['authorization', 'content-type', 'accept'];
/** A recorded answer larger than this is not searched for an id or cursor (padded pages). */
const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * Wraps `inner`: each request's body is read whole, logged, and handed on in a stream of its own,
 * so the service reads exactly what the client sent. The answer is captured up to a bound.
 */
export function recordingHandler(inner: RequestHandler, log: LoggedRequest[]): RequestHandler {
  return {
    async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      const headers = Object.fromEntries(KEPT_HEADERS.flatMap((h) => (typeof req.headers[h] === 'string' ? [[h, req.headers[h]]] : [])));
      const entry: LoggedRequest = { method: req.method ?? 'GET', target: req.url ?? '/', headers, ...(body.length ? { body: body.toString('base64') } : {}) };
      log.push(entry);
      captureAnswer(res, entry);
      // The service reads url, method, headers and the body's data/end events: a stream carrying those is all it needs.
      const replayed = Object.assign(new PassThrough(), { url: req.url, method: req.method, headers: req.headers, socket: req.socket });
      replayed.end(body);
      await inner.handle(replayed as unknown as IncomingMessage, res);
    },
  };
}

/** Notes the id or next_cursor of a successful answer in `entry` once the answer is written. */
function captureAnswer(res: ServerResponse, entry: LoggedRequest): void {
  const written: Buffer[] = [];
  let size = 0;
  const keep = (chunk: unknown): void => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size <= MAX_ANSWER_BYTES) written.push(buffer);
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((...args: unknown[]) => (keep(args[0]), write(...args))) as typeof res.write;
  res.end = ((...args: unknown[]) => (keep(args[0]), end(...args))) as typeof res.end;
  res.once('finish', () => {
    entry.status = res.statusCode;
    if (res.statusCode < 200 || res.statusCode > 299 || size > MAX_ANSWER_BYTES) return;
    let json: unknown;
    try {
      json = JSON.parse(Buffer.concat(written).toString('utf8'));
    } catch {
      return;
    }
    if (json === null || typeof json !== 'object') return;
    const answer = json as { id?: unknown; next_cursor?: unknown };
    if (entry.method === 'POST' && typeof answer.id === 'string') entry.id = answer.id;
    if (entry.method === 'GET' && typeof answer.next_cursor === 'string' && answer.next_cursor) entry.cursor = answer.next_cursor;
  });
}
