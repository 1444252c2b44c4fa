/**
 * Passwords in URLs (`scheme://user:password@host`): found in any text and any scheme, and
 * taken leniently from a base URL the URL parser would refuse, so it can be redacted too.
 */

/** Longest user or password part taken for URL credentials: bounds every match's length. */
export const URL_USERINFO_MAX = 256;

/** Longest scheme name looked for before `://`. */
const SCHEME_MAX = 32;

/** Longest text a URL password match covers, from its scheme to its `@`. */
export const URL_CREDENTIALS_MAX_LENGTH = SCHEME_MAX + ':\\/\\/'.length + 2 * (URL_USERINFO_MAX + 1);

// The password runs to the last `@` before the host, so one containing `@` is hidden whole.
// `\/\/` as JSON writes it counts too. The scheme is checked behind the `://` rather than
// looked for first: starting at every letter of a long text would be ten times slower.
const SEPARATOR = '(?:\\\\?\\/){2}';
const URL_CREDENTIALS = new RegExp(
  `:${SEPARATOR}(?<=[a-z][a-z0-9+.-]{0,${SCHEME_MAX - 1}}:${SEPARATOR})` +
    `[^\\s/?#:]{0,${URL_USERINFO_MAX}}:(?<password>[^\\s/?#]{1,${URL_USERINFO_MAX}})@`,
  'dgi',
);

/** The [start, end) offsets of every URL password in `text`. */
export function urlPasswordSpans(text: string): Array<[number, number]> {
  return [...text.matchAll(URL_CREDENTIALS)].map((m) => m.indices!.groups!.password! as [number, number]);
}

/** The text with the password of every `scheme://user:password@` replaced by `replacement`. */
export function hideUrlPasswords(text: string, replacement: string): string {
  let out = '';
  let from = 0;
  for (const [start, end] of urlPasswordSpans(text)) {
    out += text.slice(from, start) + replacement;
    from = end;
  }
  return out + text.slice(from);
}

/**
 * The password of a raw base URL, even one no parser accepts (`http://u:p a@ss@host/v1`):
 * everything between the first `:` after `scheme://` and the last `@` before the first `/`.
 */
export function urlPassword(raw: string): string | undefined {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/]*)/i.exec(raw.trim());
  const authority = m?.[1] ?? '';
  const at = authority.lastIndexOf('@');
  const colon = authority.indexOf(':');
  if (at === -1 || colon === -1 || colon > at) return undefined;
  const password = authority.slice(colon + 1, at);
  return password === '' ? undefined : password;
}
