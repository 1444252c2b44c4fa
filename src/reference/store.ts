import { randomBytes } from 'node:crypto';

/** The fields a client supplies when it creates a widget. */
export interface WidgetInput {
  name: string;
  description?: string;
}

/** A widget as the store keeps it; `seq` is internal and never leaves the server. */
export interface StoredWidget {
  readonly seq: number;
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  readonly created_at: string;
}

/** One page of an account's widgets in creation order. */
export interface WidgetPage {
  items: StoredWidget[];
  /** Sequence number of the last item, the position to resume after; undefined when empty. */
  lastSeq: number | undefined;
  hasMore: boolean;
}

/** In-memory widgets per account, with ids that are never reused. */
export class WidgetStore {
  /** Per account, widgets keyed by id; a Map iterates in insertion order, which is seq order. */
  protected readonly widgetsByAccount = new Map<string, Map<string, StoredWidget>>();
  /** Every id ever issued, deleted ones included, so that none comes back. */
  protected readonly issuedIds = new Set<string>();
  protected lastIssuedSeq = 0;

  /** Stores a new widget for the account and returns it. */
  create(account: string, input: WidgetInput): StoredWidget {
    const widget = this.issue(input, this.newId());
    this.widgetsOf(account).set(widget.id, widget);
    return widget;
  }

  /** A new widget at `id`, recorded as issued: the next sequence number and the time now. */
  protected issue(input: WidgetInput, id: string): StoredWidget {
    this.issuedIds.add(id);
    return Object.freeze({
      seq: this.nextSeq(),
      id,
      name: input.name,
      ...(input.description === undefined ? {} : { description: input.description }),
      created_at: this.now(),
    });
  }

  /** The account's widget with this id; undefined when it does not exist or belongs to another account. */
  get(account: string, id: string): StoredWidget | undefined {
    return this.widgetsByAccount.get(account)?.get(id);
  }

  /** Deletes the account's widget with this id; false when there was none. */
  delete(account: string, id: string): boolean {
    return this.widgetsByAccount.get(account)?.delete(id) ?? false;
  }

  /** Up to `limit` of the account's widgets created after `afterSeq`, in creation order. */
  page(account: string, afterSeq: number | undefined, limit: number): WidgetPage {
    if (!Number.isSafeInteger(limit) || limit < 1) {
      throw new RangeError(`limit must be a positive integer, got ${limit}`);
    }
    // Keyset pagination: resuming after a sequence number, not an offset, keeps a walk
    // free of duplicates and gaps while other widgets are created or deleted.
    const items: StoredWidget[] = [];
    for (const widget of this.widgetsByAccount.get(account)?.values() ?? []) {
      if (afterSeq !== undefined && widget.seq <= afterSeq) continue;
      if (items.length === limit) return { items, lastSeq: items.at(-1)?.seq, hasMore: true };
      items.push(widget);
    }
    return { items, lastSeq: items.at(-1)?.seq, hasMore: false };
  }

  /** Number of widgets the account holds. */
  count(account: string): number {
    return this.widgetsByAccount.get(account)?.size ?? 0;
  }

  /** A fresh id, distinct from every id this store has ever issued. */
  protected newId(): string {
    let id = this.randomId();
    while (this.issuedIds.has(id)) id = this.randomId();
    return id;
  }

  /** A random candidate id: `wgt_` and 20 hex digits (80 bits). */
  protected randomId(): string {
    return `wgt_${randomBytes(10).toString('hex')}`;
  }

  /** The next sequence number; strictly increasing across all accounts. */
  protected nextSeq(): number {
    this.lastIssuedSeq += 1;
    return this.lastIssuedSeq;
  }

  /** The creation timestamp for a widget created now. */
  protected now(): string {
    return new Date().toISOString();
  }

  private widgetsOf(account: string): Map<string, StoredWidget> {
    let widgets = this.widgetsByAccount.get(account);
    if (widgets === undefined) {
      widgets = new Map();
      this.widgetsByAccount.set(account, widgets);
    }
    return widgets;
  }
}
