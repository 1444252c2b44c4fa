/**
 * Recorded HTTP exchanges: what a failure message shows. Everything in an Exchange is
 * already redacted and cut, so it can be printed or written anywhere as it is.
 */
import { REDACTED, type Redactor } from './redact.ts';
import type { SentCredential } from './sent-credential.ts';

/** Bodies are cut at this many bytes in recordings; the note says how much was left out. */
export const RECORDED_BODY_LIMIT = 4096;

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** True when `body` is byte for byte what was sent (not cut, nothing redacted): a replay sends it as it is. */
  readonly bodyExact?: boolean;
  /** Which token the request carried, as a variable name: for replay commands (report/curl.ts). */
  readonly credential?: SentCredential;
  /** Set when this is not the whole request as sent (a walk kept only part of it): why a replay of it is partial. */
  readonly partial?: string;
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
  /** When the request was sent (ISO 8601): the HAR export's startedDateTime. */
  readonly startedAt?: string;
  /** The 502/504 answer to the same request sent once before this one (a GET is reproduced once before a rule is blamed). */
  readonly earlier?: Exchange;
  /** What the suite did with this answer that the exchange alone does not show (a 502 to a write not sent again). */
  readonly note?: string;
}

/**
 * Characters redacted past the recording limit: a secret that straddles the cut (up to this
 * long) is still seen whole by the redactor, so no part of it reaches the recording.
 */
export const REDACTION_MARGIN_CHARS = 4 * 1024;

/**
 * A body as recorded: only a prefix window is redacted (not megabytes), then cut to
 * RECORDED_BODY_LIMIT with the note of the total size.
 */
export function recordBody(redact: (s: string) => string, text: string, totalBytes: number, longestSecretSpelling = 0): string {
  // The margin must hold the longest spelling of any secret whole, however long the tokens are.
  const enough = RECORDED_BODY_LIMIT + Math.max(REDACTION_MARGIN_CHARS, longestSecretSpelling);
  let windowChars = enough;
  for (;;) {
    const window = text.slice(0, windowChars);
    const redacted = redact(window);
    if (window.length === text.length) return cutBody(redacted, totalBytes);
    // The window's last characters may hold the start of a secret the redactor could not see
    // whole; they must lie past the cut. Redaction can shrink the window (a body full of long
    // secrets), so widen it until a full margin stays beyond the limit.
    if (redacted.length >= enough) return cutBody(redacted, totalBytes);
    windowChars *= 2;
  }
}

/** Cuts a body for recording, with a note of the total size when it was cut. */
export function cutBody(text: string, totalBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= RECORDED_BODY_LIMIT) return text;
  // Every UTF-16 unit is at least one byte, so this many units hold the cut (one more keeps a surrogate pair whole).
  const bytes = Buffer.from(text.slice(0, RECORDED_BODY_LIMIT + 1), 'utf8');
  const head = bytes.subarray(0, RECORDED_BODY_LIMIT).toString('utf8').replace(/\uFFFD$/, '');
  return `${head}\n… [body cut at ${RECORDED_BODY_LIMIT} bytes of ${totalBytes}]`;
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
  const first = exchange.earlier?.response;
  if (first) lines.push(`(sent twice: the first answer was HTTP ${first.status} (${exchange.earlier!.durationMs} ms), and a ${first.status} is sent once more before a rule judges it; the answer above is the second)`);
  if (exchange.note) lines.push(`(${exchange.note})`);
  return lines.map((l) => indent + l).join('\n');
}
