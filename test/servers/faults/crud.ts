/** Faults of create and retrieve (CRUD): what a create answers, the widget it stores, and how it reads back. */
import type { IncomingMessage } from 'node:http';
import { HttpError, ReferenceService, type Reply, type WidgetJson } from '../../../src/reference/service.ts';
import { WidgetStore, type StoredWidget } from '../../../src/reference/store.ts';
import { QuietService, serve } from '../support.ts';
import type { FaultCase } from './case.ts';

export const CRUD_FAULTS: readonly FaultCase[] = [
  {
    name: 'create-drops-description', rule: 'CRUD-1', description: 'leaves the description out of the create response',
    inconclusive: { 'CRUD-4': 'CRUD-1' },
    make: () => serve(new (class extends ReferenceService {
      protected override async create(account: string, req: IncomingMessage): Promise<Reply> {
        const reply = await super.create(account, req);
        const { description: _dropped, ...rest } = reply.body as WidgetJson;
        return { ...reply, body: rest };
      }
    })()),
  },
  {
    name: 'stale-created-at', rule: 'CRUD-2', description: 'stamps every widget with a fixed time in 2001',
    make: () => serve(new ReferenceService({ store: new (class extends WidgetStore {
      protected override now(): string { return '2001-01-01T00:00:00Z'; }
    })() })),
  },
  {
    name: 'local-time-labelled-utc', rule: 'CRUD-2', description: 'writes created_at in the server\'s local time (UTC+3) but labels it Z',
    make: () => serve(new ReferenceService({ store: new (class extends WidgetStore {
      protected override now(): string { return new Date(Date.now() + 3 * 3600_000).toISOString(); }
    })() })),
  },
  {
    name: 'ids-from-the-clock', rule: 'CRUD-3', description: 'makes ids from the current second, so widgets created together share one',
    inconclusive: { 'CRUD-4': 'CRUD-3', 'DEL-2': 'CRUD-3', 'DEL-1': 'CRUD-3', 'DEL-3': 'CRUD-3', 'AUTH-4': 'CRUD-3', 'PAGE-4': 'CRUD-3',
      'PAGE-1': 'CRUD-3', 'PAGE-2': 'CRUD-3', 'PAGE-3': 'CRUD-3', 'PAGE-5': 'CRUD-3', 'PAGE-7': 'CRUD-3',
      'MAL-5': 'CRUD-3', 'PAGE-8': 'CRUD-3', 'PAGE-9': 'CRUD-3' },
    unsteady: { 'DEL-1': 'which tests collide depends on which creates share a second', 'DEL-3': 'as DEL-1', 'AUTH-4': 'as DEL-1', 'PAGE-4': 'as DEL-1', 'CRUD-4': 'as DEL-1', 'PAGE-1': 'as DEL-1', 'PAGE-2': 'as DEL-1', 'PAGE-3': 'as DEL-1', 'PAGE-5': 'as DEL-1', 'PAGE-7': 'as DEL-1', 'MAL-5': 'as DEL-1', 'PAGE-8': 'as DEL-1', 'PAGE-9': 'as DEL-1' },
    make: () => serve(new ReferenceService({ store: new (class extends WidgetStore {
      protected override newId(): string { return `w${Math.floor(Date.now() / 1000)}`; }
    })() })),
  },
  {
    name: 'retrieve-drops-description', rule: 'CRUD-4', description: 'leaves the description out when a widget is retrieved',
    make: () => serve(new (class extends ReferenceService {
      protected override retrieve(account: string, id: string): Reply {
        const reply = super.retrieve(account, id);
        const { description: _dropped, ...rest } = reply.body as WidgetJson;
        return { ...reply, body: rest };
      }
    })()),
  },
  {
    name: 'unknown-id-500', rule: 'CRUD-5', description: 'answers a retrieve of an unknown id with a 500',
    alsoBreaks: { 'FMT-2': 'the documented failure for an unknown id is a 500, not a 4xx Error', 'CRUD-6': 'an unknown id is answered 500, not 404', 'DEL-1': 'a retrieve of a deleted widget (now unknown) is answered 500, not a 4xx', 'ISO-2': 'another account\'s widget is unknown to B: answered 500, not a 4xx' },
    make: () => serve(new (class extends ReferenceService {
      protected override retrieve(account: string, id: string): Reply {
        if (!this.store.get(account, id)) throw new HttpError(500, 'internal_error', 'lookup failed');
        return super.retrieve(account, id);
      }
    })()),
  },
  {
    name: 'create-answers-200', rule: 'CRUD-6', description: 'answers a successful create with 200 instead of 201',
    make: () => serve(new (class extends ReferenceService {
      protected override async create(account: string, req: IncomingMessage): Promise<Reply> {
        return { ...(await super.create(account, req)), status: 200 };
      }
    })()),
  },
  {
    name: 'content-type-exact-match', rule: 'CRUD-7',
    description: 'accepts a create only when Content-Type is exactly "application/json" or "application/json; charset=utf-8", refusing other legal spellings with 415',
    make: () => serve(new (class extends ReferenceService {
      protected override isJsonMediaType(header: string | undefined): boolean {
        return header === 'application/json' || header === 'application/json; charset=utf-8';
      }
    })()),
  },
  {
    name: 'content-type-case-sensitive', rule: 'CRUD-7',
    description: 'compares the media type of a create case-sensitively: Application/JSON is refused with 415',
    make: () => serve(new (class extends ReferenceService {
      protected override isJsonMediaType(header: string | undefined): boolean {
        return header?.split(';', 1)[0]?.trim() === 'application/json';
      }
    })()),
  },
  {
    name: 'never-used-account-retrieve-500', rule: 'CRUD-5',
    description: 'fails with a 500 to retrieve any id in an account that has never held a widget',
    make: () => serve(new QuietService({ store: new (class extends WidgetStore {
      override get(account: string, id: string): StoredWidget | undefined {
        if (!this.widgetsByAccount.has(account)) throw new TypeError("Cannot read properties of undefined (reading 'get')");
        return super.get(account, id);
      }
    })() })),
  },
];
