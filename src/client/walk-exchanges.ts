/**
 * Which recorded exchanges a walk keeps. A walk of thousands of pages cannot keep every page's
 * exchange, and the checks cite only a few: the first pages, the last ones (where a walk
 * stopped), and pages with a problem the walk sees as they arrive (a widget seen again, a
 * schema issue, more widgets than the limit). Every other page carries a placeholder, so a
 * message that cites it still shows the request line and the status.
 */
import type { Exchange, RecordedRequest } from '../shared/exchange.ts';

/** Pages at the start of a walk whose exchanges are kept. */
export const KEPT_FIRST_PAGES = 3;
/** Pages at the end of a walk whose exchanges are kept (a window that moves as the walk goes on). */
export const KEPT_LAST_PAGES = 3;
/** Pages with a problem whose exchanges are kept besides the first and last ones. */
export const MAX_CITED_PAGES = 10;
/** The most bytes of recorded exchanges one walk keeps at any time. */
export const MAX_KEPT_EXCHANGE_BYTES = 256 * 1024;
/** Characters of a request URL a placeholder shows (a URL carries the cursor, which a server may make huge). */
const PLACEHOLDER_URL_CHARS = 300;
/**
 * The most bytes of requests (method, URL, headers, credential record) a walk keeps for the
 * pages whose exchanges went, so that their replays stay exact; bounded apart from bodies.
 */
export const MAX_KEPT_REQUEST_BYTES = 1024 * 1024;
/** The body bytes kept of a page with a problem once the walk's budget is spent: evidence is cut, never dropped. */
export const EVIDENCE_PREFIX_BYTES = 2048;

/** The body a placeholder shows in place of the recorded one. */
export const NOT_KEPT_NOTE =
  `(body not kept: a walk keeps the exchanges of its first ${KEPT_FIRST_PAGES} and last ${KEPT_LAST_PAGES} pages ` +
  `and of up to ${MAX_CITED_PAGES} pages with a problem, at most ${MAX_KEPT_EXCHANGE_BYTES / 1024} KiB)`;

/** The bytes an exchange holds, near enough: its URL, headers and bodies. */
export function exchangeBytes(exchange: Exchange): number {
  const { request, response } = exchange;
  const strings = [
    request.url,
    request.body ?? '',
    ...Object.entries(request.headers).flat(),
    response?.body ?? '',
    ...Object.entries(response?.headers ?? {}).flat(),
    exchange.error ?? '',
  ];
  return strings.reduce((sum, s) => sum + Buffer.byteLength(s), 0);
}

/** The bytes a recorded request holds, near enough. */
export function requestBytes(request: RecordedRequest): number {
  return Buffer.byteLength(request.url) + Object.entries(request.headers).flat().reduce((sum, s) => sum + Buffer.byteLength(s), 0) + JSON.stringify(request.credential ?? {}).length;
}

/**
 * What is shown of an exchange that was not kept: the request exactly as recorded when the walk
 * kept it (see ExchangeBudget.request), else the request line with a note that its replay is
 * partial and why; the status; a note in place of the body.
 */
export function placeholder(request: RecordedRequest | { readonly method: string; readonly url: string }, status: number, durationMs: number): Exchange {
  const whole = 'headers' in request;
  const cut = !whole && request.url.length > PLACEHOLDER_URL_CHARS;
  const url = cut ? `${request.url.slice(0, PLACEHOLDER_URL_CHARS)}…` : request.url;
  const partial =
    `the walk kept no more requests (at most ${MAX_KEPT_REQUEST_BYTES / 1024} KiB of them): its headers and credential are not shown` +
    (cut ? `, and its URL is cut at ${PLACEHOLDER_URL_CHARS} of ${request.url.length} characters` : '');
  return {
    request: whole ? request : { method: request.method, url, headers: {}, partial },
    response: { status, headers: {}, body: NOT_KEPT_NOTE },
    durationMs,
  };
}

/**
 * A page's exchange with its bodies cut to EVIDENCE_PREFIX_BYTES, saying how much was cut: what
 * a page with a problem keeps once the walk's budget is spent.
 */
function prefixOf(exchange: Exchange): Exchange {
  const cut = (body: string): string => {
    const bytes = Buffer.byteLength(body);
    if (bytes <= EVIDENCE_PREFIX_BYTES) return body;
    const head = Buffer.from(body).subarray(0, EVIDENCE_PREFIX_BYTES).toString('utf8').replace(/\uFFFD$/, '');
    return `${head}\n… [recorded body cut at ${EVIDENCE_PREFIX_BYTES} of ${bytes} bytes: the walk's budget of kept exchanges (${MAX_KEPT_EXCHANGE_BYTES / 1024} KiB) was spent]`;
  };
  const { response } = exchange;
  return response ? { ...exchange, response: { ...response, body: cut(response.body) } } : exchange;
}

/** The exchanges one walk keeps, within MAX_KEPT_EXCHANGE_BYTES. */
export class ExchangeBudget {
  private bytes = 0;
  private cited = 0;
  /** Kept exchanges by page number: their size, and whether only the last-pages window holds them. */
  private readonly kept = new Map<number, { readonly bytes: number; readonly lastOnly: boolean }>();

  private requestBytes = 0;

  /**
   * What page `number` keeps of its exchange: all of it while the budget allows; for a page with
   * a problem past the budget, its bodies' bounded prefixes (evidence is never dropped for size
   * alone); else nothing.
   */
  keep(number: number, exchange: Exchange, hasProblem: boolean): Exchange | undefined {
    const first = number <= KEPT_FIRST_PAGES;
    const citable = !first && hasProblem && this.cited < MAX_CITED_PAGES;
    let kept = exchange;
    let size = exchangeBytes(exchange);
    if (this.bytes + size > MAX_KEPT_EXCHANGE_BYTES) {
      if (!citable) return undefined;
      kept = prefixOf(exchange);
      size = exchangeBytes(kept);
    }
    if (citable) this.cited += 1;
    this.bytes += size;
    this.kept.set(number, { bytes: size, lastOnly: !first && !citable });
    return kept;
  }

  /** The request of a page, kept whole for its replay while MAX_KEPT_REQUEST_BYTES allows; else undefined. */
  request(exchange: Exchange): RecordedRequest | undefined {
    const { body: _body, ...request } = exchange.request;
    const size = requestBytes(request);
    if (this.requestBytes + size > MAX_KEPT_REQUEST_BYTES) return undefined;
    this.requestBytes += size;
    return request;
  }

  /** Once page `number` has arrived: the page that left the last-pages window, if its exchange is to go now. */
  expire(number: number): number | undefined {
    const leaving = number - KEPT_LAST_PAGES;
    const entry = this.kept.get(leaving);
    if (!entry?.lastOnly) return undefined;
    this.kept.delete(leaving);
    this.bytes -= entry.bytes;
    return leaving;
  }
}
