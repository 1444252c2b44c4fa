/**
 * First contact: before any test creates a widget, the runner lists each account and asks it
 * for, and deletes, an id the suite made up. A server that only works once an account has held
 * a widget (a per-account map created on first write, a lookup without a default) fails here,
 * where the tests, which all create first, never look. The answers are left in the run's stats
 * folder; PAGE-6, CRUD-5 and DEL-3 judge them (suites/first-contact.test.ts).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WidgetApi } from '../client/api.ts';
import { TransportError } from '../errors.ts';
import type { ApiResponse } from '../http/client.ts';
import type { Exchange } from '../shared/exchange.ts';
import { parseJsonBody } from '../http/parse.ts';
import { foreignId } from './ids.ts';
import type { SeededRandom } from './random.ts';

/** One answer as the tests judge it: already redacted (an Exchange always is). */
export interface FirstAnswer {
  readonly status: number;
  /** Undefined when the body was not JSON (lost in the file, as JSON has no undefined). */
  readonly json: unknown;
  readonly jsonError?: string;
  /** The body was larger than the cap: only its prefix was read (PAGE-1 judges an over-cap page). */
  readonly truncated?: true;
  readonly exchange: Exchange;
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

/**
 * One answer as the file keeps it: the body's text, never its parsed value. JSON.stringify
 * recurses once per level of nesting, so a server's value nested 100,000 deep would end the run
 * in a RangeError here; the text is a flat string of bounded length (the body cap), and parsing
 * it again (readFirstContact: V8's JSON.parse does not recurse) gives the value the rules judge.
 */
interface StoredAnswer extends Omit<FirstAnswer, 'json'> {
  /** The body as read; absent when it was not JSON (jsonError says why). */
  readonly text?: string;
}

interface StoredContact {
  readonly account: string;
  readonly list: StoredAnswer | NoAnswer;
  readonly retrieve: StoredAnswer | NoAnswer;
  readonly remove?: StoredAnswer | NoAnswer;
}

type Answer = Pick<ApiResponse, 'status' | 'text' | 'jsonError' | 'truncated' | 'exchange'>;

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

const stored = (a: Answer | NoAnswer): StoredAnswer | NoAnswer => (!answered(a) ? { noAnswer: a.noAnswer } : storedAnswer(a));

const storedAnswer = (res: Answer): StoredAnswer => ({
  status: res.status,
  ...(res.jsonError === undefined ? { text: res.text } : { jsonError: res.jsonError }),
  ...(res.truncated ? { truncated: true as const } : {}),
  exchange: res.exchange,
});

/** An answer as the rules read it: the body parsed again from its text (only ever text that parsed when it arrived). */
function answerOf(a: StoredAnswer | NoAnswer): FirstAnswer | NoAnswer {
  if (!answered(a)) return { noAnswer: a.noAnswer };
  const { text, ...rest } = a;
  if (text === undefined) return { ...rest, json: undefined };
  const { json, jsonError } = parseJsonBody(Buffer.from(text, 'utf8'));
  return { ...rest, json, ...(jsonError === undefined ? {} : { jsonError }) };
}

/** The first-contact file's text for these answers: flat whatever the server sent (no parsed value is serialised). */
export function firstContactText(contacts: ReadonlyArray<{ account: string; list: Answer | NoAnswer; retrieve: Answer | NoAnswer; remove?: Answer | NoAnswer }>): string {
  const records: StoredContact[] = contacts.map((c) => ({
    account: c.account,
    list: stored(c.list),
    retrieve: stored(c.retrieve),
    ...(c.remove ? { remove: stored(c.remove) } : {}),
  }));
  return JSON.stringify(records);
}

/** The answers a first-contact file's text holds, parsed as the rules read them. */
export function parseFirstContact(text: string): FirstContact[] {
  return (JSON.parse(text) as StoredContact[]).map((c) => ({
    account: c.account,
    list: answerOf(c.list),
    retrieve: answerOf(c.retrieve),
    ...(c.remove ? { remove: answerOf(c.remove) } : {}),
  }));
}

/**
 * Lists, retrieves and deletes a made-up id in each account (nothing the suite did not make up is
 * touched), and records the answers in `dir`. The ids come from `random` (the run seed's stream).
 */
export async function recordFirstContact(accounts: readonly WidgetApi[], dir: string, random: SeededRandom): Promise<void> {
  const contacts: Parameters<typeof firstContactText>[0][number][] = [];
  for (const api of accounts) {
    // A bounded prefix of a page over the body cap, as the probe reads it: judged by the rules, never a reason to stop the run.
    const list = await answerOrSilence(() => api.list({ keepPrefix: true }));
    const id = foreignId(random);
    const retrieve = await answerOrSilence(() => api.retrieve(id));
    // The delete goes out only once the retrieve showed the made-up id absent (WidgetApi.remove's proof).
    const absent = answered(retrieve) && retrieve.status >= 400 && retrieve.status < 500;
    if (absent) api.ownership.addMadeUp(id);
    const remove = absent ? await answerOrSilence(() => api.remove(id)) : undefined;
    contacts.push({ account: api.account, list, retrieve, ...(remove ? { remove } : {}) });
  }
  writeFileSync(join(dir, FILE), firstContactText(contacts));
}

/** The first-contact answers of the run, or undefined when the runner recorded none. */
export function readFirstContact(dir: string): FirstContact[] | undefined {
  const file = join(dir, FILE);
  return existsSync(file) ? parseFirstContact(readFileSync(file, 'utf8')) : undefined;
}
