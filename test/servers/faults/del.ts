/** Faults of delete (DEL): a delete that keeps the widget, ids that come back, unknown ids, ids read leniently. */
import { HttpError, ReferenceService, type Reply } from '../../../src/reference/service.ts';
import { WidgetStore } from '../../../src/reference/store.ts';
import { lenientLookup, QuietService, SequenceStore, serve } from '../support.ts';
import { dependentsOf, type FaultCase } from './case.ts';

/** Ids of deleted widgets handed out again, the most recently freed first or the oldest first (never a live widget's). */
function reusingIds(which: 'newest' | 'oldest') {
  return serve(new ReferenceService({ store: new (class extends WidgetStore {
    private readonly freed: string[] = [];
    private minted = 0;
    override delete(account: string, id: string): boolean {
      const deleted = super.delete(account, id);
      if (deleted) this.freed.push(id);
      return deleted;
    }
    protected override newId(): string {
      return (which === 'newest' ? this.freed.pop() : this.freed.shift()) ?? String((this.minted += 1));
    }
  })() }));
}

export const DEL_FAULTS: readonly FaultCase[] = [
  {
    name: 'delete-does-nothing', rule: 'DEL-1', description: 'answers delete with 204 but keeps the widget',
    make: () => serve(new (class extends ReferenceService {
      protected override remove(account: string, id: string): Reply {
        if (!this.store.get(account, id)) throw this.widgetNotFound();
        return { status: 204 };
      }
    })()),
  },
  {
    name: 'reuses-deleted-ids', rule: 'DEL-2', description: 'keeps the ids of deleted widgets in a pool and gives the most recently freed one to the next new widget',
    // Never the id of a live widget (that would be CRUD-3's): only ids whose widget is gone come back.
    // Every check that finds widgets by id stands on DEL-2: which of them met a reused id is timing.
    inconclusive: dependentsOf('DEL-2'),
    timing: 'which create takes a freed id depends on which delete came just before it',
    make: () => reusingIds('newest'),
  },
  {
    name: 'reuses-oldest-deleted-ids', rule: 'DEL-2', description: 'keeps the ids of deleted widgets in a queue and gives the oldest freed one to the next new widget',
    // DEL-2's own check compares with the id it deleted just before, which this fault gives out only
    // after every older freed id: the run's other creates are the evidence (issue 20).
    inconclusive: dependentsOf('DEL-2'),
    timing: 'which create takes which freed id depends on the order of every delete and create of the run',
    make: () => reusingIds('oldest'),
  },
  {
    name: 'delete-unknown-500', rule: 'DEL-3', description: 'answers a delete of an unknown id with a 500',
    make: () => serve(new (class extends ReferenceService {
      protected override remove(account: string, id: string): Reply {
        if (!this.store.get(account, id)) throw new HttpError(500, 'internal_error', 'delete failed');
        return super.remove(account, id);
      }
    })()),
  },
  {
    // As Rails' find, or an Express route that calls parseInt: "31wcs…" and "31-wcs…" are widget 31.
    name: 'integer-cast-ids', rule: 'DEL-4',
    description: 'numbers its widgets 1, 2, … and reads the id of a retrieve or delete as an integer cast of its leading digits, so an id with characters after a widget\'s id reaches that widget',
    alsoBreaks: { 'CRUD-5': 'a retrieve of a widget\'s id with characters added after it answers that widget, not a 4xx Error' },
    make: () => serve(lenientLookup('integer-cast', { retrieve: true, delete: true }, new SequenceStore())),
  },
  {
    // A delete handler written apart from the retrieve's, matching on a prefix: its retrieve shows nothing there.
    name: 'prefix-match-delete', rule: 'DEL-4',
    description: 'deletes the first widget whose id begins the id sent when no widget has that id; a retrieve finds ids exactly',
    make: () => serve(lenientLookup('prefix', { retrieve: false, delete: true })),
  },
  {
    name: 'never-used-account-delete-500', rule: 'DEL-3',
    description: 'fails with a 500 to delete any id in an account that has never held a widget',
    make: () => serve(new QuietService({ store: new (class extends WidgetStore {
      override delete(account: string, id: string): boolean {
        if (!this.widgetsByAccount.has(account)) throw new TypeError("Cannot read properties of undefined (reading 'delete')");
        return super.delete(account, id);
      }
    })() })),
  },
];
