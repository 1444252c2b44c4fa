/**
 * First contact: before any test creates a widget, the runner lists each account and asks it
 * for, and deletes, an id the suite made up. A server that only works once an account has held
 * a widget (a per-account map created on first write, a lookup without a default) fails here,
 * where the tests, which all create first, never look. The answers are left in the run's stats
 * folder; PAGE-6, CRUD-5 and DEL-3 judge them (suites/first-contact.test.ts).
 *
 * No body goes into the file: each answer is reduced as it arrives to what those rules read, its
 * status and exchange and the schema issues of its whole body as received (checked here, with the
 * checks the rules would run). A server may pad every list to the body cap, and a body written
 * to the file and parsed again in the worker would cost several times the cap in both threads.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WidgetApi } from '../client/api.ts';
import { TransportError } from '../errors.ts';
import type { ApiResponse } from '../http/client.ts';
import type { Exchange } from '../shared/exchange.ts';
import { checkSchema, pageEnvelope, type SchemaIssue } from '../schema.ts';
import { foreignId } from './ids.ts';
import type { SeededRandom } from './random.ts';

/** A schema check made on a body as received: its issues, and how many there were. */
export interface Checked {
  readonly issues: readonly SchemaIssue[];
  readonly total: number;
}

/** What the rules hold a body to, checked on the whole body as it arrived (absent when it is not JSON). */
export interface BodyChecks {
  /** A list's own fields (schema.ts pageEnvelope) against the page schema. */
  readonly page?: Checked;
  /** A list's first item that is no Widget, by its index in `data`, with its issues against the widget schema. */
  readonly widget?: Checked & { readonly index: number };
  /** A retrieve's body against the error schema. */
  readonly error?: Checked;
}

/** One answer as the tests judge it: already redacted (an Exchange always is), its body reduced to its checks. */
export interface FirstAnswer {
  readonly status: number;
  /** Why the body is not JSON, when it is not. */
  readonly jsonError?: string;
  /** The body was larger than the cap: only its prefix was read (PAGE-1 judges an over-cap page). */
  readonly truncated?: true;
  readonly exchange: Exchange;
  readonly checks: BodyChecks;
}

/** A request that was sent and got no complete answer: the client's message (redacted), e.g. a timeout. */
export interface NoAnswer {
  readonly noAnswer: string;
}

/** What one account answered before the run created anything in it. */
export interface FirstContact {
  /** "primary" or "second". */
  readonly account: string;
  readonly list: FirstAnswer | NoAnswer;
  readonly retrieve: FirstAnswer | NoAnswer;
  /** Absent when the retrieve did not show the made-up id absent: then no delete is sent. */
  readonly remove?: FirstAnswer | NoAnswer;
}

const FILE = 'first-contact.json';

type Answer = Pick<ApiResponse, 'status' | 'json' | 'jsonError' | 'truncated' | 'exchange'>;

/** The answers of one account as they came, before they are reduced. */
export interface ContactAnswers {
  readonly account: string;
  readonly list: Answer | NoAnswer;
  readonly retrieve: Answer | NoAnswer;
  readonly remove?: Answer | NoAnswer;
}

/** True for a recorded answer, false for a request that got none. */
export function answered<T extends object>(a: T | NoAnswer): a is T {
  return !('noAnswer' in a);
}

/** The answer, or what the client said of a request sent and never answered in full; any other error propagates. */
async function answerOrSilence(send: () => Promise<ApiResponse>): Promise<ApiResponse | NoAnswer> {
  try {
    return await send();
  } catch (error) {
    // Not sent (the run's deadline, a target given up), a body past the suite's cap, refused by
    // rate limits, a token refused: the run's problems or limits, not a rule's.
    if (error instanceof TransportError && error.sent && !error.overCap) return { noAnswer: error.message };
    throw error;
  }
}

/** The checks the rules run on a list's body: the page's own fields, then its items one by one until one is no Widget. */
function listChecks(json: unknown): BodyChecks {
  const page = checkSchema('page', pageEnvelope(json));
  if (page.total > 0) return { page };
  const items = (json as { data: unknown[] }).data;
  for (const [index, item] of items.entries()) {
    const widget = checkSchema('widget', item);
    if (widget.total > 0) return { page, widget: { ...widget, index } };
  }
  return { page };
}

/** The checks the rules run on a retrieve's body: an Error object. */
const errorChecks = (json: unknown): BodyChecks => ({ error: checkSchema('error', json) });

/** The answer as the file keeps it: the body's checks in place of the body (none for an answer whose body no rule reads). */
function reduced(a: Answer | NoAnswer, checksOf?: (json: unknown) => BodyChecks): FirstAnswer | NoAnswer {
  if (!answered(a)) return { noAnswer: a.noAnswer };
  const judged = checksOf !== undefined && a.jsonError === undefined;
  return {
    status: a.status,
    ...(a.jsonError === undefined ? {} : { jsonError: a.jsonError }),
    ...(a.truncated ? { truncated: true as const } : {}),
    exchange: a.exchange,
    checks: judged ? checksOf(a.json) : {},
  };
}

/** The first-contact file's text for these answers: flat and bounded whatever the server sent (no body is kept). */
export function firstContactText(contacts: readonly ContactAnswers[]): string {
  const records: FirstContact[] = contacts.map((c) => ({
    account: c.account,
    list: reduced(c.list, listChecks),
    retrieve: reduced(c.retrieve, errorChecks),
    ...(c.remove ? { remove: reduced(c.remove) } : {}),
  }));
  return JSON.stringify(records);
}

/** The answers a first-contact file's text holds, as the rules read them. */
export function parseFirstContact(text: string): FirstContact[] {
  return JSON.parse(text) as FirstContact[];
}

/**
 * Lists, retrieves and deletes a made-up id in each account (nothing the suite did not make up is
 * touched), and records the answers in `dir`. The ids come from `random` (the run seed's stream).
 */
export async function recordFirstContact(accounts: readonly WidgetApi[], dir: string, random: SeededRandom): Promise<void> {
  const contacts: FirstContact[] = [];
  for (const api of accounts) {
    // A bounded prefix of a page over the body cap, as the probe reads it: judged by the rules, never
    // a reason to stop the run. Each answer is reduced as it arrives: no two whole bodies are held at once.
    const list = reduced(await answerOrSilence(() => api.list({ keepPrefix: true })), listChecks);
    const id = foreignId(random);
    const retrieve = reduced(await answerOrSilence(() => api.retrieve(id)), errorChecks);
    // The delete goes out only once the retrieve showed the made-up id absent (WidgetApi.remove's proof).
    const absent = answered(retrieve) && retrieve.status >= 400 && retrieve.status < 500;
    if (absent) api.ownership.addMadeUp(id);
    const remove = absent ? reduced(await answerOrSilence(() => api.remove(id))) : undefined;
    contacts.push({ account: api.account, list, retrieve, ...(remove ? { remove } : {}) });
  }
  writeFileSync(join(dir, FILE), JSON.stringify(contacts));
}

/** The first-contact answers of the run, or undefined when the runner recorded none. */
export function readFirstContact(dir: string): FirstContact[] | undefined {
  const file = join(dir, FILE);
  return existsSync(file) ? parseFirstContact(readFileSync(file, 'utf8')) : undefined;
}
