/** Faults of the response format (FMT): media types, Error objects, the shape of a Widget. */
import type { ServerResponse } from 'node:http';
import { HttpError, ReferenceService, type PageJson, type WidgetJson } from '../../../src/reference/service.ts';
import { WidgetStore, type StoredWidget, type WidgetPage } from '../../../src/reference/store.ts';
import { serve } from '../support.ts';
import type { FaultCase } from './case.ts';

export const FMT_FAULTS: readonly FaultCase[] = [
  {
    name: 'json-as-text-plain', rule: 'FMT-1', description: 'sends every JSON body with Content-Type text/plain',
    make: () => serve(new (class extends ReferenceService {
      protected override sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
        res.writeHead(status, { ...headers, 'Content-Type': 'text/plain' }).end(JSON.stringify(body));
      }
    })()),
  },
  {
    name: 'html-error-pages', rule: 'FMT-1', description: 'answers failures with the framework\'s HTML error page, under text/html',
    make: () => serve(new (class extends ReferenceService {
      protected override sendError(res: ServerResponse, _requestId: string, error: HttpError): void {
        res.writeHead(error.status, { ...error.headers, 'Content-Type': 'text/html; charset=utf-8' }).end(`<html><body><h1>${error.status}</h1><p>${error.message}</p></body></html>`);
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
    name: 'error-with-200', rule: 'FMT-2', description: 'sends Error objects with status 200 (errors in the body, success on the wire)',
    make: () => serve(new (class extends ReferenceService {
      protected override sendError(res: ServerResponse, requestId: string, error: HttpError): void {
        this.sendJson(res, 200, { code: error.code, message: error.message, request_id: requestId });
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
    name: 'id-is-a-number', rule: 'FMT-3', description: 'sends ids as JSON numbers (a database sequence serialised as is)',
    make: () => serve(new (class extends ReferenceService {
      private readonly numbers = new Map<string, number>();
      protected override toJson(widget: StoredWidget): WidgetJson {
        if (!this.numbers.has(widget.id)) this.numbers.set(widget.id, this.numbers.size + 1);
        return { ...super.toJson(widget), id: this.numbers.get(widget.id) as unknown as string };
      }
    })()),
  },
  {
    name: 'description-null-when-absent', rule: 'FMT-3', description: 'sends "description": null for widgets created without one',
    make: () => serve(new (class extends ReferenceService {
      protected override toJson(widget: StoredWidget): WidgetJson {
        return { description: null as unknown as string, ...super.toJson(widget) };
      }
    })()),
  },
  {
    name: 'list-items-without-created-at', rule: 'FMT-3', description: 'leaves created_at out of the widgets in list pages (a lighter projection for lists)',
    make: () => serve(new (class extends ReferenceService {
      protected override toPageJson(account: string, page: WidgetPage): PageJson {
        const body = super.toPageJson(account, page);
        return { ...body, data: body.data.map(({ created_at: _dropped, ...rest }) => rest as WidgetJson) };
      }
    })()),
  },
];
