/** Faults of authentication (AUTH): requests served without valid credentials, and what a refusal says. */
import type { IncomingMessage } from 'node:http';
import { API_PREFIX, DEFAULT_TOKENS, HttpError, ReferenceService, type Reply } from '../../../src/reference/service.ts';
import { ownerOf, serve, TOKENS } from '../support.ts';
import type { FaultCase } from './case.ts';

const COLLECTION = `${API_PREFIX}/widgets`;

/** The path of a request, without its query. */
const pathOf = (req: IncomingMessage): string => (req.url ?? '/').split('?', 1)[0] ?? '/';

/** True for GET and POST on /v1/widgets, the routes the spec documents auth failures for. */
const isCollection = (req: IncomingMessage): boolean => pathOf(req) === COLLECTION;

export const AUTH_FAULTS: readonly FaultCase[] = [
  {
    name: 'anonymous-default-account', rule: 'AUTH-1',
    description: 'serves list and create without an Authorization header as the first (default) account',
    alsoBreaks: { 'FMT-2': 'the documented failures without credentials are answered 2xx', 'AUTH-5': 'a request without credentials is answered 200, not 401' },
    make: () => serve(new (class extends ReferenceService {
      protected override authenticate(req: IncomingMessage): string {
        if (req.headers.authorization === undefined && isCollection(req)) return DEFAULT_TOKENS[TOKENS[0]]!;
        return super.authenticate(req);
      }
    })()),
  },
  {
    name: 'unknown-token-provisions-account', rule: 'AUTH-2',
    description: 'accepts any non-empty bearer token, giving an unknown one a new, empty account (sign-up on first use)',
    alsoBreaks: { 'AUTH-5': 'an unknown token is answered 200, not 401' },
    make: () => serve(new (class extends ReferenceService {
      protected override accountForToken(token: string): string | undefined {
        return super.accountForToken(token) ?? `auto:${token}`;
      }
    })()),
  },
  {
    name: 'token-prefix-match', rule: 'AUTH-2',
    description: 'on list and create, accepts any bearer token that starts with a valid one (a startsWith check)',
    make: () => serve(new (class extends ReferenceService {
      protected override authenticate(req: IncomingMessage): string {
        const header = req.headers.authorization ?? '';
        if (isCollection(req)) {
          const known = Object.keys(this.tokens).find((token) => header.startsWith(`Bearer ${token}`));
          if (known !== undefined) return this.tokens[known]!;
        }
        return super.authenticate(req);
      }
    })()),
  },
  {
    name: 'auth-scheme-ignored', rule: 'AUTH-2',
    description: 'on list and create, takes the second word of Authorization as the token whatever the scheme (Basic accepted)',
    make: () => serve(new (class extends ReferenceService {
      protected override authenticate(req: IncomingMessage): string {
        const token = (req.headers.authorization ?? '').split(' ')[1];
        if (isCollection(req) && token !== undefined && token !== '') {
          const account = this.accountForToken(token);
          if (account !== undefined) return account;
        }
        return super.authenticate(req);
      }
    })()),
  },
  {
    name: 'truncated-token-accepted', rule: 'AUTH-2', description: 'accepts any prefix of a valid token (known.startsWith(presented))',
    alsoBreaks: { 'AUTH-4': 'retrieve and delete with the shortened token succeed' },
    make: () => serve(new (class extends ReferenceService {
      protected override accountForToken(token: string): string | undefined {
        const known = Object.keys(this.tokens).find((k) => k.startsWith(token));
        return known === undefined ? undefined : this.tokens[known];
      }
    })()),
  },
  {
    name: 'token-case-insensitive', rule: 'AUTH-2', description: 'compares tokens without regard to case',
    alsoBreaks: { 'AUTH-4': 'retrieve and delete with the token in the other case succeed' },
    make: () => serve(new (class extends ReferenceService {
      protected override accountForToken(token: string): string | undefined {
        return super.accountForToken(token.toLowerCase());
      }
    })()),
  },
  {
    name: 'refused-create-still-stored', rule: 'AUTH-3',
    description: 'writes a create for the account the credentials seem to name (any scheme, token prefix) and verifies the token only afterwards: the 401 leaves the widget stored',
    make: () => serve(new (class extends ReferenceService {
      protected override async dispatch(req: IncomingMessage): Promise<Reply> {
        if (req.method !== 'POST' || !isCollection(req)) return super.dispatch(req);
        const presented = (req.headers.authorization ?? '').split(' ').slice(1).join(' ');
        const claimed = Object.keys(this.tokens).find((token) => presented.startsWith(token));
        if (claimed === undefined) return super.dispatch(req);
        const reply = await this.create(this.tokens[claimed]!, req);
        this.authenticate(req); // too late: the widget is already stored
        return reply;
      }
    })()),
  },
  {
    name: 'item-routes-skip-auth', rule: 'AUTH-4',
    description: 'serves retrieve and delete without valid credentials, treating the widget id as enough',
    make: () => serve(new (class extends ReferenceService {
      protected override async dispatch(req: IncomingMessage): Promise<Reply> {
        const id = this.widgetIdFromPath(pathOf(req));
        if (id !== undefined) {
          try {
            this.authenticate(req);
          } catch {
            const owner = ownerOf(this, this.store, id);
            if (owner !== undefined && req.method === 'GET') return this.retrieve(owner, id);
            if (owner !== undefined && req.method === 'DELETE') return this.remove(owner, id);
          }
        }
        return super.dispatch(req);
      }
    })()),
  },
  {
    name: 'auth-401-without-challenge', rule: 'AUTH-5',
    description: 'answers authentication failures with 401 but no WWW-Authenticate header',
    make: () => serve(new (class extends ReferenceService {
      protected override authenticate(req: IncomingMessage): string {
        try {
          return super.authenticate(req);
        } catch (error) {
          if (error instanceof HttpError) throw new HttpError(error.status, error.code, error.message);
          throw error;
        }
      }
    })()),
  },
  {
    name: 'auth-error-echoes-token', rule: 'AUTH-5',
    description: 'names the rejected token in the Error message ("unknown token \\"…\\"")',
    make: () => serve(new (class extends ReferenceService {
      protected override authenticate(req: IncomingMessage): string {
        try {
          return super.authenticate(req);
        } catch (error) {
          const header = req.headers.authorization;
          if (error instanceof HttpError && header !== undefined) {
            throw new HttpError(error.status, error.code, `Unknown credentials ${JSON.stringify(header)}.`, error.headers);
          }
          throw error;
        }
      }
    })()),
  },
  {
    name: 'scheme-match-unanchored', rule: 'AUTH-2',
    description: 'on list and create, finds the scheme with an unanchored /bearer +(.+)$/i: XBearer <token> authenticates',
    make: () => serve(new (class extends ReferenceService {
      protected override authenticate(req: IncomingMessage): string {
        const token = /bearer +(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
        const account = isCollection(req) && token !== undefined ? this.accountForToken(token) : undefined;
        return account ?? super.authenticate(req);
      }
    })()),
  },
  {
    name: 'scheme-prefix-match', rule: 'AUTH-2',
    description: 'on list and create, takes any scheme that starts with "bearer" (a startsWith check): Bearerx <token> authenticates',
    make: () => serve(new (class extends ReferenceService {
      protected override authenticate(req: IncomingMessage): string {
        const header = req.headers.authorization ?? '';
        const token = header.toLowerCase().startsWith('bearer') ? header.split(' ').at(-1) : undefined;
        const account = isCollection(req) && token !== undefined ? this.accountForToken(token) : undefined;
        return account ?? super.authenticate(req);
      }
    })()),
  },
  {
    name: 'scheme-case-sensitive', rule: 'AUTH-6',
    description: 'accepts the scheme only as spelled "Bearer": bearer <token> and BEARER <token> are refused',
    make: () => serve(new (class extends ReferenceService {
      protected override authenticate(req: IncomingMessage): string {
        const header = req.headers.authorization;
        if (header !== undefined && !header.startsWith('Bearer ')) req.headers.authorization = `Refused ${header}`;
        return super.authenticate(req);
      }
    })()),
  },
  {
    name: 'single-space-only', rule: 'AUTH-6',
    description: 'takes the token as everything after "Bearer " (one space): with two spaces the token starts with a space and is unknown',
    make: () => serve(new (class extends ReferenceService {
      protected override authenticate(req: IncomingMessage): string {
        const header = req.headers.authorization;
        if (header !== undefined && /^bearer  /i.test(header)) req.headers.authorization = `Refused ${header}`;
        return super.authenticate(req);
      }
    })()),
  },
];
