/** Faults of create and retrieve (CRUD): what a create answers, the widget it stores, and how it reads back. */
import type { IncomingMessage } from 'node:http';
import { HttpError, ReferenceService, type Reply, type WidgetJson } from '../../../src/reference/service.ts';
import { WidgetStore, type StoredWidget } from '../../../src/reference/store.ts';
import { lenientLookup, QuietService, serve } from '../support.ts';
import { dependentsOf, type FaultCase } from './case.ts';
import { apache, Base64Store } from '../deployments.ts';

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
    // Every check that finds widgets by id stands on CRUD-3: which ones met a shared id is timing, the verdict is not.
    inconclusive: dependentsOf('CRUD-3'),
    timing: 'which creates share a second depends on when they reach the server',
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
    name: 'retrieve-changes-name-case', rule: 'CRUD-4', description: 'returns the name in upper case when a widget is retrieved (create and list return it as sent)',
    // The run marker is read case-insensitively (harness/marker.ts), so the proof of ownership a
    // delete needs still holds, and the checks that delete keep their verdicts: only CRUD-4 fails.
    make: () => serve(new (class extends ReferenceService {
      protected override retrieve(account: string, id: string): Reply {
        const reply = super.retrieve(account, id);
        const body = reply.body as WidgetJson;
        return { ...reply, body: { ...body, name: body.name.toUpperCase() } };
      }
    })()),
  },
  {
    name: 'unknown-id-500', rule: 'CRUD-5', description: 'answers a retrieve of an unknown id with a 500',
    alsoBreaks: { 'FMT-2': 'the documented failure for an unknown id is a 500, not a 4xx Error', 'CRUD-6': 'an unknown id is answered 500, not 404', 'DEL-1': 'a retrieve of a deleted widget (now unknown) is answered 500, not a 4xx', 'ISO-2': 'another account\'s widget is unknown to B: answered 500, not a 4xx' },
    // The delete of an id extended from the suite's widget goes out only when a retrieve of that id answers an error or the widget (a 500 is neither).
    inconclusive: { 'DEL-4': 'CRUD-5' },
    make: () => serve(new (class extends ReferenceService {
      protected override retrieve(account: string, id: string): Reply {
        if (!this.store.get(account, id)) throw new HttpError(500, 'internal_error', 'lookup failed');
        return super.retrieve(account, id);
      }
    })()),
  },
  {
    name: 'prefix-match-retrieve', rule: 'CRUD-5',
    description: 'retrieves the first widget whose id begins the id sent when no widget has that id (a delete finds ids exactly)',
    make: () => serve(lenientLookup('prefix', { retrieve: true, delete: false })),
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
  {
    // The backend is conformant; the deployment is not: every widget's id holds a "/", whose
    // encoded form Apache answers with its own HTML 404 (AllowEncodedSlashes Off, its default).
    name: 'base64-ids-behind-apache-default', rule: 'CRUD-4',
    description: 'standard base64 ids holding "/" and "+", behind Apache httpd with its default AllowEncodedSlashes Off: every request for a widget (%2F in its target) is answered 404 with Apache\'s HTML page',
    // The unknown ids the suite makes up are shaped like the server's, "/" included: their
    // retrieve gets the same HTML page, no Error object.
    alsoBreaks: { 'CRUD-5': 'an unknown id shaped like the server\'s holds "/" too, and Apache answers its retrieve with an HTML 404, not an Error object' },
    // No widget of the run can be retrieved, so none is proven the suite's own (left, listed by
    // id): every check that finds widgets by id stands on CRUD-4.
    inconclusive: dependentsOf('CRUD-4'),
    make: () => serve(apache(new ReferenceService({ store: new Base64Store() }), 'Off')),
  },
];
