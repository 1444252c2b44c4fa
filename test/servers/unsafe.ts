/**
 * Servers that put the user's data in the suite's hands: each answers in a way that would make
 * a careless test tool delete widgets it did not create, or lose track of its own. Each holds
 * pre-existing widgets (some named like the suite's) that must survive the run untouched.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ReferenceService, type PageJson, type Reply, type WidgetJson } from '../../src/reference/service.ts';
import { QuietService } from './support.ts';
import { WidgetStore, type StoredWidget, type WidgetInput } from '../../src/reference/store.ts';
import type { RequestHandler } from '../../src/reference/server.ts';
import { apache, Base64Store } from './deployments.ts';

export const ACCOUNTS = ['alice', 'bob'] as const;

/** Widgets the accounts hold before the run; some look like the suite's, none carries a run marker. */
export function seed(store: WidgetStore): void {
  const names = ['production widget', 'CRUD-1 lookalike', 'wcs-unknown but not ours', 'wcs-short', '  spaced  ', 'ünïcödé 🦄', 'wcs-configuration', 'team wcs-integrations', 'wcs-configurations'];
  for (const [i, name] of names.entries()) store.create('alice', { name, ...(i % 2 ? { description: `kept ${i}` } : {}) });
  for (const name of names.slice(0, 3)) store.create('bob', { name, description: 'bob keeps this' });
}

/** Every widget of both accounts, for before/after comparison. */
export function contents(store: WidgetStore): Record<string, StoredWidget[]> {
  return Object.fromEntries(ACCOUNTS.map((a) => [a, store.page(a, undefined, 1_000_000).items]));
}

export interface UnsafeCase {
  readonly name: string;
  readonly description: string;
  /** The exit codes that are a correct verdict for this server. */
  readonly exitCodes: readonly number[];
  /** The ids the run must report as not deleted, given the store after the run and the seeded ids. */
  readonly mustReport?: (store: WidgetStore, seeded: ReadonlySet<string>) => string[];
  /**
   * True when the suite's own widgets can all be found and deleted (the store ends as it began).
   * Otherwise every widget the run made that is left must be named by id in the cleanup report.
   */
  readonly cleansUp: boolean;
  /** Extra arguments for the run. */
  readonly args?: readonly string[];
  /** The store to seed, when not the reference one (e.g. ids of another shape). */
  readonly store?: () => WidgetStore;
  /** More pre-existing widgets, after the common seed. */
  readonly prepare?: (store: WidgetStore) => void;
  make(store: WidgetStore): RequestHandler;
}

const widgetsOf = (store: WidgetStore, account: string): StoredWidget[] => store.page(account, undefined, 1_000_000).items;

/** A list answer with every widget whose name or description contains "wcs-" left out. */
function withoutMarked(reply: Reply): Reply {
  const page = reply.body as PageJson;
  return { ...reply, body: { ...page, data: page.data.filter((w) => !`${w.name} ${w.description ?? ''}`.includes('wcs-')) } };
}

/** A reference service over `store` whose create answer is rewritten. */
function rewritingCreate(store: WidgetStore, rewrite: (account: string, body: WidgetJson) => WidgetJson): ReferenceService {
  return new (class extends ReferenceService {
    protected override async create(account: string, req: IncomingMessage): Promise<Reply> {
      const reply = await super.create(account, req);
      return { ...reply, body: rewrite(account, reply.body as WidgetJson) };
    }
  })({ store });
}

/** A conformant store whose ids are per account: 1, 2, 3… in each account (a composite key, a per-tenant sequence). */
class PerAccountIds extends WidgetStore {
  private readonly counters = new Map<string, number>();
  private account = '';

  override create(account: string, input: WidgetInput): StoredWidget {
    this.account = account;
    return super.create(account, input);
  }

  protected override newId(): string {
    const next = (this.counters.get(this.account) ?? 0) + 1;
    this.counters.set(this.account, next);
    return String(next);
  }
}

/** Enough widgets in the second account that every id the run gets in the first is taken there too. */
const SECOND_ACCOUNT_HOLDS = 400;

export const UNSAFE: readonly UnsafeCase[] = [
  {
    name: 'per-account-ids',
    description: 'a conformant server whose ids are unique per account only, the second account already holding widgets at every id the first one will issue',
    exitCodes: [0],
    cleansUp: true,
    store: () => new PerAccountIds(),
    prepare: (store) => {
      for (let i = 0; i < SECOND_ACCOUNT_HOLDS; i += 1) store.create('bob', { name: `bob's own widget ${i}` });
    },
    make: (store) => new ReferenceService({ store }),
  },
  {
    name: 'create-answers-existing-id',
    description: 'stores each new widget but answers its create with the id of one of the account\'s pre-existing widgets',
    exitCodes: [1, 3],
    // The run never learns where its widgets are: a list showing the marker is no proof, so they stay, reported by id.
    cleansUp: false,
    make: (store) => {
      const preexisting = new Map<string, string[]>(ACCOUNTS.map((a) => [a, widgetsOf(store, a).map((w) => w.id)]));
      let n = 0;
      return rewritingCreate(store, (account, body) => {
        const ids = preexisting.get(account) ?? [];
        return ids.length ? { ...body, id: ids[(n += 1) % ids.length] as string } : body;
      });
    },
  },
  {
    name: 'base64-ids-behind-apache-default',
    description: 'a conformant backend with base64 ids, each holding "/", behind Apache httpd\'s default AllowEncodedSlashes Off: every request for a widget is answered with Apache\'s HTML 404, so no widget of the run can be retrieved or deleted',
    // CRUD-4 fails (the fault catalogue's base64-ids-behind-apache-default has the exact set); never a suite error (3).
    exitCodes: [1],
    cleansUp: false,
    store: () => new Base64Store(),
    // Every widget the run made is left, and each is reported by id.
    mustReport: (store, seeded) => ACCOUNTS.flatMap((a) => widgetsOf(store, a).map((w) => w.id)).filter((id) => !seeded.has(id)),
    make: (store) => apache(new ReferenceService({ store }), 'Off'),
  },
  {
    name: 'dot-ids',
    description: 'answers creates with the ids "." and "..", and deletes every widget of the account on DELETE /widgets/ (where /widgets/. normalises to)',
    exitCodes: [1, 3],
    cleansUp: false,
    mustReport: () => ['.', '..'],
    make: (store) => {
      let n = 0;
      const rewrite = (_account: string, body: WidgetJson): WidgetJson => ((n += 1) % 4 === 1 ? { ...body, id: n % 8 === 1 ? '.' : '..' } : body);
      return new (class extends ReferenceService {
        protected override async create(account: string, req: IncomingMessage): Promise<Reply> {
          const reply = await super.create(account, req);
          return { ...reply, body: rewrite(account, reply.body as WidgetJson) };
        }
        protected override async dispatch(req: IncomingMessage): Promise<Reply> {
          const path = (req.url ?? '').split('?')[0] ?? '';
          if (req.method === 'DELETE' && /\/widgets\/?$/.test(path)) {
            const account = this.authenticate(req);
            for (const w of widgetsOf(store, account)) store.delete(account, w.id);
            return { status: 204 };
          }
          return super.dispatch(req);
        }
      })({ store });
    },
  },
  {
    name: 'hides-marked-from-lists',
    description: 'leaves every widget whose name or description contains "wcs-" out of its lists (retrieve and delete still work)',
    exitCodes: [1],
    cleansUp: true,
    make: (store) => new (class extends ReferenceService {
      protected override list(account: string, query: URLSearchParams): Reply {
        return withoutMarked(super.list(account, query));
      }
    })({ store }),
  },
  {
    name: 'lists-stop-answering',
    description: 'stops answering list requests after the first two (the reachability checks): a list that never answers while other requests do is judged by its rule (PAGE-6 at first contact, exit 1), and cleanup must still delete every id it holds',
    exitCodes: [1],
    cleansUp: true,
    args: ['--timeout', '1000'],
    make: (store) => {
      let lists = 0;
      const service = new ReferenceService({ store });
      return new (class extends ReferenceService {
        override async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
          const isList = req.method === 'GET' && /\/widgets(\?|$)/.test(req.url ?? '');
          if (isList && (lists += 1) > 2) return;
          return service.handle(req, res);
        }
      })({ store });
    },
  },
  {
    name: 'loses-markers',
    description: 'stores every name and description with the word starting "wcs-" removed, so nothing it holds shows the run marker',
    exitCodes: [1],
    cleansUp: false,
    // Every widget the run created is still there, none provably the suite's: each must be listed.
    mustReport: (store, seeded) => ACCOUNTS.flatMap((a) => widgetsOf(store, a).map((w) => w.id)).filter((id) => !seeded.has(id)),
    make: (store) => new (class extends ReferenceService {
      protected override validateCreate(value: unknown): { name: string; description?: string } {
        const input = super.validateCreate(value);
        const strip = (s: string): string => s.replace(/(^|\s)wcs-\S*/g, '$1').trim() || 'unnamed';
        return { name: strip(input.name), ...(input.description === undefined ? {} : { description: strip(input.description) }) };
      }
    })({ store }),
  },
  {
    name: 'existing-id-and-retrieve-agrees',
    description: 'answers a create with the id of a pre-existing widget, shows the suite\'s new widget on a retrieve of that id, and deletes the pre-existing widget on DELETE',
    exitCodes: [1, 3],
    cleansUp: false,
    args: ['--only', 'CRUD'],
    make: (store) => {
      const preexisting = new Map<string, string[]>(ACCOUNTS.map((a) => [a, widgetsOf(store, a).map((w) => w.id)]));
      const shown = new Map<string, WidgetJson>();
      let n = 0;
      return new (class extends ReferenceService {
        protected override async create(account: string, req: IncomingMessage): Promise<Reply> {
          const reply = await super.create(account, req);
          const ids = preexisting.get(account) ?? [];
          if (ids.length === 0) return reply;
          const id = ids[(n += 1) % ids.length] as string;
          shown.set(`${account} ${id}`, { ...(reply.body as WidgetJson), id });
          return { ...reply, body: { ...(reply.body as WidgetJson), id } };
        }
        protected override retrieve(account: string, id: string): Reply {
          const mine = shown.get(`${account} ${id}`);
          return mine ? { status: 200, body: mine } : super.retrieve(account, id);
        }
      })({ store });
    },
  },
  {
    name: 'marker-on-users-widgets',
    description: 'shows the latest run marker on every pre-existing widget, in lists and in retrieves',
    // No rule judges how the user's own widgets are shown: the run may well be conformant.
    exitCodes: [0, 1],
    cleansUp: true,
    make: (store) => {
      const seeded = new Set(ACCOUNTS.flatMap((a) => widgetsOf(store, a).map((w) => w.id)));
      let marker = '';
      const dress = <T extends { id: string; name: string }>(w: T): T => (seeded.has(w.id) && marker ? { ...w, name: `${w.name} ${marker}` } : w);
      return new (class extends ReferenceService {
        protected override validateCreate(value: unknown): WidgetInput {
          const input = super.validateCreate(value);
          marker = /wcs-[a-z2-7]{14}/.exec(`${input.name} ${input.description ?? ''}`)?.[0] ?? marker;
          return input;
        }
        protected override list(account: string, query: URLSearchParams): Reply {
          const reply = super.list(account, query);
          const page = reply.body as PageJson;
          return { ...reply, body: { ...page, data: page.data.map(dress) } };
        }
        protected override retrieve(account: string, id: string): Reply {
          const reply = super.retrieve(account, id);
          return reply.status === 200 ? { ...reply, body: dress(reply.body as WidgetJson) } : reply;
        }
      })({ store });
    },
  },
  {
    name: 'shifted-names-failing-deletes',
    description: 'shows every name of a list page one position off, and answers the first 40 DELETEs with 500',
    exitCodes: [1, 3],
    cleansUp: false,
    make: (store) => {
      let deletes = 0;
      return new (class extends QuietService {
        protected override list(account: string, query: URLSearchParams): Reply {
          const reply = super.list(account, query);
          const page = reply.body as PageJson;
          const data = page.data.map((w, i, all) => ({ ...w, name: (all[(i + 1) % all.length] as WidgetJson).name }));
          return { ...reply, body: { ...page, data } };
        }
        protected override remove(account: string, id: string): Reply {
          if ((deletes += 1) <= 40) return { status: 500, body: { code: 'internal', message: 'try again later' } };
          return super.remove(account, id);
        }
      })({ store });
    },
  },
  {
    name: 'lost-answers-hidden-from-lists',
    description: 'drops the connection instead of answering every fifth create (the widget is made), and leaves marked widgets out of its lists',
    exitCodes: [1, 3],
    cleansUp: false,
    args: ['--only', 'CRUD'],
    make: (store) => {
      let creates = 0;
      const dropped = new WeakSet<Reply>();
      return new (class extends ReferenceService {
        protected override async create(account: string, req: IncomingMessage): Promise<Reply> {
          const reply = await super.create(account, req);
          // Made, then the answer lost.
          if (reply.status === 201 && (creates += 1) % 5 === 0) dropped.add(reply);
          return reply;
        }
        protected override sendReply(res: ServerResponse, reply: Reply): void {
          if (dropped.has(reply)) res.destroy();
          else super.sendReply(res, reply);
        }
        protected override list(account: string, query: URLSearchParams): Reply {
          return withoutMarked(super.list(account, query));
        }
      })({ store });
    },
  },
  {
    name: 'retrieve-upper-cases',
    description: 'answers retrieves with the name upper-cased (lists and creates are as stored)',
    exitCodes: [1],
    cleansUp: true,
    make: (store) => new (class extends ReferenceService {
      protected override retrieve(account: string, id: string): Reply {
        const reply = super.retrieve(account, id);
        return reply.status === 200 ? { ...reply, body: { ...(reply.body as WidgetJson), name: (reply.body as WidgetJson).name.toUpperCase() } } : reply;
      }
    })({ store }),
  },
];
