/**
 * Faulty servers: each is the reference service with exactly one fault switched on, and the
 * rule the suite must fail it on. `npm run test:self` proves each is caught by that rule.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_TOKENS, HttpError, ReferenceService, type Reply, type WidgetJson } from '../../src/reference/service.ts';
import { WidgetStore, type StoredWidget } from '../../src/reference/store.ts';
import type { TestServer } from './serve.ts';

export const TOKENS = Object.keys(DEFAULT_TOKENS) as [string, string];

export interface FaultCase {
  /** Stable, kebab-case: the self-test titles carry it. */
  readonly name: string;
  /** The rule the suite must fail (or warn, for a SHOULD rule) on this server. */
  readonly rule: string;
  readonly description: string;
  make(): TestServer;
}

const serve = (handler: ReferenceService): TestServer => ({ handler, tokens: TOKENS });

export const CRUD_FAULTS: readonly FaultCase[] = [
  {
    name: 'json-as-text-plain', rule: 'FMT-1', description: 'sends every JSON body with Content-Type text/plain',
    make: () => serve(new (class extends ReferenceService {
      protected override sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
        res.writeHead(status, { ...headers, 'Content-Type': 'text/plain' }).end(JSON.stringify(body));
      }
    })()),
  },
  {
    name: 'error-without-message', rule: 'FMT-2', description: 'sends Error objects without the required message',
    make: () => serve(new (class extends ReferenceService {
      protected override sendError(res: ServerResponse, requestId: string, error: HttpError): void {
        this.sendJson(res, error.status, { code: error.code, request_id: requestId }, error.headers);
      }
    })()),
  },
  {
    name: 'created-at-without-zone', rule: 'FMT-3', description: 'writes created_at without a time zone ("2026-01-01T10:00:00.000")',
    make: () => serve(new ReferenceService({ store: new (class extends WidgetStore {
      protected override now(): string { return new Date().toISOString().slice(0, -1); }
    })() })),
  },
  {
    name: 'create-drops-description', rule: 'CRUD-1', description: 'leaves the description out of the create response',
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
    name: 'ids-from-the-clock', rule: 'CRUD-3', description: 'makes ids from the current second, so widgets created together share one',
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

/** Every fault the self-tests run. */
export const FAULTS: readonly FaultCase[] = [...CRUD_FAULTS];

export type { StoredWidget };
