/**
 * The raw side of the interoperability profile (docs/profile.md): what one answer the rules
 * already asked for shows about a choice the spec leaves open. A worker turns each answer into
 * facts (entry key, value) and tallies them; the runner merges the workers' tallies and sums
 * them up (profile.ts). Recording only: nothing here ever judges or throws into a check.
 */
import type { Exchange } from '../shared/exchange.ts';
import type { Observation, Unsent } from '../shared/observation.ts';

/** Tally keys that carry why an entry was not observed (never an entry of their own). */
export const NOTE_PREFIX = 'note:';

/** Longest value kept: a server's error code or field name is shown, never trusted with memory. */
const MAX_VALUE = 80;
/** Most distinct values kept per entry; the rest are counted together. */
export const MAX_VALUES = 24;
export const OTHER_VALUES = '(other values)';
/** The value of a fact whose answer showed nothing of the kind (no extra field, no rate-limit field, …). */
export const NONE = 'none';
/** Most extra field names listed per object kind. */
const MAX_FIELDS = 8;

const WIDGET_FIELDS = new Set(['id', 'name', 'description', 'created_at']);
const PAGE_FIELDS = new Set(['data', 'has_more', 'next_cursor']);
const ERROR_FIELDS = new Set(['code', 'message', 'request_id']);
const RATE_LIMIT_HEADERS = ['ratelimit', 'ratelimit-policy', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

type Fact = readonly [key: string, value: string];

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const is2xx = (s: number): boolean => s >= 200 && s < 300;
const is4xx = (s: number): boolean => s >= 400 && s < 500;

/** A server-given text cut to a bounded, printable length. */
export function bounded(text: string): string {
  const flat = text.replace(/[\u0000-\u001f\u007f]/g, '?');
  return flat.length > MAX_VALUE ? `${flat.slice(0, MAX_VALUE - 1)}…` : flat;
}

/** The character classes of a text, e.g. "0-9 a-f -" (hex digits reported as a-f when no other letter occurs). */
export function alphabetOf(text: string): string {
  const parts: string[] = [];
  if (/[0-9]/.test(text)) parts.push('0-9');
  if (/[a-z]/.test(text)) parts.push(/[g-z]/.test(text) ? 'a-z' : 'a-f');
  if (/[A-Z]/.test(text)) parts.push(/[G-Z]/.test(text) ? 'A-Z' : 'A-F');
  const others = [...new Set(text.replace(/[0-9a-zA-Z]/g, ''))].sort();
  parts.push(...others.slice(0, 6).map((c) => (/[\u0021-\u007e]/.test(c) ? c : `U+${c.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')}`)));
  return parts.join(' ');
}

/** A recognised id format: UUID (with its version), ULID, numeric, or "other". */
export function idFormat(id: string): string {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-([0-9a-f])[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/i.exec(id);
  if (uuid) return `UUID v${uuid[1]}`;
  if (/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/i.test(id)) return 'ULID';
  if (/^\d{1,20}$/.test(id)) return 'numeric';
  const prefixed = /^([a-z]{1,12})_[0-9A-Za-z]+$/.exec(id);
  if (prefixed) return `prefixed (${prefixed[1]}_…)`;
  return 'other';
}

/** Fractional digits and offset style of an RFC 3339 timestamp. */
export function timestampStyle(value: string): { precision: string; offset: string } | undefined {
  const m = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})$/.exec(value);
  if (!m) return undefined;
  const digits = m[1]?.length ?? 0;
  const precision = digits === 0 ? 'seconds' : digits <= 3 ? 'milliseconds' : digits <= 6 ? 'microseconds' : 'nanoseconds';
  const zone = m[2] as string;
  const offset = zone === 'Z' ? 'Z' : zone === 'z' ? 'z (lower case)' : zone === '+00:00' ? '+00:00' : zone === '-00:00' ? '-00:00' : 'a local offset (±hh:mm)';
  return { precision: `${precision}${digits > 0 && digits !== 3 && digits !== 6 && digits !== 9 ? ` (${digits} digits)` : ''}`, offset };
}

function extraFields(kind: string, value: unknown, known: ReadonlySet<string>): Fact[] {
  if (!isObject(value)) return [];
  const extra = Object.keys(value).filter((k) => !known.has(k)).slice(0, MAX_FIELDS);
  return [['response.extra-fields', extra.length ? `${kind}: ${extra.map(bounded).sort().join(', ')}` : NONE]];
}

function widgetFacts(w: unknown): Fact[] {
  if (!isObject(w)) return [];
  const facts: Fact[] = [...extraFields('Widget', w, WIDGET_FIELDS)];
  const id = w.id;
  if (typeof id === 'string' && id !== '') {
    facts.push(['id.length', String([...id].length)], ['id.alphabet', alphabetOf(id)], ['id.format', idFormat(id)]);
  } else if (typeof id === 'number') {
    facts.push(['id.format', 'a JSON number']);
  }
  if (typeof w.created_at === 'string') {
    const style = timestampStyle(w.created_at);
    if (style) facts.push(['created_at.precision', style.precision], ['created_at.offset', style.offset]);
  }
  return facts;
}

/** The order a page's items are in, judged on created_at then id; undefined when the page says nothing (fewer than 2 items, all equal). */
export function pageOrder(items: readonly unknown[]): string | undefined {
  const widgets = items.filter(isObject);
  if (widgets.length < 2) return undefined;
  const direction = (keys: Array<string | number>): 'ascending' | 'descending' | 'unordered' | undefined => {
    let up = false;
    let down = false;
    for (let i = 1; i < keys.length; i += 1) {
      if (keys[i]! > keys[i - 1]!) up = true;
      if (keys[i]! < keys[i - 1]!) down = true;
    }
    if (up && down) return 'unordered';
    return up ? 'ascending' : down ? 'descending' : undefined;
  };
  const times = widgets.map((w) => (typeof w.created_at === 'string' ? Date.parse(w.created_at) : Number.NaN));
  const byTime = times.some(Number.isNaN) ? undefined : direction(times);
  if (byTime === 'ascending') return 'oldest first';
  if (byTime === 'descending') return 'newest first';
  // Two widgets created in one tick say nothing of the order (random ids are in some order by
  // chance, a third of three); four or more in id order, or no timestamps to go by, let the ids say.
  if (byTime === undefined && !times.some(Number.isNaN) && widgets.length < 4) return undefined;
  const ids = widgets.map((w) => (typeof w.id === 'string' || typeof w.id === 'number' ? w.id : ''));
  const byId = direction(ids);
  if (byId === 'ascending') return 'by id, ascending';
  if (byId === 'descending') return 'by id, descending';
  return byTime === 'unordered' || byId === 'unordered' ? 'no order seen' : undefined;
}

/** How a page says whether it is the last: next_cursor absent, null, "", or a string. */
function cursorStyle(page: Record<string, unknown>): string {
  if (!('next_cursor' in page)) return 'next_cursor absent';
  const c = page.next_cursor;
  if (c === null) return 'next_cursor null';
  if (c === '') return 'next_cursor ""';
  return typeof c === 'string' ? 'next_cursor still a string' : `next_cursor ${c === undefined ? 'undefined' : typeof c}`;
}

function cursorShape(cursor: string): string {
  if (/^\d+$/.test(cursor)) return 'numeric';
  if (/^[0-9a-f]+$/i.test(cursor)) return 'hex';
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(cursor)) return 'UUID';
  if (/^[A-Za-z0-9_-]+$/.test(cursor)) return 'base64url';
  if (/^[A-Za-z0-9+/]+=*$/.test(cursor)) return 'base64';
  return 'other';
}

function listFacts(o: Observation): Fact[] {
  const page = o.json;
  if (is4xx(o.status) && o.situation === 'limit-0') return [['list.limit-0', `refused (${o.status})`]];
  if (statusSituation(o) === 'limit-refused') return [['list.above-max', `refused (${o.status})`]];
  if (!is2xx(o.status) || !isObject(page) || !Array.isArray(page.data)) return [];
  const facts: Fact[] = [...extraFields('page', page, PAGE_FIELDS), ...page.data.slice(0, 1).flatMap(widgetFacts)];
  const size = page.data.length;
  const more = page.has_more === true;
  const order = pageOrder(page.data);
  if (order && o.situation === 'ok') facts.push(['list.order', order]);
  if (typeof page.next_cursor === 'string' && page.next_cursor !== '' && more) {
    facts.push(['list.cursor-shape', `${cursorShape(page.next_cursor)}, ${page.next_cursor.length}`]);
  }
  if (page.has_more === false) facts.push(['list.last-page', cursorStyle(page)]);
  const limit = o.limit === undefined ? undefined : Number(o.limit);
  if (o.limit === undefined && o.situation === 'ok' && !o.paged) facts.push(['list.default-page-size', more ? `exactly ${size}` : `at least ${size}`]);
  if (limit !== undefined && Number.isSafeInteger(limit) && limit > 0) {
    if (size === limit) facts.push(['list.largest-limit-honoured', String(limit)]);
  }
  // Only a limit far above any sensible maximum tells clamping apart from a short page.
  if (limit !== undefined && limit >= 1000 && more && !o.paged) facts.push(['list.above-max', `served a page of ${size} with has_more true (clamped)`]);
  if (limit !== undefined && limit >= 1000 && !more && !o.paged) facts.push(['list.above-max', `accepted (${o.status}), the whole list on one page`]);
  if (o.limit === '0') facts.push(['list.limit-0', size === 0 ? `an empty page (${o.status})` : `a page of ${size} (${o.status}): treated as no limit or a minimum`]);
  return facts;
}

function createFacts(o: Observation): Fact[] {
  const facts: Fact[] = [];
  const accepted = is2xx(o.status);
  const verdict = accepted ? `accepted (${o.status})` : `refused (${o.status})`;
  if (o.situation === 'empty-name') facts.push(['create.empty-name', verdict]);
  if (o.situation === 'no-content-type') facts.push(['create.no-content-type', verdict]);
  if (o.situation === 'other-content-type') facts.push(['create.other-content-type', verdict]);
  if (o.situation === 'unknown-field') {
    const extra = isObject(o.sent) ? Object.keys(o.sent).filter((k) => k !== 'name' && k !== 'description') : [];
    const echoed = accepted && isObject(o.json) && extra.some((k) => k in (o.json as Record<string, unknown>));
    facts.push(['create.unknown-field', accepted ? `${verdict}, the field ${echoed ? 'echoed' : 'dropped'}` : verdict]);
  }
  if (accepted && isObject(o.sent) && !('description' in o.sent) && isObject(o.json)) {
    const d = (o.json as Record<string, unknown>).description;
    facts.push(['create.absent-description', !('description' in o.json) ? 'absent' : d === '' ? '""' : d === null ? 'null' : typeof d === 'string' ? 'a default text' : typeof d]);
  }
  return facts;
}

function deleteBody(o: Observation): string {
  if (o.exchange.response?.body === '' || (o.jsonError !== undefined && o.exchange.response?.body.trim() === '')) return 'empty';
  if (o.jsonError !== undefined) return 'not JSON';
  const body = o.json;
  if (isObject(body) && 'id' in body && 'name' in body) return 'the deleted Widget';
  if (isObject(body)) return `a JSON object (${Object.keys(body).slice(0, 4).map(bounded).join(', ') || 'empty'})`;
  return `JSON ${body === null ? 'null' : Array.isArray(body) ? 'array' : typeof body}`;
}

function errorFacts(o: Observation): Fact[] {
  const body = o.json;
  if (!is4xx(o.status) || !isObject(body)) return [];
  const facts: Fact[] = [...extraFields('Error', body, ERROR_FIELDS), ['error.request_id', typeof body.request_id === 'string' ? 'present' : 'absent']];
  if (typeof body.code === 'string') facts.push([`error.code.${o.situation}`, bounded(body.code)]);
  return facts;
}

function headerFacts(o: Observation): Fact[] {
  const facts: Fact[] = [];
  const named = RATE_LIMIT_HEADERS.filter((h) => o.headers[h] !== undefined);
  facts.push(['response.rate-limit', named.length ? named.join(', ') : NONE]);
  const encoding = o.headers['content-encoding'];
  facts.push(['response.compression', encoding === undefined || encoding.toLowerCase() === 'identity' ? NONE : bounded(encoding)]);
  return facts;
}

/** ASCII letters in lower case: how ids differing only in case are told apart from other ids. */
const asciiLower = (text: string): string => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * What a retrieve of one of the account's own ids with the case of its letters swapped shows:
 * not found (case-sensitive), the same widget (case-insensitive), or something else.
 */
function caseFacts(o: Observation): Fact[] {
  if (o.op !== 'retrieve' || o.situation !== 'case-swapped') return [];
  if (is4xx(o.status)) return [['id.case-sensitive', 'case-sensitive']];
  if (!is2xx(o.status)) return [['id.case-sensitive', `neither: answered ${o.status}`]];
  const id = isObject(o.json) ? o.json.id : undefined;
  const same = typeof id === 'string' && o.id !== undefined && asciiLower(id) === asciiLower(o.id);
  return [['id.case-sensitive', same ? 'case-insensitive' : `neither: answered ${o.status} without that widget`]];
}

/** The notes an unsent request leaves on the entries it would have shown. */
export function notesOf(u: Unsent): Fact[] {
  const keys = [`status.${u.op}.${u.situation}`, ...(u.op === 'retrieve' && u.situation === 'case-swapped' ? ['id.case-sensitive'] : [])];
  return keys.map((key) => [`${NOTE_PREFIX}${key}`, `not sent: ${u.reason}`]);
}

/** A first page with a positive limit the server refused: its maximum, not an ordinary list. */
function statusSituation(o: Observation): string {
  return o.op === 'list' && o.situation === 'ok' && !o.paged && o.limit !== undefined && is4xx(o.status) ? 'limit-refused' : o.situation;
}

/** Every fact one answer shows. */
export function factsOf(o: Observation): Fact[] {
  if (o.status === 0) return [];
  const facts: Fact[] = [[`status.${o.op}.${statusSituation(o)}`, String(o.status)], ...headerFacts(o), ...errorFacts(o)];
  if (o.op === 'list') facts.push(...listFacts(o));
  if (o.op === 'create') facts.push(...createFacts(o));
  facts.push(...caseFacts(o));
  if ((o.op === 'create' || o.op === 'retrieve') && is2xx(o.status)) facts.push(...widgetFacts(o.json));
  if (o.op === 'delete' && is2xx(o.status) && o.situation === 'existing') facts.push(['delete.body', deleteBody(o)]);
  return facts;
}

/** One value of an entry: how often it was seen, and the first exchange that showed it. */
export interface TallyValue {
  count: number;
  exchange?: Exchange;
}

/** entry key → value → tally; JSON as it is, so workers hand it to the runner in a file. */
export type TallyData = Record<string, Record<string, TallyValue>>;

/** The facts of a run, counted; bounded in values per entry. */
export class ProfileTally {
  readonly data: TallyData = {};

  /** Counts one fact; the first exchange of each value is kept as its evidence. */
  add(key: string, value: string, exchange?: Exchange): void {
    const values = (this.data[key] ??= {});
    const known = values[value] !== undefined || Object.keys(values).length < MAX_VALUES;
    const slot = (values[known ? value : OTHER_VALUES] ??= { count: 0 });
    slot.count += 1;
    if (slot.exchange === undefined && exchange !== undefined) slot.exchange = exchange;
  }

  /** Counts every fact of an answer; never throws (the profile must not change a verdict). */
  observe(o: Observation): void {
    try {
      for (const [key, value] of factsOf(o)) this.add(key, value, o.exchange);
    } catch {
      // A body shaped in a way no fact anticipated: nothing is recorded for it.
    }
  }

  /** Notes why a request was not sent (notesOf); never throws. */
  unsent(u: Unsent): void {
    try {
      for (const [key, value] of notesOf(u)) this.add(key, value);
    } catch {
      // Nothing is recorded for it.
    }
  }

  /** Adds another tally's counts (a worker's, in the runner). */
  merge(other: TallyData): void {
    for (const [key, values] of Object.entries(other)) {
      for (const [value, slot] of Object.entries(values)) {
        this.add(key, value, slot.exchange);
        const values2 = this.data[key] as Record<string, TallyValue>;
        const target = values2[value] ?? values2[OTHER_VALUES];
        if (target) target.count += slot.count - 1;
      }
    }
  }
}
