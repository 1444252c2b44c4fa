/** Faults of the response format (FMT): media types, Error objects, the shape of a Widget. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, ReferenceService, type PageJson, type WidgetJson } from '../../../src/reference/service.ts';
import { WidgetStore, type StoredWidget, type WidgetPage } from '../../../src/reference/store.ts';
import { serve } from '../support.ts';
import type { FaultCase } from './case.ts';

export const FMT_FAULTS: readonly FaultCase[] = [
  {
    name: 'json-as-text-plain', rule: 'FMT-1', description: 'sends every JSON body with Content-Type text/plain',
    inconclusive: { 'MAL-4': 'FMT-1' },
    make: () => serve(new (class extends ReferenceService {
      protected override sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
        res.writeHead(status, { ...headers, 'Content-Type': 'text/plain' }).end(JSON.stringify(body));
      }
    })()),
  },
  {
    name: 'html-error-pages', rule: 'FMT-1', description: 'answers failures with the framework\'s HTML error page, under text/html',
    inconclusive: { 'FMT-2': 'FMT-1', 'FMT-4': 'FMT-1', 'CRUD-5': 'FMT-1', 'DEL-1': 'FMT-1', 'ISO-2': 'FMT-1', 'AUTH-1': 'FMT-1', 'AUTH-2': 'FMT-1', 'MAL-1': 'FMT-1', 'MAL-2': 'FMT-1', 'MAL-3': 'FMT-1', 'MAL-4': 'FMT-1', 'PAGE-8': 'FMT-1' },
    make: () => serve(new (class extends ReferenceService {
      protected override sendError(res: ServerResponse, _requestId: string, error: HttpError): void {
        res.writeHead(error.status, { ...error.headers, 'Content-Type': 'text/html; charset=utf-8' }).end(`<html><body><h1>${error.status}</h1><p>${error.message}</p></body></html>`);
      }
    })()),
  },
  {
    // Content negotiation as frameworks do it: the Error object only when JSON is asked for by name.
    name: 'error-page-by-accept', rule: 'FMT-1',
    description: 'chooses the failure body by the Accept header: an Error object for Accept: application/json, an HTML page for */*, plain text with no Accept (what curl, most HTTP libraries and Go send)',
    inconclusive: { 'FMT-2': 'FMT-1' },
    make: () => serve(new (class extends ReferenceService {
      private readonly accepts = new WeakMap<ServerResponse, string | undefined>();
      override async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
        this.accepts.set(res, req.headers.accept);
        return super.handle(req, res);
      }
      protected override sendError(res: ServerResponse, requestId: string, error: HttpError): void {
        const accept = this.accepts.get(res);
        if (accept === undefined) res.writeHead(error.status, { ...error.headers, 'Content-Type': 'text/plain' }).end(`${error.status} ${error.message}`);
        else if (/application\/json/i.test(accept)) super.sendError(res, requestId, error);
        else res.writeHead(error.status, { ...error.headers, 'Content-Type': 'text/html; charset=utf-8' }).end(`<html><body><h1>${error.status}</h1><p>${error.message}</p></body></html>`);
      }
    })()),
  },
  {
    name: 'error-without-message', rule: 'FMT-2', description: 'sends Error objects without the required message',
    inconclusive: { 'CRUD-5': 'FMT-2', 'FMT-4': 'FMT-2', 'DEL-1': 'FMT-2', 'ISO-2': 'FMT-2', 'AUTH-1': 'FMT-2', 'AUTH-2': 'FMT-2', 'MAL-1': 'FMT-2', 'MAL-2': 'FMT-2', 'MAL-3': 'FMT-2', 'MAL-4': 'FMT-2', 'PAGE-8': 'FMT-2' },
    make: () => serve(new (class extends ReferenceService {
      protected override sendError(res: ServerResponse, requestId: string, error: HttpError): void {
        this.sendJson(res, error.status, { code: error.code, request_id: requestId }, error.headers);
      }
    })()),
  },
  {
    name: 'error-with-200', rule: 'FMT-2', description: 'sends Error objects with status 200 (errors in the body, success on the wire)',
    alsoBreaks: { 'MAL-5': 'a method the spec does not define is answered 200, not 405', 'CRUD-5': 'an unknown id is answered 200, not a 4xx', 'CRUD-6': 'an unknown id is answered 200, not 404', 'DEL-1': 'a retrieve of a deleted widget is answered 200, not a 4xx', 'ISO-2': 'another account\'s widget is answered 200, not a 4xx', 'AUTH-1': 'requests without credentials are answered 200', 'AUTH-2': 'requests with bad credentials are answered 200', 'AUTH-4': 'retrieve and delete with bad credentials are answered 200', 'AUTH-5': 'authentication failures are answered 200, not 401', 'MAL-1': 'a create without name is answered 200', 'MAL-2': 'a create with a name of the wrong type is answered 200', 'MAL-3': 'a body that is not JSON is answered 200', 'PAGE-8': 'an invalid limit (abc) is answered 200, not a 4xx' },
    // The delete of an id extended from the suite's widget goes out only when a retrieve of that id answers an error or the widget (a 200 is neither).
    inconclusive: { 'DEL-4': 'CRUD-5' },
    make: () => serve(new (class extends ReferenceService {
      protected override sendError(res: ServerResponse, requestId: string, error: HttpError): void {
        this.sendJson(res, 200, { code: error.code, message: error.message, request_id: requestId });
      }
    })()),
  },
  {
    name: 'created-at-without-zone', rule: 'FMT-3', description: 'writes created_at without a time zone ("2026-01-01T10:00:00.000")',
    inconclusive: { 'CRUD-2': 'FMT-3' },
    make: () => serve(new ReferenceService({ store: new (class extends WidgetStore {
      protected override now(): string { return new Date().toISOString().slice(0, -1); }
    })() })),
  },
  {
    name: 'id-is-a-number', rule: 'FMT-3', description: 'sends ids as JSON numbers (a database sequence serialised as is)',
    inconclusive: { 'FMT-1': 'FMT-3', 'CRUD-1': 'FMT-3', 'CRUD-2': 'FMT-3', 'CRUD-3': 'FMT-3', 'CRUD-4': 'FMT-3', 'CRUD-5': 'FMT-3', 'CRUD-6': 'FMT-3', 'DEL-1': 'FMT-3', 'DEL-2': 'FMT-3', 'DEL-3': 'FMT-3', 'ISO-1': 'FMT-3', 'ISO-2': 'FMT-3', 'ISO-3': 'FMT-3', 'ISO-4': 'FMT-3', 'ISO-5': 'FMT-3', 'AUTH-4': 'FMT-3',
      'PAGE-1': 'FMT-3', 'PAGE-2': 'FMT-3', 'PAGE-3': 'FMT-3', 'PAGE-4': 'FMT-3', 'PAGE-5': 'FMT-3', 'PAGE-7': 'FMT-3',
      'MAL-5': 'FMT-3', 'PAGE-8': 'FMT-3', 'PAGE-9': 'FMT-3', 'DEL-4': 'FMT-3' },
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
    inconclusive: { 'CRUD-1': 'FMT-3' },
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
  {
    name: 'error-message-empty', rule: 'FMT-4', description: 'sends every Error object with an empty message ("")',
    make: () => serve(new (class extends ReferenceService {
      protected override sendError(res: ServerResponse, requestId: string, error: HttpError): void {
        super.sendError(res, requestId, new HttpError(error.status, error.code, '', error.headers));
      }
    })()),
  },
  {
    name: 'error-code-empty-on-404', rule: 'FMT-4', description: 'answers an unknown id with an Error object whose code is ""',
    make: () => serve(new (class extends ReferenceService {
      protected override widgetNotFound(): HttpError {
        const error = super.widgetNotFound();
        return new HttpError(error.status, '', error.message, error.headers);
      }
    })()),
  },
];
