/**
 * A curl command that sends a recorded request again, for POSIX sh. Built from the request
 * alone (server text never reaches it), with each token written as the environment variable
 * it was read from (`"${WIDGET_TOKEN}"`), so the command can be printed anywhere and works
 * however the tokens were given, once they are exported.
 */
import type { Exchange } from '../shared/exchange.ts';
import { REDACTED } from '../shared/redact.ts';
import type { Derivation, SentPart, TokenVariable } from '../shared/sent-credential.ts';

/**
 * What replay commands use for a credential the suite sent but a shell cannot rebuild from the
 * variable (a value derived from a token in a way sh has no expression for): printing it would
 * print the token, so the command asks for it instead.
 */
export const PLACEHOLDER_VARIABLE = 'BAD_CREDENTIAL';

/** Single-quoted for POSIX sh: every byte literal, a `'` closed, escaped and reopened. */
export function shQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A token reference as a double-quoted shell expression that rebuilds exactly what was sent. */
function tokenExpression(token: TokenVariable, derivation: Derivation): string {
  switch (derivation) {
    case 'exact': return `"\${${token}}"`;
    // POSIX: remove the shortest suffix matching `?`, i.e. the last character (ASCII: see sent-credential.ts).
    case 'shortened': return `"\${${token}%?}"`;
    case 'other-case': return `"$(printf '%s' "$${token}" | LC_ALL=C tr 'A-Za-z' 'a-zA-Z')"`;
  }
}

/** One shell word from parts: literals single-quoted, tokens as expressions, side by side. */
export function shellWord(parts: readonly SentPart[], prefix = ''): string {
  // Neighbouring literals become one quoted string: `'authorization: Bearer x'`, not `'authorization: ''Bearer x'`.
  const merged: SentPart[] = [];
  for (const p of [prefix, ...parts]) {
    const last = merged.at(-1);
    if (typeof p === 'string' && typeof last === 'string') merged[merged.length - 1] = last + p;
    else merged.push(p);
  }
  const words = merged.map((p) => (typeof p === 'string' ? (p === '' ? '' : shQuote(p)) : tokenExpression(p.token, p.derivation)));
  const word = words.join('');
  return word === '' ? "''" : word;
}

/**
 * A byte string as a printf format, between single quotes: printable ASCII as it is (`%` and
 * `\` doubled), every other byte as a three-digit octal escape, which POSIX printf writes as
 * that byte. Newlines, control characters, NUL, quotes and any UTF-8 come through exactly,
 * and no byte can end the quoting or reach the terminal raw.
 */
export function printfFormat(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    if (c === '%') out += '%%';
    else if (c === '\\') out += '\\\\';
    else if (byte >= 0x20 && byte < 0x7f && c !== "'") out += c;
    else out += `\\${byte.toString(8).padStart(3, '0')}`;
  }
  return `'${out}'`;
}

/** The environment variables a command reads (its tokens and, where one is needed, the placeholder). */
export function variablesOf(exchange: Exchange): string[] {
  const c = exchange.request.credential;
  const parts = [...(c?.url ?? []), ...(c?.authorization ?? [])];
  const vars = new Set<string>(parts.flatMap((p) => (typeof p === 'string' ? [] : [p.token])));
  if (c?.authorization === null) vars.add(PLACEHOLDER_VARIABLE);
  return [...vars];
}

/** The curl command, lines joined with ` \` continuations; notes as `#` comment lines above it. */
export function curlCommand(exchange: Exchange): string {
  const { request } = exchange;
  const c = request.credential;
  const notes: string[] = [];
  // Said first: a reader must know before running it that this is not the request as sent.
  if (request.partial !== undefined) notes.push(`# partial replay, not the request as sent: ${request.partial}`);
  const args = ['curl', '--silent', '--show-error', '--include', '--path-as-is', '--globoff'];
  // curl's HEAD by --request waits for a body that never comes; --head sends the same request.
  args.push(request.method === 'HEAD' ? '--head' : `--request ${shQuote(request.method)}`);
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() === 'authorization') continue;
    if (value.includes(REDACTED)) notes.push(`# ${name} held a secret, shown as ${REDACTED}: put the value you configured (--header / WIDGET_HEADERS) in its place`);
    // `Name;` is curl's way to send a header with an empty value (`Name:` removes it).
    args.push(`--header ${shQuote(value === '' ? `${name};` : `${name}: ${value}`)}`);
  }
  const auth = Object.entries(request.headers).find(([name]) => name.toLowerCase() === 'authorization');
  if (auth) {
    if (c?.authorization) args.push(`--header ${shellWord(c.authorization, `${auth[0]}: `)}`);
    else if (c?.authorization === null) {
      notes.push(`# ${PLACEHOLDER_VARIABLE}: the suite sent a value derived from a token that no shell expression rebuilds; set it to the header value to send`);
      args.push(`--header ${shQuote(`${auth[0]}: `)}"$${PLACEHOLDER_VARIABLE}"`);
    } else {
      notes.push('# the credential of this request was not recorded: the Authorization header below is the redacted one');
      args.push(`--header ${shQuote(`${auth[0]}: ${auth[1]}`)}`);
    }
  }
  const hasType = Object.keys(request.headers).some((k) => k.toLowerCase() === 'content-type');
  let input = '';
  if (request.body !== undefined) {
    // Without a Content-Type of its own, curl would add a form one the suite never sent.
    if (!hasType) args.push(`--header 'Content-Type:'`);
    args.push('--data-binary @-');
    input = `printf ${printfFormat(request.body)} | `;
    if (request.bodyExact !== true) notes.push('# the body is the recorded one (cut at 4 KiB, or a credential in it hidden), not exactly the one the suite sent');
  }
  if (c?.url) args.push(shellWord(c.url));
  else {
    if (c) notes.push('# the URL held a credential no shell expression rebuilds: it is shown redacted');
    args.push(shQuote(request.url));
  }
  return [...notes, `${input}${args.join(' \\\n  ')}`].join('\n');
}

/** The command under a heading that names the variables to export, indented for a failure message. */
export function replayLines(exchange: Exchange, indent: string): string[] {
  const vars = variablesOf(exchange);
  const heading = vars.length ? `curl (export ${vars.join(' and ')} first):` : 'curl:';
  return [`${indent}${heading}`, ...curlCommand(exchange).split('\n').map((l) => `${indent}  ${l}`)];
}
