/**
 * A failure's replay as a POSIX sh script: the exchanges in order, with what the failing request
 * needs recreated first. A request that names a widget the run created (ISO-2's cross-account
 * retrieve) is preceded by the create that made it, the new widget's id captured from the answer
 * (with node, which every install of the suite has: no jq) and spliced into the later URLs. When
 * the widgets were kept (--keep-failing), the requests go to them as they were. When the create
 * is unknown, the first line says the widget was deleted at cleanup and how to keep it.
 * Built from recorded requests only (curl.ts): tokens appear as variable expressions, and ids
 * (server text) only inside single quotes or as `#` comments escaped to printable ASCII.
 */
import type { Exchange } from '../shared/exchange.ts';
import { curlCommand, shQuote, variablesOf } from './curl.ts';

/** The path segment that names one widget: `/widgets/<id>` (ids percent-encoded as the suite sends them). */
const WIDGET_SEGMENT = /\/widgets\/([^/?#]+)/;

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The widget id a request's URL names (`…/widgets/<id>`), decoded; undefined for the collection. */
export function idInUrl(url: string): string | undefined {
  const m = WIDGET_SEGMENT.exec(pathOf(url));
  return m ? decoded(m[1]!) : undefined;
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
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

/** The widget segment of a URL as recorded (percent-encoded, as the request sent it). */
function segmentOf(url: string): string | undefined {
  return WIDGET_SEGMENT.exec(pathOf(url))?.[1];
}

/**
 * An id for a `#` comment, as the recorded URL spells it (percent-encoded: the form the curl
 * command under it shows, and the one the recording was redacted in, never a decoding of it),
 * JSON-quoted, anything outside printable ASCII escaped, at most 200 characters.
 */
function commentSegment(segment: string): string {
  const shown = JSON.stringify(segment.length > 200 ? `${segment.slice(0, 200)}…` : segment);
  return shown.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The node program that prints the percent-encoded `id` of the JSON answer on stdin, and fails
 * (exit 1, nothing printed) when there is none: the encoding the suite used in its paths.
 */
const EXTRACT_ID = `node -e 'let s="";process.stdin.setEncoding("utf8").on("data",(d)=>{s+=d}).on("end",()=>{let v;try{v=JSON.parse(s)}catch{process.exit(1)}if(typeof v?.id!=="string"||v.id==="")process.exit(1);process.stdout.write(encodeURIComponent(v.id))})'`;

/** The URL of a request as a shell word, the widget segment replaced by a variable holding an encoded id. */
function urlWith(url: string, variable: string): string | undefined {
  const m = WIDGET_SEGMENT.exec(url);
  if (!m) return undefined;
  const start = m.index + '/widgets/'.length;
  const before = url.slice(0, start);
  const after = url.slice(start + m[1]!.length);
  return `${shQuote(before)}"$${variable}"${after === '' ? '' : shQuote(after)}`;
}

export interface ReplayInput {
  /** The failure's exchanges, in order. */
  readonly exchanges: readonly Exchange[];
  /** The creates (by the id they answered) that made widgets the exchanges name: recreated first when not kept. */
  readonly creates: ReadonlyMap<string, Exchange>;
  /** Ids kept in place by --keep-failing: the replay sends its requests to them as they are. */
  readonly kept: ReadonlySet<string>;
}

/** The replay script of one failure, or undefined when it has no exchange. */
export function replayScript(input: ReplayInput): string | undefined {
  const { exchanges, creates, kept } = input;
  if (exchanges.length === 0) return undefined;
  const madeHere = new Set(exchanges.map(createdId).filter((id): id is string => id !== undefined));
  const named = [...new Set(exchanges.map((x) => idInUrl(x.request.url)).filter((id): id is string => id !== undefined && !madeHere.has(id)))];
  const spelled = new Map(exchanges.flatMap((x) => {
    const id = idInUrl(x.request.url);
    const segment = segmentOf(x.request.url);
    return id === undefined || segment === undefined ? [] : [[id, segment] as const];
  }));
  const commentId = (id: string): string => commentSegment(spelled.get(id) ?? '');
  const keptIds = named.filter((id) => kept.has(id));
  const recreate = named.filter((id) => !kept.has(id) && creates.has(id));
  const gone = named.filter((id) => !kept.has(id) && !creates.has(id));
  const head: string[] = [];
  const vars = new Set<string>();
  if (gone.length > 0) {
    head.push(`# the widget(s) ${gone.map(commentId).join(', ')} this replay names were deleted at cleanup: its answers will differ; rerun with --keep-failing to leave a failing test's widgets in place`);
  }
  if (keptIds.length > 0) head.push(`# the widget(s) ${keptIds.map(commentId).join(', ')} were kept by --keep-failing: this replay uses them as they are; \`npx widget-conformance cleanup\` deletes them later`);
  if (recreate.length > 0) head.push(`# the widget(s) ${recreate.map(commentId).join(', ')} were deleted at cleanup: this replay creates each again as the run did (the new widget stays: delete it yourself) and uses the id the server answers`);
  const body: string[] = [];
  const captured = new Map<string, string>();
  let n = 0;
  const capture = (create: Exchange, forId: string): void => {
    n += 1;
    const answer = `answer${n}`;
    const variable = `id${n}`;
    for (const v of variablesOf(create)) vars.add(v);
    body.push(`# ${n}. recreate the widget the run had at ${commentId(forId)}, and capture the new id`);
    body.push(`${answer}=$(${curlCommand(create, { include: false })})`);
    body.push(`printf '%s\\n' "$${answer}"`);
    body.push(`${variable}=$(printf '%s' "$${answer}" | ${EXTRACT_ID}) || { echo 'replay: the create answered no id: cannot go on' >&2; exit 1; }`);
    captured.set(forId, variable);
  };
  for (const id of recreate) capture(creates.get(id)!, id);
  exchanges.forEach((x, i) => {
    for (const v of variablesOf(x)) vars.add(v);
    const id = idInUrl(x.request.url);
    const variable = id === undefined ? undefined : captured.get(id);
    // A URL that carried a token (a query credential) keeps its recorded form: splicing would drop the token's expression.
    const tokenInUrl = x.request.credential?.url?.some((p) => typeof p !== 'string') === true;
    const urlWord = variable === undefined || tokenInUrl ? undefined : urlWith(x.request.url, variable);
    const last = i === exchanges.length - 1;
    const made = createdId(x);
    body.push(`# ${last ? 'the request that failed' : 'then'}: ${x.request.method} as the run sent it${x.response ? ` (the run got ${x.response.status})` : ''}`);
    const command = curlCommand(x, urlWord === undefined ? {} : { urlWord });
    if (made !== undefined && !last && exchanges.slice(i + 1).some((y) => idInUrl(y.request.url) === made)) {
      // A create whose id a later request of the failure names: that request uses the new widget.
      n += 1;
      body.push(`answer${n}=$(${curlCommand(x, urlWord === undefined ? { include: false } : { include: false, urlWord })})`);
      body.push(`printf '%s\\n' "$answer${n}"`);
      body.push(`id${n}=$(printf '%s' "$answer${n}" | ${EXTRACT_ID}) || { echo 'replay: the create answered no id: cannot go on' >&2; exit 1; }`);
      captured.set(made, `id${n}`);
    } else body.push(command);
  });
  const needs = vars.size > 0 ? `# export ${[...vars].join(' and ')} first` : '# no token needed';
  return ['#!/bin/sh', `${needs}; run with: sh <this file>`, ...head, ...body, ''].join('\n');
}
