/**
 * What the first answer of the target says about the run's setup, before any rule is checked:
 * a list of the account's widgets (§4.1) with a valid token answers 2xx with a JSON page, so a
 * refusal, a 404, a redirect, a body that is not JSON, or a 5xx there means the suite cannot
 * judge the server at this address. Only those: any other answer (a 2xx JSON body of the wrong
 * shape, a 400, a 405) goes to the rules, which say what is wrong with it. Pure, for unit tests.
 */

/** The parts of an answer the probe looks at. */
export interface ProbeAnswer {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  /** The parsed body; undefined when it is not JSON. */
  readonly json: unknown;
  /** The body went on past the suite's cap: `text` is the prefix read. */
  readonly truncated?: true;
}

/** 'listed' includes a 2xx that the rules will find wrong: it is the API answering. */
export type ProbeKind = 'listed' | 'refused' | 'not-found' | 'redirect' | 'not-json' | 'server-error' | 'for-the-rules';

/** How the probe reads one answer to GET {base}/widgets with the account's token. */
export function classify(answer: ProbeAnswer): ProbeKind {
  const { status } = answer;
  if (status === 401 || status === 403) return 'refused';
  // 304 answers a conditional request, which the suite never sends: a server sending it anyway is the rules' business.
  if (status >= 300 && status < 400 && status !== 304) return 'redirect';
  if (status === 404) return 'not-found';
  if (status >= 500) return 'server-error';
  // A body that parses is JSON enough to run the rules on, whatever its Content-Type (FMT-1 judges
  // that). One that does not parse is a setup problem only when it does not claim to be JSON
  // either (a web page, a proxy's text): broken JSON sent as JSON is the API's fault, for FMT-1.
  // A body over the cap that starts as a JSON object or array is the API answering at length: the
  // rules judge its prefix (PAGE-1 counts the complete items), never "cannot reach the target".
  if (status >= 200 && status < 300) return answer.json !== undefined || claimsJson(answer.headers) || startsAsJson(answer) ? 'listed' : 'not-json';
  return 'for-the-rules';
}

/** True for a prefix read of an over-cap body that opens as a JSON object or array. */
function startsAsJson(answer: ProbeAnswer): boolean {
  return answer.truncated === true && /^[\s\ufeff]*[[{]/.test(answer.text.slice(0, 64));
}

/** True when the Content-Type is a JSON media type (application/json, any +json), with any parameters. */
function claimsJson(headers: Readonly<Record<string, string>>): boolean {
  const type = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[^/]+\+json$/.test(type);
}

/** Longest excerpt of a body or a Location shown in a message. */
export const EXCERPT_MAX = 80;
/** Only the start of a body is looked at: it may be megabytes. */
const HEAD_CHARS = 4096;

/** The text as one printable line, cut at `max` characters with an ellipsis. */
export function oneLine(text: string, max = EXCERPT_MAX): string {
  // Control characters (a terminal escape from a hostile server among them) become spaces.
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** What a body that is not JSON looks like, in a few words: an HTML page's title, or its first line. */
export function describeBody(text: string): string {
  const head = text.slice(0, HEAD_CHARS);
  if (head.trim() === '') return 'an empty body';
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(head)?.[1];
  if (title !== undefined && title.trim() !== '') return `an HTML page titled ${JSON.stringify(oneLine(title))}`;
  const first = head.split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
  return `a body starting ${JSON.stringify(oneLine(first))}`;
}

/** The Content-Type as sent, or a note that there was none. */
export function describeContentType(headers: Readonly<Record<string, string>>): string {
  const type = headers['content-type'];
  return type === undefined ? 'no Content-Type' : `Content-Type ${oneLine(type, 60)}`;
}

/**
 * Where a redirect points, for a message: resolved against the request, without user info,
 * query or fragment (a login redirect may carry a session or state token there).
 */
export function showLocation(location: string | undefined, requestUrl: string): { shown: string; base?: string } {
  if (location === undefined || location.trim() === '') return { shown: 'no Location header' };
  let url: URL;
  try {
    url = new URL(location.trim(), requestUrl);
  } catch {
    return { shown: `an unusable Location ${JSON.stringify(oneLine(location, 40))}` };
  }
  const hidden = url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '';
  const plain = `${url.protocol}//${url.host}${url.pathname}`;
  const shown = `${oneLine(plain, 2 * EXCERPT_MAX)}${hidden ? ' (its query, fragment or user info not shown)' : ''}`;
  // A redirect of the list itself, elsewhere, names the base URL to use instead.
  const base = /\/widgets\/?$/.test(url.pathname) && !hidden ? plain.replace(/\/widgets\/?$/, '') : undefined;
  return { shown, ...(base === undefined ? {} : { base }) };
}

/** True when the base URL already ends with the /v1 version segment (§9). */
export function endsWithV1(baseUrl: string): boolean {
  return /\/v1\/?$/i.test(new URL(baseUrl).pathname);
}

/** The version segment a base URL ends with when it is not v1 (`v2`, `V3`), or undefined. */
export function otherVersion(baseUrl: string): string | undefined {
  const match = /\/(v[0-9]+)\/?$/i.exec(new URL(baseUrl).pathname);
  return match && match[1]!.toLowerCase() !== 'v1' ? match[1] : undefined;
}
