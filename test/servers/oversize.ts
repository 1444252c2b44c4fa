/**
 * Lists far over the suite's body cap, from the first answer on: the probe's own list reads a
 * bounded prefix and must leave the verdict to the rules, never end the run as "cannot reach the
 * target". Every list answer (whatever the limit) holds every widget of the account, then a
 * padding field of the page that takes it past the cap: PAGE-1 judges the items the prefix holds.
 */
import { MAX_RESPONSE_BYTES } from '../../src/http/client.ts';
import { ReferenceService, type Reply } from '../../src/reference/service.ts';
import type { TestServer } from './test-server.ts';
import { serve } from './support.ts';

/** Twice the cap: the part read ends inside the padding, after every item. */
const PADDING = 'x'.repeat(2 * MAX_RESPONSE_BYTES);

/** A server whose every list answer is every widget of the account, padded past the cap after the items. */
export function oversizeEveryList(): TestServer {
  return serve(
    new (class extends ReferenceService {
      protected override list(account: string, query: URLSearchParams): Reply {
        const reply = super.list(account, query);
        if (reply.status !== 200) return reply;
        const all = this.store.page(account, undefined, this.maxLimit).items;
        return { status: 200, body: { data: all.map((w) => this.toJson(w)), has_more: false, padding: PADDING } };
      }
    })(),
  );
}
