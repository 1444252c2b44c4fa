/**
 * Method override: many frameworks let a request say it is another method than the one it was
 * sent with (Rails, Laravel and Symfony read a `_method` body field or query parameter; Express's
 * method-override, ASP.NET and Google's APIs read `X-HTTP-Method-Override`, `X-HTTP-Method` or
 * `X-Method-Override`). A server that honours one turns `POST /widgets?_method=PUT`, or a GET
 * carrying the header, into a write the door never proved: "replace the collection" deleted
 * every widget of an account. So no request of the suite carries one, in any spelling, whatever
 * its method: the HTTP client and the transport both refuse it before a byte leaves.
 */

/** Names (folded by overrideKey) that ask a server to take the request as another method. */
const OVERRIDE_KEYS: ReadonlySet<string> = new Set(['method', 'httpmethod', 'xhttpmethod', 'xmethod', 'methodoverride', 'httpmethodoverride', 'xhttpmethodoverride', 'xmethodoverride']);

/**
 * A name as frameworks compare it: compatibility forms folded (NFKC), case folded, and every
 * character but letters and digits dropped (`_method`, `X-HTTP-Method-Override`,
 * `x_http_method_override`, `_method[]` and `＿ｍｅｔｈｏｄ` all fold to one of OVERRIDE_KEYS).
 */
function overrideKey(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** True for a header, query parameter or body member name that asks for another method. */
export function isOverrideName(name: string): boolean {
  return OVERRIDE_KEYS.has(overrideKey(name));
}

/** One percent-decoding with `+` as a space, as a form or query decoder reads a name; the text as it is when it does not decode. */
function formDecoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** The names a body holds as a JSON object's members and as a form's fields: a server may read it either way, whatever its Content-Type. */
function bodyNames(body: string | Buffer): string[] {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  const names: string[] = [];
  try {
    const json: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    if (json !== null && typeof json === 'object' && !Array.isArray(json)) names.push(...Object.keys(json));
  } catch {
    // Not JSON: read as a form below.
  }
  for (const field of text.split(/[&;]/)) names.push(formDecoded(field.split('=')[0] ?? ''));
  return names;
}

/** A request as the override check reads it. */
export interface OverrideCheck {
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
}

/** Why the request asks for another method than its own (the part that does), or undefined when it does not. */
export function methodOverride(request: OverrideCheck): string | undefined {
  const query = new URL(request.url).search.slice(1);
  for (const field of query === '' ? [] : query.split(/[&;]/)) {
    const name = formDecoded(field.split('=')[0] ?? '');
    if (isOverrideName(name)) return `the query parameter ${JSON.stringify(name.slice(0, 40))}`;
  }
  for (const name of Object.keys(request.headers ?? {})) if (isOverrideName(name)) return `the header ${name.slice(0, 40)}`;
  if (request.body !== undefined) for (const name of bodyNames(request.body)) if (isOverrideName(name)) return `the body field ${JSON.stringify(name.slice(0, 40))}`;
  return undefined;
}
