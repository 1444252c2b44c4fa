/**
 * A list that reads a replica trailing the writes (docs/profile.md, "Lists that catch up late"):
 * retrieve, create and delete are immediate, but a created widget shows in lists only `lagMs`
 * after its create, and a deleted one stays listed for a while after its delete. `Infinity`:
 * the replica never catches up on creates (a created widget is never listed).
 */
import { ReferenceService } from '../../src/reference/service.ts';
import { WidgetStore, type StoredWidget, type WidgetInput, type WidgetPage } from '../../src/reference/store.ts';
import type { TestServer } from './test-server.ts';
import { serve } from './support.ts';

class LaggingStore extends WidgetStore {
  /** When each widget reaches the replica (Date.now() ms). */
  private readonly listedFrom = new Map<string, number>();
  /** Deleted widgets the replica still holds, per account, until their time. */
  private readonly stillListed = new Map<string, Map<string, { widget: StoredWidget; until: number }>>();

  constructor(private readonly lagMs: number, private readonly deleteLagMs: number) {
    super();
  }

  override create(account: string, input: WidgetInput): StoredWidget {
    const widget = super.create(account, input);
    this.listedFrom.set(widget.id, Date.now() + this.lagMs);
    return widget;
  }

  override delete(account: string, id: string): boolean {
    const widget = this.get(account, id);
    const deleted = super.delete(account, id);
    if (deleted && widget) {
      const held = this.stillListed.get(account) ?? new Map();
      this.stillListed.set(account, held.set(id, { widget, until: Date.now() + this.deleteLagMs }));
    }
    return deleted;
  }

  /** The replica's view: widgets that reached it, and deleted ones it still holds, by sequence. */
  override page(account: string, afterSeq: number | undefined, limit: number): WidgetPage {
    const now = Date.now();
    const live = [...(this.widgetsByAccount.get(account)?.values() ?? [])].filter((w) => (this.listedFrom.get(w.id) ?? 0) <= now);
    const stale = [...(this.stillListed.get(account)?.values() ?? [])].filter((d) => d.until > now).map((d) => d.widget);
    const all = [...live, ...stale].sort((a, b) => a.seq - b.seq).filter((w) => afterSeq === undefined || w.seq > afterSeq);
    const items = all.slice(0, limit);
    return { items, lastSeq: items.at(-1)?.seq, hasMore: all.length > limit };
  }
}

/**
 * The reference service over a replica for lists that shows a create `lagMs` after it and drops
 * a deleted widget `deleteLagMs` after its delete. With `deleteLagMs` 0 deletes are immediate, so
 * a replica that never catches up on creates holds no pile of deleted widgets.
 */
export function lagging(lagMs: number, deleteLagMs = lagMs): TestServer {
  return serve(new ReferenceService({ store: new LaggingStore(lagMs, deleteLagMs) }));
}
