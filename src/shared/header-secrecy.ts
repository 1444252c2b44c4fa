/**
 * Which request headers carry secrets. The user says so (--secret-header, WIDGET_SECRET_HEADERS);
 * without a word from them, a header whose name says it is a credential is one: a header
 * value that is no secret (a tenant id, an API version) is evidence a reader needs, and
 * hiding it as a token also hid every copy of its text in the reports.
 */

/**
 * Names that are credentials by convention: Authorization and its proxy form, cookies, and
 * any name holding key, token, secret, password, session, credential or signature
 * (`X-Api-Key`, `X-Auth-Token`, `X-Session-Id`). `WWW-Authenticate` is a challenge, not a secret.
 */
const SECRET_BY_NAME = /^(?:proxy-)?authorization$|^cookie$|key|token|secret|passw(?:or)?d|session|credential|signature/i;

/** True when a request header of this name holds a secret, by default or because the user listed it. */
export function isSecretHeader(name: string, listed: ReadonlySet<string> = new Set()): boolean {
  return SECRET_BY_NAME.test(name) || listed.has(name.toLowerCase());
}

/** The user's list (`X-Tenant, X-Org`, one per flag or comma-separated) as lower-case names. */
export function secretHeaderSet(list: string | undefined): Set<string> {
  return new Set((list ?? '').split(/[\s,]+/).filter((n) => n !== '').map((n) => n.toLowerCase()));
}

/** The values of the configured headers that are secrets: what the redactor must hide. */
export function secretHeaderValues(headers: Readonly<Record<string, string>> | undefined, list: string | undefined): string[] {
  const listed = secretHeaderSet(list);
  return Object.entries(headers ?? {}).flatMap(([name, value]) => (isSecretHeader(name, listed) ? [value] : []));
}
