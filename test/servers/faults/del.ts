/** Faults of delete (DEL): a delete that keeps the widget, ids that come back, unknown ids. */
import { HttpError, ReferenceService, type Reply } from '../../../src/reference/service.ts';
import { WidgetStore } from '../../../src/reference/store.ts';
import { serve } from '../support.ts';
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
    name: 'reuses-deleted-ids', rule: 'DEL-2', description: 'numbers widgets by how many exist, so a deleted id comes back',
    unsteady: { 'DEL-1': 'a concurrent create can take the deleted id before the retrieve that checks it is gone', 'PAGE-7': 'widgets deleted and created during the walk trade ids' },
    make: () => serve(new ReferenceService({ store: new (class extends WidgetStore {
      protected override newId(): string {
        let live = 0;
        for (const widgets of this.widgetsByAccount.values()) live += widgets.size;
        return String(live + 1);
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
];
