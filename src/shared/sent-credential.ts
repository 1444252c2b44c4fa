/**
 * Which credential a request carried, recorded as a reference to the environment variable it
 * came from, never as its value: exchanges are recorded redacted, so a replay command built
 * later could not tell `WIDGET_TOKEN` from `WIDGET_SECOND_TOKEN`, nor from a token the suite
 * made up. Decided when the request is sent, while the client still sees the real values.
 */

/** The variables a user's tokens are read from; replay commands reference them by name. */
export type TokenVariable = 'WIDGET_TOKEN' | 'WIDGET_SECOND_TOKEN';

/**
 * How a sent value derives from a token. Only derivations a POSIX shell can rebuild exactly
 * from the variable are expressed (see report/curl.ts); anything else becomes a placeholder.
 */
export type Derivation = 'exact' | 'other-case' | 'shortened';

/** A piece of a sent value: literal text (holding no credential), or a token reference. */
export type SentPart = string | { readonly token: TokenVariable; readonly derivation: Derivation };

/** What a request's credentials were, for replay. */
export interface SentCredential {
  /**
   * The configured token the credentials are or derive from; `none` when none was sent; `other`
   * when they hold no configured token (the suite's made-up `wcs-unknown-…`) or one derived in
   * a way a shell cannot rebuild.
   */
  readonly token: TokenVariable | 'none' | 'other';
  /** The URL as sent, in parts; absent when it held a credential no part can express. */
  readonly url?: readonly SentPart[];
  /** The Authorization header as sent, in parts; null when it held a credential no part can express. */
  readonly authorization?: readonly SentPart[] | null;
}

/** The tokens the client was given, with the variable each is read from. */
export type KnownTokens = ReadonlyArray<{ readonly variable: TokenVariable; readonly value: string }>;

/** ASCII letters swapped in case: what `tr 'A-Za-z' 'a-zA-Z'` does, in any locale with LC_ALL=C. */
export function swapAsciiCase(text: string): string {
  return text.replace(/[A-Za-z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
}

/** The derived forms of a token a shell rebuilds exactly, longest first so a full token beats its prefix. */
function forms(value: string): Array<{ text: string; derivation: Derivation }> {
  const out: Array<{ text: string; derivation: Derivation }> = [{ text: value, derivation: 'exact' }];
  const swapped = swapAsciiCase(value);
  if (swapped !== value) out.push({ text: swapped, derivation: 'other-case' });
  // `${VAR%?}` drops the last character, which is the last byte only when it is ASCII: in the
  // C locale and in UTF-8 alike.
  if (value.length > 1 && value.charCodeAt(value.length - 1) < 0x80) out.push({ text: value.slice(0, -1), derivation: 'shortened' });
  return out;
}

/**
 * `text` split into literal parts and token references, or undefined when a literal part would
 * still hold a credential (`isClean` says whether a text is free of every secret spelling).
 */
export function splitCredentials(text: string, tokens: KnownTokens, isClean: (text: string) => boolean): SentPart[] | undefined {
  const candidates = tokens
    .filter((t) => t.value !== '')
    .flatMap((t) => forms(t.value).map((f) => ({ ...f, token: t.variable })));
  const parts: SentPart[] = [];
  let rest = text;
  for (;;) {
    let best: { at: number; text: string; token: TokenVariable; derivation: Derivation } | undefined;
    for (const c of candidates) {
      const at = rest.indexOf(c.text);
      if (at < 0) continue;
      if (!best || at < best.at || (at === best.at && c.text.length > best.text.length)) best = { at, ...c };
    }
    if (!best) break;
    if (best.at > 0) parts.push(rest.slice(0, best.at));
    parts.push({ token: best.token, derivation: best.derivation });
    rest = rest.slice(best.at + best.text.length);
  }
  if (rest !== '') parts.push(rest);
  return parts.every((p) => typeof p !== 'string' || isClean(p)) ? parts : undefined;
}

/** The credential record of one request: its URL and Authorization header, before redaction. */
export function describeSentCredential(
  url: string,
  authorization: string | undefined,
  tokens: KnownTokens,
  isClean: (text: string) => boolean,
): SentCredential {
  const urlParts = splitCredentials(url, tokens, isClean);
  const authParts = authorization === undefined ? undefined : (splitCredentials(authorization, tokens, isClean) ?? null);
  const referenced = [...(urlParts ?? []), ...(authParts ?? [])].flatMap((p) => (typeof p === 'string' ? [] : [p.token]));
  const unexpressed = urlParts === undefined || authParts === null;
  return {
    token: referenced[0] ?? (unexpressed || authorization !== undefined ? 'other' : 'none'),
    ...(urlParts ? { url: urlParts } : {}),
    ...(authParts === undefined ? {} : { authorization: authParts }),
  };
}
