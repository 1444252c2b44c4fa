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
import type { ApiResponse } from '../http/client.ts';
import type { Exchange } from '../http/exchange.ts';
import { foreignId } from './ids.ts';

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

/** What one account answered before the run created anything in it. */
export interface FirstContact {
  /** "primary" or "second". */
  readonly account: string;
  readonly list: FirstAnswer;
  readonly retrieve: FirstAnswer;
  /** Absent when the retrieve did not show the made-up id absent: then no delete is sent. */
  readonly remove?: FirstAnswer;
}

const FILE = 'first-contact.json';

const answer = (res: ApiResponse): FirstAnswer => ({
  status: res.status,
  json: res.json,
  ...(res.jsonError === undefined ? {} : { jsonError: res.jsonError }),
  ...(res.truncated ? { truncated: true as const } : {}),
  exchange: res.exchange,
});

/** Lists, retrieves and deletes a made-up id in each account (nothing the suite did not make up is touched), and records the answers in `dir`. */
export async function recordFirstContact(accounts: readonly WidgetApi[], dir: string): Promise<void> {
  const contacts: FirstContact[] = [];
  for (const api of accounts) {
    // A bounded prefix of a page over the body cap, as the probe reads it: judged by the rules, never a reason to stop the run.
    const list = await api.list({ keepPrefix: true });
    const id = foreignId();
    const retrieve = await api.retrieve(id);
    // The delete goes out only once the retrieve showed the made-up id absent (WidgetApi.remove's proof).
    const absent = retrieve.status >= 400 && retrieve.status < 500;
    if (absent) api.ownership.addMadeUp(id);
    const remove = absent ? answer(await api.remove(id)) : undefined;
    contacts.push({ account: api.account, list: answer(list), retrieve: answer(retrieve), ...(remove ? { remove } : {}) });
  }
  writeFileSync(join(dir, FILE), JSON.stringify(contacts));
}

/** The first-contact answers of the run, or undefined when the runner recorded none. */
export function readFirstContact(dir: string): FirstContact[] | undefined {
  const file = join(dir, FILE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as FirstContact[]) : undefined;
}
