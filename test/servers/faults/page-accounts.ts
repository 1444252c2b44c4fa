/**
 * Faults that only show on an account that already holds widgets, or on bodies other faults do
 * not send: a keyset cursor that skips widgets sharing a timestamp, offset pages over an account
 * with pre-existing widgets in either order, member names that differ from `name` only in case
 * or Unicode normalisation, and a page far over the body cap. Beside them, conformant servers
 * whose accounts hold pre-existing widgets in several orders, which must still pass.
 */
import { DEFAULT_TOKENS, HttpError, ReferenceService, type PageJson, type Reply } from '../../../src/reference/service.ts';
import type { StoredWidget, WidgetInput } from '../../../src/reference/store.ts';
import { InspectableStore, serve, TOKENS } from '../support.ts';
import type { TestServer } from '../test-server.ts';
import type { FaultCase } from './case.ts';

/** The account the suite tests (the first token's). */
const PRIMARY = DEFAULT_TOKENS[TOKENS[0]] as string;
/** Widgets the account holds before the run. */
export const PRE_EXISTING = 25;
/** The one timestamp the pre-existing widgets share (imported in bulk, say). */
const IMPORTED_AT = '2020-01-01T00:00:00.000Z';

/** A store whose pre-existing widgets share one created_at; every later widget gets a later, distinct millisecond. */
class SeededStore extends InspectableStore {
  private seeding = true;
  private lastMs = 0;

  constructor(count = PRE_EXISTING) {
    super();
    for (let i = 0; i < count; i += 1) this.create(PRIMARY, { name: `imported widget ${i}`, description: 'held before the run' });
    this.seeding = false;
  }

  protected override now(): string {
    if (this.seeding) return IMPORTED_AT;
    // Strictly increasing: only the pre-existing widgets tie, so the fault's effect does not depend on timing.
    this.lastMs = Math.max(Date.now(), this.lastMs + 1);
    return new Date(this.lastMs).toISOString();
  }
}

/** Keyset pages in an order of the server's choice, resuming after the place of the last widget shown (deleted or not). */
function keysetService(order: (a: StoredWidget, b: StoredWidget) => number, store = new SeededStore()): ReferenceService {
  /** Every widget ever listed, by seq: a cursor's widget may have been deleted since, its place in the order has not. */
  const shown = new Map<number, StoredWidget>();
  return new (class extends ReferenceService {
    protected override list(account: string, query: URLSearchParams): Reply {
      const { limit, afterSeq } = this.parseListQuery(account, query);
      const sorted = store.all(account).sort(order);
      const last = afterSeq === undefined ? undefined : shown.get(afterSeq);
      const rest = last === undefined ? sorted : sorted.filter((w) => order(w, last) > 0);
      const items = rest.slice(0, limit);
      for (const w of items) shown.set(w.seq, w);
      return { status: 200, body: this.toPageJson(account, { items, lastSeq: items.at(-1)?.seq, hasMore: rest.length > limit }) };
    }
  })({ store });
}

/** Plain offset pages over a seeded account: exactly-once while nothing changes. */
function offsetService(order: 'oldest-first' | 'newest-first'): ReferenceService {
  const store = new SeededStore();
  return new (class extends ReferenceService {
    protected override list(account: string, query: URLSearchParams): Reply {
      const { limit, afterSeq } = this.parseListQuery(account, query);
      const all = store.all(account);
      if (order === 'newest-first') all.reverse();
      const offset = afterSeq ?? 0;
      const end = offset + limit;
      const body: PageJson = { data: all.slice(offset, end).map((w) => this.toJson(w)), has_more: end < all.length };
      if (body.has_more) body.next_cursor = this.encodeCursor({ account, seq: end });
      return { status: 200, body };
    }
  })({ store });
}

/** Member names as a lenient decoder reads them: matched to the known fields by a folding of the server's choice. */
function foldingNames(fold: (name: string) => string): ReferenceService {
  return new (class extends ReferenceService {
    protected override validateCreate(value: unknown): WidgetInput {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return super.validateCreate(value);
      const fields: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const known = ['name', 'description'].find((f) => fold(k) === f);
        fields[known ?? k] = v;
      }
      return super.validateCreate(fields);
    }
  })();
}

/** Filler that pads each item of the oversize page: with a dozen widgets, the page is several times the suite's 8 MiB cap. */
const PADDING = 'x'.repeat(2 * 1024 * 1024);

export const PAGE_ACCOUNT_FAULTS: readonly FaultCase[] = [
  {
    name: 'timestamp-cursor-skips-ties', rule: 'PAGE-3',
    description: `orders by created_at and resumes after the last created_at shown (created_at > cursor): of the ${PRE_EXISTING} pre-existing widgets that share one timestamp, a walk at limit 1 shows one`,
    inconclusive: { 'PAGE-7': 'PAGE-3' },
    make: () => {
      const store = new SeededStore();
      return serve(new (class extends ReferenceService {
        protected override list(account: string, query: URLSearchParams): Reply {
          const { limit } = this.parseListQuery(account, new URLSearchParams(query.has('limit') ? { limit: query.get('limit') as string } : {}));
          const raw = query.get('cursor');
          const after = raw === null ? undefined : Buffer.from(raw, 'base64url').toString('utf8');
          // A cursor it never issued is still refused: the fault is the ties, nothing else.
          if (after !== undefined && (!/^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(after) || Buffer.from(after, 'utf8').toString('base64url') !== raw)) {
            throw new HttpError(400, 'invalid_cursor', 'cursor is not one this server issued.');
          }
          const rest = store.all(account).filter((w) => after === undefined || w.created_at > after);
          const items = rest.slice(0, limit);
          const body: PageJson = { data: items.map((w) => this.toJson(w)), has_more: rest.length > limit };
          if (body.has_more) body.next_cursor = Buffer.from(items.at(-1)!.created_at, 'utf8').toString('base64url');
          return { status: 200, body };
        }
      })({ store }));
    },
  },
  {
    name: 'offset-newest-first-pre-existing', rule: 'PAGE-7',
    description: `plain offset pages, newest first, over an account that holds ${PRE_EXISTING} widgets before the run: a widget created during a walk repeats one`,
    make: () => serve(offsetService('newest-first')),
  },
  {
    name: 'offset-oldest-first-pre-existing', rule: 'PAGE-7',
    description: `plain offset pages, oldest first, over an account that holds ${PRE_EXISTING} widgets before the run: the suite's widgets come last, and one deleted behind the walk makes it skip one`,
    make: () => serve(offsetService('oldest-first')),
  },
  {
    name: 'oversize-page-at-limit-1', rule: 'PAGE-1',
    description: 'answers limit=1 with every widget of the account, each padded with 2 MiB: a page far over the body cap that holds more widgets than the limit',
    inconclusive: { 'PAGE-3': 'PAGE-1' },
    make: () => serve(new (class extends ReferenceService {
      protected override list(account: string, query: URLSearchParams): Reply {
        const reply = super.list(account, query);
        if (query.get('limit') !== '1') return reply;
        const all = this.store.page(account, undefined, this.maxLimit).items;
        return { status: 200, body: { data: all.map((w) => ({ ...this.toJson(w), padding: PADDING })), has_more: false } };
      }
    })()),
  },
];

export const MEMBER_NAME_FAULTS: readonly FaultCase[] = [
  {
    name: 'member-names-case-folded', rule: 'MAL-1',
    description: 'matches member names to fields without regard to case, as Go\'s encoding/json does: {"Name": "x"} creates a widget named "x"',
    make: () => serve(foldingNames((name) => name.toLowerCase())),
  },
  {
    name: 'member-names-nfkc', rule: 'MAL-1',
    description: 'NFKC-normalises member names before matching them: {"ｎａｍｅ": "x"} (fullwidth letters) creates a widget named "x"',
    make: () => serve(foldingNames((name) => name.normalize('NFKC'))),
  },
];

/** Conformant servers over accounts that hold widgets before the run, in several orders. */
export const PRE_EXISTING_VARIANTS: ReadonlyArray<{ name: string; description: string; make(): TestServer }> = [
  {
    name: 'pre-existing-ties-oldest-first',
    description: `the reference (keyset by creation sequence, oldest first) over an account holding ${PRE_EXISTING} widgets that share one created_at`,
    make: () => serve(new ReferenceService({ store: new SeededStore() })),
  },
  {
    name: 'pre-existing-newest-first',
    description: `keyset pages newest first over an account holding ${PRE_EXISTING} widgets that share one created_at`,
    make: () => serve(keysetService((a, b) => b.seq - a.seq)),
  },
  {
    name: 'pre-existing-by-id',
    description: `keyset pages ordered by id (random but stable) over an account holding ${PRE_EXISTING} widgets that share one created_at`,
    make: () => serve(keysetService((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))),
  },
];
