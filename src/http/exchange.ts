/**
 * Recorded HTTP exchanges: what a failure message shows. Everything in an Exchange is
 * already redacted and cut, so it can be printed or written anywhere as it is.
 */
import { REDACTED, type Redactor } from './redact.ts';

/** Bodies are cut at this many bytes in recordings; the note says how much was left out. */
export const RECORDED_BODY_LIMIT = 4096;

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface RecordedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface Exchange {
  readonly request: RecordedRequest;
  readonly response?: RecordedResponse;
  /** Set when no complete response arrived. */
  readonly error?: string;
  readonly durationMs: number;
}

/** Cuts a body for recording, with a note of the total size when it was cut. */
export function cutBody(text: string, totalBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= RECORDED_BODY_LIMIT) return text;
  // Every UTF-16 unit is at least one byte, so this many units hold the cut (one more keeps a surrogate pair whole).
  const bytes = Buffer.from(text.slice(0, RECORDED_BODY_LIMIT + 1), 'utf8');
  const head = bytes.subarray(0, RECORDED_BODY_LIMIT).toString('utf8').replace(/\uFFFD$/, '');
  return `${head}\n… [body cut at ${RECORDED_BODY_LIMIT} bytes of ${totalBytes}]`;
}

/**
 * Redacts and cuts a response body for recording, as cutBody(redactor.text(text)) would, but
 * redacts only the front the cut can show: a body may be 8 MiB. Redaction shrinks a secret
 * to REDACTED, at most by the ratio below, so this front still yields the whole cut; the
 * longest secret more keeps one that straddles its end whole.
 */
export function recordBody(text: string, totalBytes: number, redactor: Redactor): string {
  const shrink = Math.max(1, Math.ceil(redactor.longest / REDACTED.length));
  // One unit more than the cut needs, so that a longer body is always cut, with its note.
  const front = RECORDED_BODY_LIMIT * shrink + 1 + redactor.longest;
  return cutBody(redactor.text(text.length > front ? text.slice(0, front) : text), totalBytes);
}

function headerLines(headers: Readonly<Record<string, string>>): string[] {
  return Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
}

/** Renders an exchange as an HTTP transcript, indented for inclusion in a failure message. */
export function formatExchange(exchange: Exchange, indent = '  '): string {
  const { request, response } = exchange;
  const lines = [`> ${request.method} ${request.url}`, ...headerLines(request.headers).map((l) => `> ${l}`)];
  if (request.body !== undefined) lines.push('>', ...request.body.split('\n').map((l) => `> ${l}`));
  if (response) {
    lines.push(`< HTTP ${response.status} (${exchange.durationMs} ms)`, ...headerLines(response.headers).map((l) => `< ${l}`));
    lines.push('<', ...(response.body === '' ? ['(empty body)'] : response.body.split('\n')).map((l) => `< ${l}`));
  } else {
    lines.push(`< no response: ${exchange.error ?? 'unknown error'}`);
  }
  return lines.map((l) => indent + l).join('\n');
}
