/** Faults of malformed requests (MAL): bodies that must be refused, and how the refusal is sent. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, ReferenceService, type Reply } from '../../../src/reference/service.ts';
import type { WidgetInput } from '../../../src/reference/store.ts';
import { QuietService, serve } from '../support.ts';
import type { FaultCase } from './case.ts';

export const MAL_FAULTS: readonly FaultCase[] = [
  {
    name: 'missing-name-defaulted', rule: 'MAL-1',
    description: 'gives a widget created without name the name "Untitled widget"',
    alsoBreaks: { 'FMT-2': 'the documented failure for a create without name is answered 201' },
    make: () => serve(new (class extends ReferenceService {
      protected override validateCreate(value: unknown): WidgetInput {
        if (value !== null && typeof value === 'object' && !Array.isArray(value) && !Object.hasOwn(value, 'name')) {
          return super.validateCreate({ ...value, name: 'Untitled widget' });
        }
        return super.validateCreate(value);
      }
    })()),
  },
  {
    name: 'number-name-coerced', rule: 'MAL-2',
    description: 'accepts a number as name and stores it as a string (42 becomes "42")',
    make: () => serve(new (class extends ReferenceService {
      protected override validateCreate(value: unknown): WidgetInput {
        const fields = value as Record<string, unknown> | null;
        if (fields !== null && typeof fields === 'object' && typeof fields.name === 'number') {
          return super.validateCreate({ ...fields, name: String(fields.name) });
        }
        return super.validateCreate(value);
      }
    })()),
  },
  {
    name: 'invalid-json-500', rule: 'MAL-3',
    description: 'parses the body with an unguarded JSON.parse, so a body that is not JSON (or empty) answers 500',
    make: () => serve(new (class extends QuietService {
      protected override parseJson(body: Buffer): unknown {
        return JSON.parse(body.toString('utf8'));
      }
    })()),
  },
  {
    name: 'array-body-bulk-create', rule: 'MAL-3',
    description: 'takes a JSON array of widgets as a bulk create and answers 201 with the array of created widgets',
    make: () => serve(new (class extends ReferenceService {
      protected override async create(account: string, req: IncomingMessage): Promise<Reply> {
        if (!this.isJsonMediaType(req.headers['content-type'])) return super.create(account, req);
        const value = this.parseJson(await this.readBody(req));
        const inputs = (Array.isArray(value) ? value : [value]).map((item) => this.validateCreate(item));
        const widgets = inputs.map((input) => this.toJson(this.store.create(account, input)));
        if (Array.isArray(value)) return { status: 201, body: widgets };
        return { status: 201, headers: { Location: this.widgetPath(widgets[0]!.id) }, body: widgets[0] };
      }
    })()),
  },
  {
    name: 'trailing-garbage-accepted', rule: 'MAL-3', description: 'parses the first JSON value of the body and ignores what follows',
    make: () => serve(new (class extends ReferenceService {
      protected override parseJson(body: Buffer): unknown {
        const text = body.toString('utf8');
        for (let end = text.length; end > 0; end -= 1) {
          try {
            return JSON.parse(text.slice(0, end));
          } catch {
            // a shorter prefix may parse
          }
        }
        return super.parseJson(body);
      }
    })()),
  },
  {
    name: 'malformed-body-409', rule: 'MAL-4',
    description: 'answers malformed create bodies with 409 Conflict (an Error object, but not 400 or 422)',
    make: () => serve(new (class extends ReferenceService {
      protected override toHttpError(thrown: unknown): HttpError {
        const error = super.toHttpError(thrown);
        if (error.code === 'invalid_request' || error.code === 'invalid_json') return new HttpError(409, error.code, error.message, error.headers);
        return error;
      }
    })()),
  },
  {
    name: 'unsupported-media-type-as-text', rule: 'MAL-4',
    description: 'refuses a body that is not sent as application/json with a plain-text 415, not an Error object',
    make: () => serve(new (class extends ReferenceService {
      protected override sendError(res: ServerResponse, requestId: string, error: HttpError): void {
        if (error.status !== 415) return super.sendError(res, requestId, error);
        res.writeHead(415, { 'Content-Type': 'text/plain' }).end('Unsupported Media Type');
      }
    })()),
  },
  {
    name: 'post-on-widget-deletes', rule: 'MAL-5',
    description: 'routes every method but GET on /widgets/{id} to delete: POST, PUT and PATCH delete the widget',
    make: () => serve(new (class extends ReferenceService {
      protected override async dispatch(req: IncomingMessage): Promise<Reply> {
        const id = this.widgetIdFromPath((req.url ?? '/').split('?', 1)[0] ?? '/');
        if (id !== undefined && ['POST', 'PUT', 'PATCH'].includes(req.method ?? '')) return this.remove(this.authenticate(req), id);
        return super.dispatch(req);
      }
    })()),
  },
  {
    name: 'put-on-collection-creates', rule: 'MAL-5',
    description: 'treats PUT and PATCH on /widgets as a create',
    // Only a write to the collection shows it, and the suite sends one only when told to.
    args: ['--allow-collection-writes'],
    make: () => serve(new (class extends ReferenceService {
      protected override async dispatch(req: IncomingMessage): Promise<Reply> {
        if ((req.url ?? '/').split('?', 1)[0] === '/v1/widgets' && (req.method === 'PUT' || req.method === 'PATCH')) return this.create(this.authenticate(req), req);
        return super.dispatch(req);
      }
    })()),
  },
  {
    name: 'method-not-allowed-without-allow', rule: 'MAL-5', description: 'answers an unsupported method 405 without an Allow header',
    make: () => serve(new (class extends ReferenceService {
      protected override sendError(res: ServerResponse, requestId: string, error: HttpError): void {
        const { Allow: _allow, ...headers } = error.headers;
        super.sendError(res, requestId, new HttpError(error.status, error.code, error.message, headers));
      }
    })()),
  },
  {
    name: 'unsupported-method-500', rule: 'MAL-5', description: 'fails with a 500 on any method it has no route for',
    make: () => serve(new (class extends QuietService {
      protected override async dispatch(req: IncomingMessage): Promise<Reply> {
        if (!['GET', 'POST', 'DELETE'].includes(req.method ?? '')) throw new TypeError(`no handler for ${req.method}`);
        return super.dispatch(req);
      }
    })()),
  },
];
