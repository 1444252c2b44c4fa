/**
 * The pieces the test servers (faults, variants, property servers) are built from, each written
 * once: the tokens they accept, a handler made a TestServer, stores that can name their widgets,
 * offset pagination, and the small pieces of server code several faults share with the reference.
 */
import { DEFAULT_TOKENS, HttpError, ReferenceService, type PageJson, type ReferenceServiceOptions, type Reply } from '../../src/reference/service.ts';
import type { RequestHandler } from '../../src/reference/server.ts';
import { WidgetStore, type StoredWidget } from '../../src/reference/store.ts';
import type { TestServer } from './test-server.ts';

/** The reference's tokens: the account under test first, then the second account. */
export const TOKENS = Object.keys(DEFAULT_TOKENS) as [string, string];

/** A test server: this handler, with the reference's tokens. */
export const serve = (handler: RequestHandler): TestServer => ({ handler, tokens: TOKENS });

/** A reference service whose unexpected errors (the 500s a fault provokes on purpose) are not logged. */
export class QuietService extends ReferenceService {
  protected override onUnexpectedError(): void {}
}

/** A store that can name its widgets: one account's, or every account's. */
export class InspectableStore extends WidgetStore {
  /** The account's widgets in creation order (the store's Map is in insertion order). */
  all(account: string): StoredWidget[] {
    return [...(this.widgetsByAccount.get(account)?.values() ?? [])];
  }

  /** Every widget of every account, in creation (seq) order. */
  allWidgets(): StoredWidget[] {
    return [...this.widgetsByAccount.values()].flatMap((widgets) => [...widgets.values()]).sort((a, b) => a.seq - b.seq);
  }
}

/** Ids from one database sequence shared by all accounts: "1", "2", …, never reused. */
export class SequenceStore extends InspectableStore {
  private lastId = 0;
  protected override randomId(): string {
    this.lastId += 1;
    return String(this.lastId);
  }
}

/**
 * How a lookup that reads ids leniently finds a widget at an id it does not hold: an integer cast
 * of the id's leading digits (JavaScript's parseInt, Ruby's to_i under Rails' find, MySQL comparing
 * an integer column with a string), or the first widget whose id begins the id (a prefix match).
 */
export type Leniency = 'integer-cast' | 'prefix';

/**
 * The reference service whose retrieve, delete, or both, read ids leniently: the widget at the
 * exact id when there is one, else the one `leniency` finds, so `31-x` reaches widget `31`.
 */
export function lenientLookup(leniency: Leniency, on: { readonly retrieve: boolean; readonly delete: boolean }, store: InspectableStore = new InspectableStore()): ReferenceService {
  const resolve = (account: string, id: string): string => {
    if (store.get(account, id)) return id;
    if (leniency === 'prefix') return store.all(account).find((w) => id.startsWith(w.id))?.id ?? id;
    const n = Number.parseInt(id, 10);
    return Number.isNaN(n) ? id : String(n);
  };
  return new (class extends ReferenceService {
    protected override retrieve(account: string, id: string): Reply {
      return super.retrieve(account, on.retrieve ? resolve(account, id) : id);
    }

    protected override remove(account: string, id: string): Reply {
      return super.remove(account, on.delete ? resolve(account, id) : id);
    }
  })({ store });
}

/** The account the widget belongs to, whichever account that is; undefined when none. `store` is the service's own (protected there). */
export function ownerOf(service: ReferenceService, store: WidgetStore, id: string): string | undefined {
  return [...new Set(Object.values(service.tokens))].find((account) => store.get(account, id) !== undefined);
}

/** The one value of a query parameter; a repeated parameter is refused, as the reference does. */
export function oneParam(query: URLSearchParams, name: string, code: string): string | undefined {
  const values = query.getAll(name);
  if (values.length > 1) throw new HttpError(400, code, `${name} must be given at most once.`);
  return values[0];
}

/** Packs a walk's snapshot bound and its offset into the one number a reference cursor carries. */
const OFFSET_SPAN = 1_000_000;

export interface OffsetPaging extends Omit<ReferenceServiceOptions, 'store'> {
  readonly order: 'oldest-first' | 'newest-first';
  /**
   * Page over the widgets that existed at the walk's first page: widgets created during the
   * walk cannot shift it, but one deleted behind the offset still makes the next page skip one.
   */
  readonly snapshot?: boolean;
}

/**
 * Offset pagination: the cursor is an offset into the account's list, so a walk is
 * exactly-once while nothing changes, not under concurrent writes.
 */
export function offsetPaged({ order, snapshot = false, ...options }: OffsetPaging): ReferenceService {
  const store = new InspectableStore();
  return new (class extends ReferenceService {
    protected override list(account: string, query: URLSearchParams): Reply {
      const { limit, afterSeq } = this.parseListQuery(account, query);
      const all = store.all(account);
      const [bound, offset] = !snapshot
        ? [Number.POSITIVE_INFINITY, afterSeq ?? 0]
        : afterSeq === undefined
          ? [all.at(-1)?.seq ?? 0, 0]
          : [Math.floor(afterSeq / OFFSET_SPAN), afterSeq % OFFSET_SPAN];
      const visible = all.filter((w) => w.seq <= bound);
      if (order === 'newest-first') visible.reverse();
      const end = offset + limit;
      const body: PageJson = { data: visible.slice(offset, end).map((w) => this.toJson(w)), has_more: end < visible.length };
      if (body.has_more) body.next_cursor = this.encodeCursor({ account, seq: snapshot ? bound * OFFSET_SPAN + end : end });
      return { status: 200, body };
    }
  })({ ...options, store });
}
