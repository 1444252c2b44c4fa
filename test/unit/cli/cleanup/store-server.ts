/**
 * A small in-process Widget server for `cleanup` and the run's cleanup sentences: a plain store
 * per account, ids from a function the test chooses (tokens inside them, controls, anything),
 * and a few switchable faults of deployments (a proxy's 404 for some retrieves, a cache that
 * serves a stale GET after a delete, a router that 404s every path). It knows the truth: which
 * widget is whose, and every DELETE it received.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startServer, type RunningServer } from '../../../../src/reference/server.ts';

export interface StoredWidget {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
}

export interface StoreFaults {
  /** Retrieves of these ids are answered 404 by "a proxy", though the widget is there and listed. */
  proxy404?: Set<string>;
  /** Retrieves of these ids are answered 500 (DELETEs still work). */
  retrieve500?: Set<string>;
  /** A GET of an id just deleted is answered once more from a cache, with the widget as it was. */
  staleAfterDelete?: boolean;
  /** Every path answers 404 (a router in front that knows none of them). */
  everything404?: boolean;
  /** Every create is answered with the id the previous create of the account got (the widget is stored under its own). */
  repeatIds?: boolean;
  /** A retrieve of an id the account does not hold is answered 204 with no body (a framework's empty success for "nothing"). */
  unknown204?: boolean;
}

export class StoreServer {
  readonly widgets = new Map<string, Map<string, StoredWidget>>([['primary', new Map()], ['second', new Map()]]);
  /** Every DELETE the server received for an existing widget, by account and id. */
  readonly deletes: Array<{ account: string; id: string }> = [];
  private readonly stale = new Map<string, StoredWidget>();
  private readonly lastId = new Map<string, string>();
  private n = 0;

  constructor(
    readonly tokens: Readonly<Record<string, 'primary' | 'second'>>,
    private readonly nextId: (n: number) => string = (n) => `w${n}`,
    readonly faults: StoreFaults = {},
  ) {}

  /** Puts a widget in an account as if someone else made it. */
  put(account: string, widget: StoredWidget): void {
    this.widgets.get(account)!.set(widget.id, widget);
  }

  private json(res: ServerResponse, status: number, body?: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' }).end(body === undefined ? '' : JSON.stringify(body));
  }

  handle = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => this.answer(req, Buffer.concat(chunks).toString('utf8'), res));
  };

  private answer(req: IncomingMessage, body: string, res: ServerResponse): void {
    if (this.faults.everything404) return this.json(res, 404, { code: 'not_found', message: 'no route' });
    const account = this.tokens[(req.headers.authorization ?? '').replace(/^Bearer /, '')];
    if (!account) return this.json(res, 401, { code: 'unauthorized', message: 'no' });
    const url = new URL(req.url ?? '/', 'http://x');
    // The base path the loopback server is given (/v1) is the service's root.
    url.pathname = url.pathname.replace(/^\/v1(?=\/)/, '');
    const mine = this.widgets.get(account)!;
    if (url.pathname === '/widgets' && req.method === 'GET') return this.json(res, 200, { data: [...mine.values()], has_more: false });
    if (url.pathname === '/widgets' && req.method === 'POST') {
      const input = JSON.parse(body) as { name: string; description?: string };
      const w: StoredWidget = { id: this.nextId((this.n += 1)), name: input.name, ...(input.description === undefined ? {} : { description: input.description }) };
      mine.set(w.id, w);
      const answeredId = this.faults.repeatIds ? (this.lastId.get(account) ?? w.id) : w.id;
      this.lastId.set(account, w.id);
      return this.json(res, 201, { ...w, id: answeredId, created_at: new Date(0).toISOString() });
    }
    if (!url.pathname.startsWith('/widgets/')) return this.json(res, 404, { code: 'not_found', message: 'no' });
    const id = decodeURIComponent(url.pathname.slice('/widgets/'.length));
    if (req.method === 'GET') {
      const stale = this.stale.get(`${account}\n${id}`);
      if (stale) {
        this.stale.delete(`${account}\n${id}`);
        return this.json(res, 200, { ...stale, created_at: new Date(0).toISOString() });
      }
      if (this.faults.retrieve500?.has(id)) return this.json(res, 500, { code: 'internal', message: 'oops' });
      if (this.faults.proxy404?.has(id)) return this.json(res, 404, { code: 'not_found', message: 'proxy' });
      const w = mine.get(id);
      if (!w && this.faults.unknown204) return this.json(res, 204);
      return w ? this.json(res, 200, { ...w, created_at: new Date(0).toISOString() }) : this.json(res, 404, { code: 'not_found', message: 'no' });
    }
    if (req.method === 'DELETE') {
      const w = mine.get(id);
      if (!w) return this.json(res, 404, { code: 'not_found', message: 'no' });
      mine.delete(id);
      this.deletes.push({ account, id });
      if (this.faults.staleAfterDelete) this.stale.set(`${account}\n${id}`, w);
      return this.json(res, 204);
    }
    this.json(res, 405, { code: 'method_not_allowed', message: 'no' });
  }

  /** Starts it on a loopback port. */
  start(): Promise<RunningServer> {
    return startServer({ handle: this.handle });
  }
}
