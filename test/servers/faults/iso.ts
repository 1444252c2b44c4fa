/** Faults of account isolation (ISO): one account's widgets or cursors reached from another. */
import { HttpError, ReferenceService, type Reply } from '../../../src/reference/service.ts';
import type { WidgetPage } from '../../../src/reference/store.ts';
import { InspectableStore, ownerOf, serve } from '../support.ts';
import type { FaultCase } from './case.ts';

export const ISO_FAULTS: readonly FaultCase[] = [
  {
    name: 'list-of-every-account', rule: 'ISO-1',
    description: "lists every account's widgets: the list query has no owner filter",
    make: () => serve(new ReferenceService({ store: new (class extends InspectableStore {
      override page(_account: string, afterSeq: number | undefined, limit: number): WidgetPage {
        const rest = this.allWidgets().filter((w) => afterSeq === undefined || w.seq > afterSeq);
        const items = rest.slice(0, limit);
        return { items, lastSeq: items.at(-1)?.seq, hasMore: rest.length > limit };
      }
    })() })),
  },
  {
    name: 'resumed-page-unfiltered', rule: 'ISO-1', description: 'filters the first page by account but not the pages fetched with a cursor',
    make: () => serve(new ReferenceService({ store: new (class extends InspectableStore {
      override page(account: string, afterSeq: number | undefined, limit: number): WidgetPage {
        if (afterSeq === undefined) return super.page(account, afterSeq, limit);
        const rest = this.allWidgets().filter((w) => w.seq > afterSeq);
        const items = rest.slice(0, limit);
        return { items, lastSeq: items.at(-1)?.seq, hasMore: rest.length > limit };
      }
    })() })),
  },
  {
    name: 'retrieve-ignores-account', rule: 'ISO-2',
    description: 'retrieves a widget by id alone, whichever account owns it',
    alsoBreaks: { 'ISO-5': 'B retrieving A\'s widget gets 200, not the unknown-id answer' },
    make: () => serve(new (class extends ReferenceService {
      protected override retrieve(account: string, id: string): Reply {
        return super.retrieve(ownerOf(this, this.store, id) ?? account, id);
      }
    })()),
  },
  {
    name: 'delete-ignores-account', rule: 'ISO-3',
    description: 'deletes a widget by id alone, whichever account owns it',
    alsoBreaks: { 'ISO-5': 'B deleting A\'s widget gets 204, not the unknown-id answer' },
    make: () => serve(new (class extends ReferenceService {
      protected override remove(account: string, id: string): Reply {
        return super.remove(ownerOf(this, this.store, id) ?? account, id);
      }
    })()),
  },
  {
    name: 'cursor-account-trusted', rule: 'ISO-4',
    description: 'resumes a list in the account the cursor names, not the account of the token',
    make: () => serve(new (class extends ReferenceService {
      protected override list(account: string, query: URLSearchParams): Reply {
        const cursor = query.get('cursor');
        const position = cursor === null ? undefined : this.decodeCursor(cursor);
        return super.list(position?.account ?? account, query);
      }
    })()),
  },
  {
    name: 'foreign-widget-403', rule: 'ISO-5',
    description: "answers 403 forbidden for another account's widget but 404 for an id that never existed",
    make: () => serve(new (class extends ReferenceService {
      private forbidIfForeign(account: string, id: string): void {
        const owner = ownerOf(this, this.store, id);
        if (owner !== undefined && owner !== account) throw new HttpError(403, 'forbidden', 'This widget belongs to another account.');
      }
      protected override retrieve(account: string, id: string): Reply {
        this.forbidIfForeign(account, id);
        return super.retrieve(account, id);
      }
      protected override remove(account: string, id: string): Reply {
        this.forbidIfForeign(account, id);
        return super.remove(account, id);
      }
    })()),
  },
];
