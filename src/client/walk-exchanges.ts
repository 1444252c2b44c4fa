/**
 * Which recorded exchanges a walk keeps. A walk of thousands of pages cannot keep every page's
 * exchange, and the checks cite only a few: the first pages, the last ones (where a walk
 * stopped), and pages with a problem the walk sees as they arrive (a widget seen again, a
 * schema issue, more widgets than the limit). Every other page carries a placeholder, so a
 * message that cites it still shows the request line and the status.
 */
import type { Exchange } from '../http/exchange.ts';

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

/** What is shown of an exchange that was not kept: the request line, the status and a note. */
export function placeholder(request: { readonly method: string; readonly url: string }, status: number, durationMs: number): Exchange {
  const url = request.url.length > PLACEHOLDER_URL_CHARS ? `${request.url.slice(0, PLACEHOLDER_URL_CHARS)}…` : request.url;
  return {
    request: { method: request.method, url, headers: {} },
    response: { status, headers: {}, body: NOT_KEPT_NOTE },
    durationMs,
  };
}

/** The exchanges one walk keeps, within MAX_KEPT_EXCHANGE_BYTES. */
export class ExchangeBudget {
  private bytes = 0;
  private cited = 0;
  /** Kept exchanges by page number: their size, and whether only the last-pages window holds them. */
  private readonly kept = new Map<number, { readonly bytes: number; readonly lastOnly: boolean }>();

  /** Whether page `number` keeps its exchange: while the budget allows. */
  keep(number: number, exchange: Exchange, hasProblem: boolean): boolean {
    const size = exchangeBytes(exchange);
    if (this.bytes + size > MAX_KEPT_EXCHANGE_BYTES) return false;
    const first = number <= KEPT_FIRST_PAGES;
    const cited = !first && hasProblem && this.cited < MAX_CITED_PAGES;
    if (cited) this.cited += 1;
    this.bytes += size;
    this.kept.set(number, { bytes: size, lastOnly: !first && !cited });
    return true;
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
