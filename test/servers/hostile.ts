/**
 * Hostile servers: not implementations with a bug, but targets that misbehave at the HTTP
 * level. The suite must end within a stated bound, with failed rules or a suite error (exit
 * 3), never hang, crash, print a stack trace, grow without bound, or let a token out.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { HttpError, ReferenceService, type PageJson, type Reply, type WidgetJson } from '../../src/reference/service.ts';
import { startServer, type RequestHandler, type RunningServer } from '../../src/reference/server.ts';

export interface HostileCase {
  readonly name: string;
  readonly description: string;
  /** The exit codes that are a correct verdict for this server. */
  readonly exitCodes: readonly number[];
  /** Text the run's output must contain (its one-line reason). */
  readonly says?: string;
  /** A rule that must fail, when the run gets as far as the rules. */
  readonly fails?: string;
  /** Extra arguments for this case. */
  readonly args?: readonly string[];
  /**
   * The rules run (--only) when not the usual ones (test/e2e/hostile.test.ts): a case whose every
   * answer costs the suite seconds of CPU runs the rules that meet it, not all of them.
   */
  readonly only?: string;
  /**
   * Seconds the run may take, when the case's answers make the suite's own work slow rather
   * than make it wait (test/e2e/hostile.test.ts has the usual bound).
   */
  readonly boundS?: number;
  /**
   * The run's --timeout for this case (test/e2e/hostile.test.ts has the usual one), when building
   * an answer costs the server itself CPU that a loaded machine may not give it within the usual one.
   */
  readonly timeoutMs?: number;
  /** Starts whatever the case needs; returns the handler and a check run after the suite. */
  setup(): Promise<{ handler: RequestHandler; after?: () => Promise<string[]>; close?: () => Promise<void> }>;
}

const handler = (fn: (req: IncomingMessage, res: ServerResponse) => void): RequestHandler => ({ handle: fn });

export const HOSTILE: readonly HostileCase[] = [
  {
    name: 'never-answers', description: 'accepts connections and requests but never answers',
    exitCodes: [3], says: 'no complete response within --timeout',
    setup: async () => ({ handler: handler(() => {}) }),
  },
  {
    name: 'drips-body', description: 'sends headers, then one byte of body every 200 ms, forever',
    exitCodes: [3], says: 'no complete response within --timeout',
    setup: async () => ({
      handler: handler((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const timer = setInterval(() => res.write(' '), 200);
        res.on('close', () => clearInterval(timer));
      }),
    }),
  },
  {
    name: 'endless-body', description: 'streams a JSON body that never ends, as fast as the client reads',
    exitCodes: [3], says: 'response body larger than',
    setup: async () => ({
      handler: handler((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const pump = (): void => {
          while (!res.destroyed && res.write(chunk));
        };
        res.on('drain', pump);
        pump();
      }),
    }),
  },
  {
    name: 'invalid-json', description: 'answers everything 200 with Content-Type application/json and a body that is not JSON',
    exitCodes: [1], fails: 'FMT-1',
    setup: async () => ({ handler: handler((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"data": [')) }),
  },
  {
    name: 'redirects-elsewhere', description: 'redirects every request (307) to the same path on another server, which records what reaches it',
    // A setup problem, found by the probe before any test (test/e2e/setup-problems.test.ts).
    exitCodes: [2], says: 'the suite does not follow redirects',
    setup: async () => {
      const seen: string[] = [];
      const elsewhere: RunningServer = await startServer(handler((req, res) => {
        seen.push(`${req.method} ${req.url} authorization=${req.headers.authorization ?? '(none)'}`);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[],"has_more":false}');
      }), { host: '127.0.0.2' });
      return {
        handler: handler((req, res) => res.writeHead(307, { location: `${elsewhere.url}${req.url ?? '/'}` }).end()),
        after: async () => seen.map((s) => `the other host received: ${s}`),
        close: () => elsewhere.close(),
      };
    },
  },
  {
    name: 'resets-connections', description: 'destroys the connection as soon as a request arrives',
    exitCodes: [3], says: 'connection reset',
    setup: async () => ({ handler: handler((req) => req.socket.destroy()) }),
  },
  {
    name: 'cursors-cycle', description: 'a conformant server whose next_cursor on the third page points back to the second page',
    exitCodes: [1], fails: 'PAGE-5',
    setup: async () => ({
      handler: new (class extends ReferenceService {
        private readonly firstCursors = new Map<string, string>();
        protected override list(account: string, query: URLSearchParams): Reply {
          const reply = super.list(account, query);
          const body = reply.body as PageJson;
          const cursor = query.get('cursor') ?? '';
          // Remember the cursor a first page hands out; the page it fetches (page 2) hands it out again as its own next_cursor.
          if (!query.has('cursor') && body.next_cursor) this.firstCursors.set(body.next_cursor, body.next_cursor);
          else if (body.next_cursor && this.firstCursors.has(cursor)) body.next_cursor = cursor;
          return reply;
        }
      })(),
    }),
  },
  {
    name: 'rate-limits-everything', description: 'answers every request 429 with Retry-After: 1',
    exitCodes: [3], says: 'still answered 429',
    setup: async () => ({ handler: handler((_req, res) => res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"code":"slow_down","message":"Too many requests."}')) }),
  },
  {
    name: 'refuses-everything-midway', description: "a conformant server behind a gateway that, after its first 60 requests, refuses every request with nginx's 503 page and no Retry-After",
    exitCodes: [3], says: 'beyond the wait budget, after answering',
    setup: async () => {
      let count = 0;
      const service = new ReferenceService();
      return {
        handler: handler((req, res) => {
          if ((count += 1) <= 60) return void service.handle(req, res);
          res.writeHead(503, { 'content-type': 'text/html' }).end('<html><head><title>503 Service Temporarily Unavailable</title></head><body><center><h1>503 Service Temporarily Unavailable</h1></center><hr><center>nginx</center></body></html>');
        }),
      };
    },
  },
  {
    name: 'stops-answering-midway', description: 'a conformant server that stops answering after its first 40 requests',
    exitCodes: [3], says: 'the target stopped answering',
    setup: async () => {
      let count = 0;
      const service = new ReferenceService();
      return { handler: handler((req, res) => void ((count += 1) <= 40 ? service.handle(req, res) : undefined)) };
    },
  },
];

/** Everything a server may learn of the credentials a request carried, written back in many spellings. */
function echoes(req: IncomingMessage): string[] {
  const seen = [req.headers.authorization ?? '', new URL(req.url ?? '/', 'http://x').searchParams.get('access_token') ?? ''].filter(Boolean);
  return seen.flatMap((v) => [
    v,
    JSON.stringify(v).replace(/\//g, '\\/'),
    [...v].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    encodeURIComponent(v),
    Buffer.from(v).toString('base64'),
    v.replace(/[&<>"'_]/g, (c) => `&#${c.charCodeAt(0)};`),
    v.toUpperCase(),
  ]);
}

/** A gzip body far larger than the suite's cap once decoded: a compression bomb. */
const BOMB = gzipSync(Buffer.alloc(256 * 1024 * 1024, 0x20), { level: 9 });

/** The lists the reachability check makes (one per account) before any test. */
const REACHABILITY_LISTS = 2;

/** The reference service, except that every list request after the first `spared` is answered by `instead`. */
function listsAfter(spared: number, instead: (res: ServerResponse) => void): RequestHandler {
  let lists = 0;
  const service = new ReferenceService();
  return handler((req, res) => {
    const isList = req.method === 'GET' && /\/widgets(\?|$)/.test(req.url ?? '');
    if (isList && (lists += 1) > spared) instead(res);
    else void service.handle(req, res);
  });
}

export const MORE_HOSTILE: readonly HostileCase[] = [
  {
    name: 'echoes-credentials',
    description: 'writes the Authorization header and any access_token back, in seven spellings, into error messages, a response header and the description of every widget it creates',
    exitCodes: [1],
    setup: async () => ({
      handler: new (class extends ReferenceService {
        override async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
          res.setHeader('X-Seen-Credentials', Buffer.from(echoes(req).join(' ')).toString('base64'));
          res.setHeader('X-Seen-Authorization', encodeURIComponent(req.headers.authorization ?? ''));
          return super.handle(req, res);
        }
        protected override sendError(res: ServerResponse, requestId: string, error: HttpError): void {
          this.sendJson(res, error.status, { code: error.code, message: `${error.message} You sent: ${echoes(res.req).join(' | ')}`, request_id: requestId }, error.headers);
        }
        protected override async create(account: string, req: IncomingMessage): Promise<Reply> {
          const reply = await super.create(account, req);
          return { ...reply, body: { ...(reply.body as WidgetJson), description: echoes(req).join(' ') } };
        }
      })(),
    }),
  },
  {
    name: 'throttles-half-the-requests', description: 'a conformant server that answers every other request 429 with Retry-After: 1',
    exitCodes: [0, 1, 3], says: 'rate-limit wait budget',
    setup: async () => {
      let n = 0;
      const service = new ReferenceService();
      return {
        handler: handler((req, res) => {
          if ((n += 1) % 2 === 0) res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"code":"slow_down","message":"Too many requests."}');
          else void service.handle(req, res);
        }),
      };
    },
  },
  {
    name: 'lists-hang', description: 'a conformant server whose lists never answer after the first two (the reachability checks)',
    // The first contact's lists go unanswered while other requests are answered: PAGE-6's to judge.
    exitCodes: [1], says: 'no complete response within --timeout', fails: 'PAGE-6',
    // A list that never answers while connections opened after its own are answered is no stall
    // (src/http/concurrency.ts): the hung lists wait out their --timeout side by side in the slots.
    // Alone on the loaded 2-core machine (load average 3 to 5): 29-32 s, against 44 s when they were
    // taken for a one-worker server's stalls and waited one after another (4 fixed slots: 24 s);
    // most of the rest is each client's start at one slot, which a hung list holds for its
    // timeout. Still bounded by the timeouts, not a hang: twice what was measured.
    boundS: 60,
    setup: async () => ({ handler: listsAfter(REACHABILITY_LISTS, () => {}) }),
  },
  {
    name: 'gzip-bomb-lists', description: 'answers every list after the reachability checks with a 300 KB gzip body that decodes to 256 MiB',
    exitCodes: [1, 3], says: 'response body larger than',
    setup: async () => ({
      handler: listsAfter(REACHABILITY_LISTS, (res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(BOMB)),
    }),
  },
  {
    name: 'gzips-everything', description: 'a conformant server that gzips every body it sends (legal: the suite asks for identity, and gzip is still decoded)',
    exitCodes: [0],
    setup: async () => ({
      handler: new (class extends ReferenceService {
        protected override sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
          res.writeHead(status, { ...headers, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }).end(gzipSync(JSON.stringify(body)));
        }
      })(),
    }),
  },
  {
    name: 'deeply-nested-names', description: 'answers every Widget with a name that is an array nested 100,000 deep',
    exitCodes: [1], fails: 'FMT-3',
    // Every answer is parsed into 100,000 nested arrays per Widget (lists of them are megabytes of
    // brackets): with every rule but the properties, 60 s of CPU (two thirds of it garbage
    // collection), 85-95 s beside the other self-tests. The format, create and delete rules meet
    // the nesting in every report format (FMT-3 fails on it) without the lists of megabytes: about
    // 10 s. CPU, not waiting: a hang still ends at the test's timeout.
    only: 'FMT,CRUD,DEL',
    boundS: 90,
    // A list of such Widgets is megabytes the test process itself must build while fifteen other
    // runs load it: the usual 1 s per request ended this run as "the target stopped answering".
    timeoutMs: 10_000,
    setup: async () => {
      const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
      return {
        handler: new (class extends ReferenceService {
          protected override sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
            // Spliced into the text: JSON.stringify of such a value would itself overflow the stack.
            const text = JSON.stringify(body).replace(/"name":"(?:[^"\\]|\\.)*"/g, `"name":${deep}`);
            res.writeHead(status, { ...headers, 'Content-Type': 'application/json' }).end(text);
          }
        })(),
      };
    },
  },
  {
    name: 'token-expires', description: 'a conformant server that stops accepting both tokens after its first 300 requests',
    exitCodes: [2], says: 'stopped accepting',
    setup: async () => {
      let n = 0;
      const service = new ReferenceService();
      return {
        handler: handler((req, res) => {
          if ((n += 1) > 300) res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer error="invalid_token"' }).end('{"code":"expired","message":"The token expired."}');
          else void service.handle(req, res);
        }),
      };
    },
  },
];
