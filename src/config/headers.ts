/**
 * Extra headers for every request (--header, WIDGET_HEADERS): gateway keys, tenant ids. Their
 * values are secrets (a gateway key is a credential), so no message here ever echoes one.
 */
import { ConfigError } from '../errors.ts';
import { isOverrideName } from '../shared/method-override.ts';

/** An RFC 9110 field name: a token. */
const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Headers the suite sets itself or that frame the message: a configured one would override the
 * per-request Authorization or Content-Type (the auth and malformed-request checks vary them),
 * or break the framing undici owns.
 */
const REFUSED: Readonly<Record<string, string>> = {
  authorization: 'tokens have their own options (--token, --second-token, --token-command)',
  'content-type': 'the suite sets Content-Type per request (some checks send none or a wrong one on purpose)',
  'content-length': 'the HTTP client frames each message itself',
  'transfer-encoding': 'the HTTP client frames each message itself',
  connection: 'the HTTP client manages its connections',
  'keep-alive': 'the HTTP client manages its connections',
  upgrade: 'the HTTP client manages its connections',
  te: 'the HTTP client manages its connections',
  trailer: 'the HTTP client frames each message itself',
  expect: 'the HTTP client frames each message itself',
};

/** `Name: value` parsed, or why it is refused (never quoting the value). */
export function parseHeaderLine(line: string): { name: string; value: string } | { error: string } {
  const colon = line.indexOf(':');
  // No part of the line is echoed: without a colon there is no telling the name from the value.
  if (colon === -1) return { error: 'must be "Name: value" (no colon found)' };
  const name = line.slice(0, colon).replace(/^[ \t]+|[ \t]+$/g, '');
  // Only spaces and tabs around the value are dropped (HTTP's optional whitespace), so a CR or LF is caught, not trimmed.
  const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
  if (!FIELD_NAME.test(name)) return { error: `has an invalid header name ${JSON.stringify(name.slice(0, 60))} (letters, digits and !#$%&'*+-.^_\`|~ only)` };
  const refused = REFUSED[name.toLowerCase()];
  if (refused !== undefined) return { error: `cannot set ${name}: ${refused}` };
  if (isOverrideName(name)) return { error: `cannot set ${name}: it asks a server to take each request for another method (method override), which would turn a read into a write no proof covers` };
  // CR or LF would split the header into two (request smuggling); other controls are invalid in a field value.
  if (/[\r\n]/.test(value)) return { error: `${name} value must not contain CR or LF` };
  if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value)) return { error: `${name} value must not contain control characters` };
  if (value === '') return { error: `${name} has an empty value` };
  return { name, value };
}

/** The --header values (or WIDGET_HEADERS lines) as headers, refusing a bad line or a name given twice. */
export function parseHeaders(lines: readonly string[], from: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const parsed = parseHeaderLine(line);
    if ('error' in parsed) throw new ConfigError(`${from} ${parsed.error}`);
    const same = Object.keys(headers).find((name) => name.toLowerCase() === parsed.name.toLowerCase());
    if (same !== undefined) throw new ConfigError(`${from} sets ${parsed.name} more than once`);
    headers[parsed.name] = parsed.value;
  }
  return headers;
}
