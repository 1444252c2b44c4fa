/**
 * A generated adversary: a real loopback Widget server whose answers lie about identity and
 * ownership, per request, following a schedule fast-check draws (so a failing seed replays the
 * same lies in the same order). It holds pre-existing widgets in two accounts and knows, as the
 * suite cannot, which widget is whose: the property tests read its truth.
 */
import fc from 'fast-check';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startServer, type RunningServer } from '../../src/reference/server.ts';

export const ADVERSARY_TOKENS = { 'adv-token-alice': 'primary', 'adv-token-bob': 'second' } as const;

export const CREATE_LIES = ['honest', 'id-of-pre-existing', 'id-of-own-earlier', 'answer-lost', 'no-id'] as const;
export const RETRIEVE_LIES = ['honest', 'add-marker', 'remove-marker', 'upper-case', 'show-own-widget-at-any-id', 'not-found'] as const;
export const LIST_LIES = ['honest', 'add-marker', 'remove-marker', 'shift-names', 'hide-marked', 'duplicate-entry'] as const;
export const DELETE_LIES = ['honest', 'fail', 'delete-another-own', 'ok-but-keep'] as const;

export interface Schedule {
  readonly preExisting: { readonly primary: number; readonly second: number };
  readonly create: ReadonlyArray<(typeof CREATE_LIES)[number]>;
  readonly retrieve: ReadonlyArray<(typeof RETRIEVE_LIES)[number]>;
  readonly list: ReadonlyArray<(typeof LIST_LIES)[number]>;
  readonly delete: ReadonlyArray<(typeof DELETE_LIES)[number]>;
}

/** Half honest answers, half lies, per operation; lists long enough to vary over a run. */
const lies = <T extends string>(all: readonly T[]): fc.Arbitrary<T[]> =>
  fc.array(fc.oneof({ weight: 1, arbitrary: fc.constant(all[0]!) }, { weight: 1, arbitrary: fc.constantFrom(...all.slice(1)) }), { minLength: 1, maxLength: 12 });

/** Schedules of lies for the adversary. */
export const schedules: fc.Arbitrary<Schedule> = fc.record({
  preExisting: fc.record({ primary: fc.integer({ min: 1, max: 5 }), second: fc.integer({ min: 1, max: 3 }) }),
  create: lies(CREATE_LIES),
  retrieve: lies(RETRIEVE_LIES),
  list: lies(LIST_LIES),
  delete: lies(DELETE_LIES),
});

interface Stored {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  readonly created_at: string;
}

const MARKER = /wcs-[a-z2-7]{14}/;

export class Adversary {
  /** Every widget by account: the truth. */
  readonly widgets = new Map<string, Map<string, Stored>>([['primary', new Map()], ['second', new Map()]]);
  /** Ids the accounts held before the run, with their content. */
  readonly preExisting = new Map<string, Stored>();
  /** Ids of widgets a POST really made, by account. */
  readonly made = new Map<string, string>();
  private next = 1;
  private readonly cursor = { create: 0, retrieve: 0, list: 0, delete: 0 };
  /** The last marker a create carried: what a lying server copies onto the user's widgets. */
  private marker = 'wcs-aaaaaaaaaaaaaa';

  constructor(readonly schedule: Schedule) {
    for (const [account, n] of Object.entries(schedule.preExisting)) {
      for (let i = 0; i < n; i += 1) {
        const w = this.store(account, { name: `user widget ${i}`, ...(i % 2 ? { description: 'kept' } : {}) });
        this.preExisting.set(w.id, w);
      }
    }
  }

  private lie<K extends keyof typeof this.cursor>(op: K): Schedule[K][number] {
    const list = this.schedule[op];
    return list[this.cursor[op]++ % list.length]!;
  }

  private store(account: string, input: { name: string; description?: string }): Stored {
    const w: Stored = { id: `w${this.next++}`, ...input, created_at: new Date(0).toISOString() };
    this.widgets.get(account)!.set(w.id, w);
    return w;
  }

  private own(account: string): Stored[] {
    return [...this.widgets.get(account)!.values()].filter((w) => this.made.has(w.id));
  }

  private users(account: string): Stored[] {
    return [...this.widgets.get(account)!.values()].filter((w) => this.preExisting.has(w.id));
  }

  handle = (req: IncomingMessage, res: ServerResponse): void => {
    const json = (status: number, body?: unknown): void => void res.writeHead(status, { 'content-type': 'application/json' }).end(body === undefined ? '' : JSON.stringify(body));
    const account = ADVERSARY_TOKENS[(req.headers.authorization ?? '').replace(/^Bearer /, '') as keyof typeof ADVERSARY_TOKENS];
    if (!account) return json(401, { code: 'unauthorized', message: 'no' });
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname.replace(/^\/v1/, '');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'GET' && path === '/widgets') return this.list(account, url, json);
      if (req.method === 'POST' && path === '/widgets') return this.create(account, Buffer.concat(chunks).toString('utf8'), json, res);
      const id = decodeURIComponent(path.replace(/^\/widgets\//, ''));
      if (req.method === 'GET') return this.retrieve(account, id, json);
      if (req.method === 'DELETE') return this.remove(account, id, json);
      json(405, { code: 'method_not_allowed', message: 'no' });
    });
  };

  private list(account: string, url: URL, json: (s: number, b?: unknown) => void): void {
    const lie = this.lie('list');
    let all = [...this.widgets.get(account)!.values()];
    if (lie === 'hide-marked') all = all.filter((w) => !MARKER.test(`${w.name} ${w.description ?? ''}`));
    const offset = Number(url.searchParams.get('cursor') ?? 0) || 0;
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 20) || 20, 100);
    let page: Stored[] = all.slice(offset, offset + limit);
    if (lie === 'add-marker') page = page.map((w) => ({ ...w, name: `${w.name} ${this.marker}` }));
    if (lie === 'remove-marker') page = page.map((w) => ({ ...w, name: w.name.replace(MARKER, '').trim() || 'x' }));
    if (lie === 'shift-names' && page.length > 1) page = page.map((w, i) => ({ ...w, name: page[(i + 1) % page.length]!.name }));
    if (lie === 'duplicate-entry' && page.length > 0) page = [...page, { ...page[0]!, name: `${page[0]!.name} ${this.marker}` }];
    const hasMore = offset + limit < all.length;
    json(200, { data: page, has_more: hasMore, ...(hasMore ? { next_cursor: String(offset + limit) } : {}) });
  }

  private create(account: string, body: string, json: (s: number, b?: unknown) => void, res: ServerResponse): void {
    let input: { name?: unknown; description?: unknown };
    try {
      input = JSON.parse(body) as typeof input;
    } catch {
      return json(400, { code: 'invalid_json', message: 'no' });
    }
    if (typeof input.name !== 'string') return json(400, { code: 'invalid_name', message: 'no' });
    const marker = MARKER.exec(input.name)?.[0];
    if (marker) this.marker = marker;
    const w = this.store(account, { name: input.name, ...(typeof input.description === 'string' ? { description: input.description } : {}) });
    this.made.set(w.id, account);
    const lie = this.lie('create');
    if (lie === 'answer-lost') return void res.destroy();
    if (lie === 'no-id') return json(201, { name: w.name, created_at: w.created_at });
    const other = lie === 'id-of-pre-existing' ? this.users(account)[0] : lie === 'id-of-own-earlier' ? this.own(account).find((o) => o.id !== w.id) : undefined;
    json(201, { ...w, id: other?.id ?? w.id });
  }

  private retrieve(account: string, id: string, json: (s: number, b?: unknown) => void): void {
    const lie = this.lie('retrieve');
    const w = this.widgets.get(account)!.get(id);
    if (lie === 'not-found') return json(404, { code: 'not_found', message: 'no' });
    if (lie === 'show-own-widget-at-any-id') {
      const own = this.own(account).at(-1);
      if (own) return json(200, { ...own, id });
    }
    if (!w) return json(404, { code: 'not_found', message: 'no' });
    if (lie === 'add-marker') return json(200, { ...w, name: `${w.name} ${this.marker}` });
    if (lie === 'remove-marker') return json(200, { ...w, name: w.name.replace(MARKER, '').trim() || 'x' });
    if (lie === 'upper-case') return json(200, { ...w, name: w.name.toUpperCase() });
    json(200, w);
  }

  private remove(account: string, id: string, json: (s: number, b?: unknown) => void): void {
    const lie = this.lie('delete');
    const widgets = this.widgets.get(account)!;
    if (lie === 'fail') return json(500, { code: 'internal', message: 'try later' });
    if (lie === 'ok-but-keep') return json(204);
    if (!widgets.has(id)) return json(404, { code: 'not_found', message: 'no' });
    // Another widget of the run's goes instead (never a user's: no client could defend against that).
    const victim = lie === 'delete-another-own' ? (this.own(account).find((o) => o.id !== id)?.id ?? id) : id;
    widgets.delete(victim);
    json(204);
  }

  /** Pre-existing widgets not exactly as they were. */
  damaged(): string[] {
    return [...this.preExisting.values()].filter((w) => {
      const account = w.id && [...this.widgets].find(([, m]) => m.has(w.id))?.[0];
      return account === undefined || JSON.stringify(this.widgets.get(account)!.get(w.id)) !== JSON.stringify(w);
    }).map((w) => w.id);
  }

  /** Widgets a POST made that are still there, by account. */
  remaining(): Array<{ account: string; id: string }> {
    return [...this.widgets].flatMap(([account, m]) => [...m.keys()].filter((id) => this.made.has(id)).map((id) => ({ account, id })));
  }

  /** Starts the adversary on a loopback port. */
  start(): Promise<RunningServer> {
    return startServer({ handle: this.handle });
  }
}
