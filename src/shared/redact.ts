/**
 * Redaction: no token ever reaches output. Secrets leave the data, never the finished text:
 * every string that can carry a credential (the URL, headers and body of a request, every
 * string from the server) passes through a Redactor as it is recorded, before any formatter
 * sees it. The Redactor finds each secret in every spelling a server or renderer may give it
 * (see credential-spellings.ts) and every URL password. The suite's own text (numbers,
 * versions, the base URL the user gave, rule statements) never passes through it: a short
 * token like `1` or `test` would otherwise blank digits and words and corrupt the reports.
 */
import { base64Pattern, escapedPatterns, FUZZY_MIN_LENGTH, type Pattern } from './credential-spellings.ts';
import { isSecretHeader } from './header-secrecy.ts';
import { hideUrlPasswords, URL_CREDENTIALS_MAX_LENGTH, urlPassword, urlPasswordSpans } from './url-credentials.ts';

export { urlPassword };

/** What every hidden credential is replaced with. */
export const REDACTED = '[REDACTED]';

/** A [start, end) range of a text. */
export type Span = [number, number];

/** The text with the password of every `scheme://user:password@` hidden, in any scheme. */
export function redactUrlCredentials(text: string): string {
  return hideUrlPasswords(text, REDACTED);
}

/** Replaces every occurrence of any configured secret, in any spelling, with [REDACTED]. */
export class Redactor {
  private patterns: readonly RegExp[] = [];
  /** The patterns of secrets of FUZZY_MIN_LENGTH or more: found in finished output, they are a leak, never chance. */
  private reliable: readonly RegExp[] = [];
  /** Request header names the user marked secret (lower case), besides the ones secret by name. */
  private readonly secretHeaders: ReadonlySet<string>;
  /** The longest text one credential match can cover: how far past a cut a credential may reach. */
  maxMatchLength = URL_CREDENTIALS_MAX_LENGTH;
  private readonly known = new Set<string>();

  constructor(secrets: Iterable<string>, secretHeaders: ReadonlySet<string> = new Set()) {
    this.secretHeaders = secretHeaders;
    this.add(secrets);
  }

  /** True when some secret is too short to be told apart from chance text (see FUZZY_MIN_LENGTH). */
  get hasShortSecret(): boolean {
    return [...this.known].some((s) => [...s].length < FUZZY_MIN_LENGTH);
  }

  /** Learns more secrets (a token a --token-command renewed during the run). */
  add(secrets: Iterable<string>): void {
    const unique = [...secrets].filter((s) => s.length > 0 && !this.known.has(s));
    if (unique.length === 0) return;
    for (const s of unique) this.known.add(s);
    // A token sent as a query parameter is percent-encoded before any server echoes it, and
    // may then be escaped again (`%2F` as `\u00252F`, or base64 of the URL): so the encoded
    // forms are secrets of their own, spelled every way too.
    const spellingsOf = (list: readonly string[]): Pattern[] =>
      [...new Set(list.flatMap((s) => [s, encodeURIComponent(s), formEncoded(s)]))]
        .flatMap((s) => [...escapedPatterns(s), base64Pattern(s)])
        .filter((p): p is Pattern => p !== undefined);
    const patterns = spellingsOf(unique);
    const long = spellingsOf(unique.filter((s) => [...s].length >= FUZZY_MIN_LENGTH));
    this.reliable = [...this.reliable, ...long.map((p) => new RegExp(p.source, 'g'))];
    // One expression per pattern, not one for all: V8 runs a very large alternation far more
    // slowly (8 MiB took 9 s joined, 0.2 s apart), and the spans found are merged anyway.
    // Measured on 8 MiB with the two reference tokens (Node 20, one core): prose or JSON
    // 30 ms, random base64 60 ms, backslashes (an escape started everywhere) 80 ms, and
    // "ref-token-" repeated (a near miss everywhere) 150 ms.
    this.patterns = [...this.patterns, ...patterns.map((p) => new RegExp(p.source, 'g'))];
    this.maxMatchLength = Math.max(this.maxMatchLength, ...patterns.map((p) => p.maxLength));
  }

  /** The ranges of `value` that hold a credential, sorted, overlapping ones merged. */
  spans(value: string, patterns: readonly RegExp[] = this.patterns): Span[] {
    const found: Span[] = urlPasswordSpans(value);
    for (const re of patterns) {
      re.lastIndex = 0;
      for (let m = re.exec(value); m; m = re.exec(value)) {
        found.push([m.index, m.index + m[0].length]);
        // Restart just after the match's start, not its end: an occurrence that begins inside
        // this one (a secret that overlaps itself, another base64 core) must be found too, or
        // its tail would show.
        re.lastIndex = m.index + 1;
      }
    }
    return merge(found);
  }

  /** The text with every secret replaced. */
  text(value: string): string {
    return replaceSpans(value, this.spans(value), value.length);
  }

  /**
   * The text with every secret of FUZZY_MIN_LENGTH or more replaced: for a stream (the
   * console) that cannot fail after the fact, where a short token's letters are the suite's own words.
   */
  longSecretsText(value: string): string {
    return replaceSpans(value, this.spans(value, this.reliable), value.length);
  }

  /**
   * Where finished output holds a secret long enough to be one for certain: the tripwire of
   * every report writer. Undefined when there is none; never edits anything.
   */
  leak(output: string): { at: number; line: number } | undefined {
    for (const re of this.reliable) {
      re.lastIndex = 0;
      const m = re.exec(output);
      if (m) return { at: m.index, line: output.slice(0, m.index).split('\n').length };
    }
    return undefined;
  }

  /**
   * A URL the suite sent: the base URL the user gave stays as given (its password hidden),
   * what follows it (paths with ids the server chose, query values) passes through text().
   */
  url(value: string, baseUrl: string | undefined): string {
    if (baseUrl !== undefined && value.startsWith(baseUrl)) return redactUrlCredentials(baseUrl) + this.text(value.slice(baseUrl.length));
    return this.text(value);
  }

  /**
   * Headers the suite sent: a secret header (Authorization-like, a cookie, a key or token by
   * name, or one the user marked) has its whole value replaced, Authorization keeping its
   * scheme; the rest are shown as sent, with any secret they happen to hold replaced.
   */
  requestHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      const lower = name.toLowerCase();
      if (lower === 'authorization' || lower === 'proxy-authorization') out[name] = this.authorization(value);
      else if (isSecretHeader(name, this.secretHeaders)) out[name] = REDACTED;
      else out[name] = this.text(value);
    }
    return out;
  }

  /**
   * An Authorization header value with its credentials hidden: the scheme stays visible,
   * because which scheme was sent is what an auth failure message needs to show.
   */
  authorization(value: string): string {
    const m = /^(\S+)(\s+)(.*)$/s.exec(value);
    if (!m) return this.text(value);
    const credentials = m[3] ?? '';
    return credentials === '' ? `${m[1]}${m[2]}` : `${m[1]} ${REDACTED}`;
  }

  /** Headers with Authorization hidden and every secret replaced in the rest. */
  headers(headers: Readonly<Record<string, string>>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      out[name] = name.toLowerCase() === 'authorization' ? this.authorization(value) : this.text(value);
    }
    return out;
  }
}

/**
 * The first `limitChars` characters of `text`, redacted, reading only a window a little
 * longer than that: a credential that straddles the cut is replaced whole, never shown in part.
 */
export function redactBounded(redactor: Redactor, text: string, limitChars: number): { text: string; cut: boolean } {
  if (text.length <= limitChars) return { text: redactor.text(text), cut: false };
  // Any credential starting before the cut ends within maxMatchLength of it, so it is matched
  // in the window exactly as it would be in the whole text.
  const window = text.slice(0, limitChars + redactor.maxMatchLength);
  const highSurrogate = /[\uD800-\uDBFF]/.test(text.charAt(limitChars - 1));
  const end = highSurrogate ? limitChars - 1 : limitChars;
  return { text: replaceSpans(window, redactor.spans(window), end), cut: true };
}

function formEncoded(secret: string): string {
  return new URLSearchParams({ s: secret }).toString().slice('s='.length);
}

function merge(spans: Span[]): Span[] {
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const out: Span[] = [];
  for (const [start, end] of spans) {
    const last = out.at(-1);
    // Overlapping spans become one; touching ones stay two, as two secrets side by side.
    if (last && start < last[1]) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}

/** `text` up to `end` with each span replaced; a span that starts before `end` is replaced whole. */
function replaceSpans(text: string, spans: readonly Span[], end: number): string {
  let out = '';
  let from = 0;
  for (const [start, stop] of spans) {
    if (start >= end) break;
    out += text.slice(from, start) + REDACTED;
    from = stop;
  }
  return out + text.slice(from, Math.max(from, end));
}
