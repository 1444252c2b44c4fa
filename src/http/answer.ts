/**
 * From the bytes a server sent to the answer a check sees: the body decoded (Content-Encoding,
 * the cap applying to each decoded stage), read once as UTF-8, parsed as JSON, and the exchange
 * recorded redacted. An answer cut at the cap keeps its prefix for json-prefix.ts instead.
 */
import { decodeBody } from './decode.ts';
import { recordBody, type Exchange } from '../shared/exchange.ts';
import { decodeUtf8, parseJsonBody } from './parse.ts';
import type { Redactor } from '../shared/redact.ts';
import type { RawResponse } from './transport.ts';

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
  /** Set when the body was larger than the cap and only its first maxResponseBytes were read (RequestOptions.prefixOverCap). */
  readonly truncated?: true;
  readonly exchange: Exchange;
}

/** What the answer is recorded with: the request as recorded, when it went, and the cap. */
export interface Recording {
  readonly request: Exchange['request'];
  /** When the request was sent (ISO 8601). */
  readonly startedAt: string;
  /** Milliseconds since the request was sent, read as the answer is recorded. */
  readonly elapsed: () => number;
  readonly redactor: Redactor;
  readonly maxResponseBytes: number;
}

/**
 * A whole body as an answer; or, when decoding it would pass the cap (a compression bomb), the
 * coding that overflowed: the caller counts that as a transport failure.
 */
export function wholeAnswer(raw: RawResponse, recording: Recording): ApiResponse | { readonly tooLargeAfter: string } {
  const { redactor } = recording;
  const decoded = decodeBody(raw.bytes, raw.headers['content-encoding'], recording.maxResponseBytes);
  if (decoded.kind === 'too-large') return { tooLargeAfter: decoded.coding };
  // An undecodable body is the server's fault, not the transport's: the JSON checks fail with the reason.
  const bytes = decoded.kind === 'decoded' ? decoded.bytes : raw.bytes;
  // One UTF-8 decoding serves the text, the JSON and the recording: a body may be 8 MiB, and each copy counts.
  const utf8 = decodeUtf8(bytes);
  const { json, jsonError } = decoded.kind === 'decoded' ? parseJsonBody(bytes, utf8) : { json: undefined, jsonError: decoded.reason };
  const redact = (text: string): string => redactor.text(text);
  const exchange: Exchange = {
    request: recording.request,
    response: {
      status: raw.status,
      headers: redactor.headers(raw.headers),
      body: decoded.kind === 'decoded' ? recordBody(redact, utf8.text, bytes.length, redactor.maxMatchLength) : `(${raw.bytes.length} bytes not shown: ${decoded.reason})`,
    },
    durationMs: recording.elapsed(),
    startedAt: recording.startedAt,
  };
  return { status: raw.status, headers: raw.headers, text: utf8.text, json, ...(jsonError ? { jsonError } : {}), exchange };
}

/** An answer cut at the cap: no JSON, the prefix as text for json-prefix.ts (none while still encoded), and the reason. */
export function prefixAnswer(raw: RawResponse, recording: Recording): ApiResponse {
  const { redactor, maxResponseBytes } = recording;
  const durationMs = recording.elapsed();
  const text = raw.bytes.toString('utf8');
  const coded = raw.headers['content-encoding'] === undefined ? '' : ` (still encoded as ${raw.headers['content-encoding']})`;
  const jsonError = `the body is larger than the cap of ${maxResponseBytes} bytes: only its first ${maxResponseBytes} bytes were read${coded}`;
  const redact = (t: string): string => redactor.text(t);
  const exchange: Exchange = {
    request: recording.request,
    response: { status: raw.status, headers: redactor.headers(raw.headers), body: recordBody(redact, text, raw.bytes.length, redactor.maxMatchLength) },
    durationMs,
    startedAt: recording.startedAt,
  };
  return { status: raw.status, headers: raw.headers, text: coded === '' ? text : '', json: undefined, jsonError, truncated: true, exchange };
}
