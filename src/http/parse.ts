/** Reading what a server sent: a body as UTF-8 and JSON (RFC 8259), a Retry-After (RFC 9110). */

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A body as text, and whether its bytes were valid UTF-8 (the text then has U+FFFD for the bad bytes). */
export interface DecodedBody {
  readonly text: string;
  readonly validUtf8: boolean;
}

/** Decodes a body once, strictly first (RFC 8259 §8.1). */
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
  try {
    return { json: JSON.parse(decoded.text) };
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
