/** Faults of delete (DEL): a delete that keeps the widget, ids that come back, unknown ids. */
import { HttpError, ReferenceService, type Reply } from '../../../src/reference/service.ts';
import { WidgetStore } from '../../../src/reference/store.ts';
import { QuietService, serve } from '../support.ts';
import type { FaultCase } from './case.ts';

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
    unsteady: { 'DEL-1': 'a concurrent create can take the deleted id before the retrieve that checks it is gone', 'PAGE-7': 'widgets deleted and created during the walk trade ids' },
    make: () => serve(new ReferenceService({ store: new (class extends WidgetStore {
      private readonly freed: string[] = [];
      private minted = 0;
      override delete(account: string, id: string): boolean {
        const deleted = super.delete(account, id);
        if (deleted) this.freed.push(id);
        return deleted;
      }
      protected override newId(): string {
        return this.freed.pop() ?? String((this.minted += 1));
      }
    })() })),
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
