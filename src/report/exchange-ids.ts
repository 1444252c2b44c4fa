/**
 * The widget ids recorded exchanges name: in a request's URL (`…/widgets/<id>`), or as the id a
 * create's 2xx answer gave. Read from the recordings alone; which of them are the run's own
 * widgets is the ledger's to say (harness/failing-widgets.ts), never these answers'.
 */
import type { Exchange } from '../shared/exchange.ts';

/** The path segment that names one widget: `/widgets/<id>` (ids percent-encoded as the suite sends them). */
const WIDGET_SEGMENT = /\/widgets\/([^/?#]+)/;

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

/** The widget id a request's URL names (`…/widgets/<id>`), decoded; undefined for the collection. */
export function idInUrl(url: string): string | undefined {
  const m = WIDGET_SEGMENT.exec(pathOf(url));
  return m ? decoded(m[1]!) : undefined;
}

/** Whether a request is a create (POST to the collection). */
function isCreate(exchange: Exchange): boolean {
  return exchange.request.method === 'POST' && /\/widgets\/?$/.test(pathOf(exchange.request.url));
}

/** The id a create's 2xx answer gave, as recorded; undefined when it gave none (or the body was cut). */
export function createdId(exchange: Exchange): string | undefined {
  const res = exchange.response;
  if (!isCreate(exchange) || !res || res.status < 200 || res.status > 299) return undefined;
  try {
    const id = (JSON.parse(res.body) as { id?: unknown }).id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Every widget id the exchanges name: in a request's URL, or in a create's answer. */
export function idsOf(exchanges: readonly Exchange[]): string[] {
  const ids = new Set<string>();
  for (const x of exchanges) {
    const named = idInUrl(x.request.url);
    if (named !== undefined) ids.add(named);
    const made = createdId(x);
    if (made !== undefined) ids.add(made);
  }
  return [...ids];
}
