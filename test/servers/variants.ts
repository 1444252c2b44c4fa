/**
 * Conformant variants: servers that make other valid choices than the reference (RULES.md,
 * "What a conformant implementation may choose"). The suite must pass each with no MUST failure.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, ReferenceService, type PageJson, type Reply, type WidgetJson } from '../../src/reference/service.ts';
import { WidgetStore } from '../../src/reference/store.ts';
import { TOKENS } from './faults.ts';
import type { TestServer } from './serve.ts';

export interface VariantCase {
  readonly name: string;
  readonly description: string;
  make(): TestServer;
}

/** Adds fields the spec does not name to every object it sends. */
function withExtras(body: unknown): unknown {
  if (body === null || typeof body !== 'object') return body;
  const page = body as Partial<PageJson>;
  if (Array.isArray(page.data)) return { ...page, data: page.data.map((w) => ({ ...w, kind: 'widget', revision: 1 })), object: 'list' };
  return { ...body, kind: 'extra-field' };
}

export const VARIANTS: readonly VariantCase[] = [
  {
    name: 'uuid-200-422-403-idempotent-delete-extras-limit-5',
    description: 'UUID ids, 200 on create, 422 for malformed bodies, 403 for bad credentials, delete always 204, extra fields everywhere, default limit 5',
    make: () => ({
      tokens: TOKENS,
      handler: new (class extends ReferenceService {
        protected override toHttpError(thrown: unknown): HttpError {
          const error = super.toHttpError(thrown);
          if (error.status === 400 && (error.code === 'invalid_request' || error.code === 'invalid_json')) return new HttpError(422, error.code, error.message);
          if (error.status === 401) return new HttpError(403, 'forbidden', 'Access denied.');
          return error;
        }
        protected override async create(account: string, req: IncomingMessage): Promise<Reply> {
          return { ...(await super.create(account, req)), status: 200 };
        }
        protected override remove(account: string, id: string): Reply {
          this.store.delete(account, id);
          return { status: 204 };
        }
        protected override sendJson(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
          super.sendJson(res, status, withExtras(body), headers);
        }
      })({
        defaultLimit: 5,
        store: new (class extends WidgetStore {
          protected override randomId(): string { return randomUUID(); }
        })(),
      }),
    }),
  },
];

export type { WidgetJson };
