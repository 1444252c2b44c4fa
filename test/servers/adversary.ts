/**
 * A generated adversary: a real loopback Widget server whose answers lie about identity and
 * ownership, per request, following a schedule fast-check draws (so a failing seed replays the
 * same lies in the same order). It holds pre-existing widgets in two accounts and knows, as the
 * suite cannot, which widget is whose: the property tests read its truth.
 *
 * Beyond the answers, it attacks the doors (issue 29): races between any two requests (an id of
 * the suite's given to another client's widget, also right after a DELETE whose answer it
 * dropped; another client's writes during the run, copies of the suite's names among them),
 * routers that normalise or decode ids (a DELETE that finds the widget by a folded id, or that
 * decodes the path twice and resolves dot segments, or that reads ids leniently), creates
 * answered with lookalikes or extensions of pre-existing ids, and an inventory the list hides. Foreign widgets (the users' and the other
 * client's) are the ones that must stay intact.
 */
import fc from 'fast-check';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startServer, type RunningServer } from '../../src/reference/server.ts';

export const ADVERSARY_TOKENS = { 'adv-token-alice': 'primary', 'adv-token-bob': 'second' } as const;

export const CREATE_LIES = ['honest', 'id-of-pre-existing', 'id-of-own-earlier', 'answer-lost', 'no-id', 'lookalike-of-pre-existing', 'dot-dot-id', 'no-created-at', 'slash-id-over-pre-existing', 'extension-of-pre-existing'] as const;
export const RETRIEVE_LIES = ['honest', 'add-marker', 'remove-marker', 'upper-case', 'show-own-widget-at-any-id', 'not-found'] as const;
export const LIST_LIES = ['honest', 'add-marker', 'remove-marker', 'shift-names', 'hide-marked', 'duplicate-entry', 'hide-pre-existing'] as const;
export const DELETE_LIES = ['honest', 'fail', 'delete-another-own', 'ok-but-keep', 'reassign-and-drop'] as const;
/** What happens between two requests: nothing, or another client acts. */
export const RACES = ['none', 'reassign-own-id', 'reassign-own-id-copying-name', 'other-client-creates', 'other-client-copies-name'] as const;
/**
 * How the server's router finds the widget of a GET or DELETE /widgets/{id}: exactly; folding
 * ids on DELETE only; decoding twice on DELETE only (and resolving dot segments); for both
 * methods, decoding "%2F" and routing on the first segment (`u1/x` reaches `u1`); or reading ids
 * leniently, for both methods or on DELETE only: the widget at the exact id, else the first one
 * (in creation order) whose id begins it (`w1-x` reaches `w1`, and so does `w12-x` when `w12` is
 * not there).
 */
export const ROUTERS = ['exact', 'fold-on-delete', 'decode-twice-on-delete', 'first-segment', 'lenient', 'lenient-on-delete'] as const;

export interface Schedule {
  readonly preExisting: { readonly primary: number; readonly second: number };
  readonly create: ReadonlyArray<(typeof CREATE_LIES)[number]>;
  readonly retrieve: ReadonlyArray<(typeof RETRIEVE_LIES)[number]>;
  readonly list: ReadonlyArray<(typeof LIST_LIES)[number]>;
  readonly delete: ReadonlyArray<(typeof DELETE_LIES)[number]>;
  /** Before each request, in turn (none: no race). */
  readonly race?: ReadonlyArray<(typeof RACES)[number]>;
  /** Right after each answer is sent, in turn: another client acts the moment the suite has read an answer (none: no race). */
  readonly afterAnswer?: ReadonlyArray<(typeof RACES)[number]>;
  readonly router?: (typeof ROUTERS)[number];
  /** The run also sends DEL-4's DELETE of an id extending each of its widgets the tests keep (WidgetApi.removeExtension). */
  readonly probes?: boolean;
}

/** Half honest answers, half lies, per operation; lists long enough to vary over a run. */
const lies = <T extends string>(all: readonly T[]): fc.Arbitrary<T[]> =>
  fc.array(fc.oneof({ weight: 1, arbitrary: fc.constant(all[0]!) }, { weight: 1, arbitrary: fc.constantFrom(...all.slice(1)) }), { minLength: 1, maxLength: 12 });

const answerLies = {
  preExisting: fc.record({ primary: fc.integer({ min: 1, max: 5 }), second: fc.integer({ min: 1, max: 3 }) }),
  create: lies(CREATE_LIES.slice(0, 5)),
  retrieve: lies(RETRIEVE_LIES),
  list: lies(LIST_LIES.slice(0, 6)),
  delete: lies(DELETE_LIES.slice(0, 4)),
};

/** Schedules of lies in the answers only (the whole-CLI runs of test/e2e/data-safety.test.ts sample these by seed). */
export const schedules: fc.Arbitrary<Schedule> = fc.record(answerLies);

/**
 * Races that strike once every n answers (20 to 80): rare enough that the suite's widgets live
 * until the cleanup, whose deletes then run beside other requests, where a write that waited in
 * line behind them would leave its proven id to the race.
 */
export const sparseRaces: fc.Arbitrary<Array<(typeof RACES)[number]>> = fc
  .tuple(fc.integer({ min: 20, max: 80 }), fc.constantFrom(...RACES.slice(1)))
  .map(([n, race]) => [...Array<(typeof RACES)[number]>(n).fill('none'), race]);

/** Schedules that attack the doors too: races, routers, lookalike and dot-segment ids, a hidden inventory. */
export const doorSchedules: fc.Arbitrary<Schedule> = fc.record({
  ...answerLies,
  create: lies(CREATE_LIES),
  list: lies(LIST_LIES),
  delete: lies(DELETE_LIES),
  race: lies(RACES),
  afterAnswer: fc.oneof(lies(RACES), sparseRaces),
  router: fc.constantFrom(...ROUTERS),
  probes: fc.boolean(),
});

/** One percent-decoding, or the text as it is when it does not decode. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Requests of others that may arrive between the suite's retrieve of an id and its DELETE of it:
 * what the client's other slots send in one round trip (a proven write leaves on its proof's
 * slot, first in the pace: docs/data-safety.md), two each at most. The whole CLI may use up to 8 slots.
 */
const WINDOW_REQUESTS = 14;

/** The ids a lookalike create answers for a pre-existing id: each reaches it through some router that folds ids. */
const LOOKALIKES = [(id: string) => id.toUpperCase(), (id: string) => `${id}/`, (id: string) => `${id} `, (id: string) => id.replace(/\d+/, (d) => `0${d}`)];

/** The id as a folding router finds it: case, trailing slashes and spaces, leading zeros. */
const folded = (id: string): string => id.toLowerCase().replace(/[/\s]+$/, '').replace(/\d+/g, (d) => d.replace(/^0+(?=\d)/, ''));

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
  /**
   * Widgets a POST really made, as "<account>\n<id>": ids may repeat across accounts (`%2e%2e`,
   * lookalikes), and one account's widget there is not the other's (keyed by id alone, another
   * client's widget at `%2e%2e` once counted as the run's, and 'delete-another-own' removed it).
   */
  private readonly made = new Set<string>();
  /**
   * Every widget another client made during the run (at fresh ids or at ids the suite's widgets
   * had), with its account: each must stay as it was. A list, not a map by id: one that replaced
   * another at the same id (after a DELETE the suite should not have sent) must not hide it.
   */
  private readonly foreign: Array<Stored & { readonly account: string }> = [];
  /**
   * What the suite was told of the widget at each id ("<account>\n<id>"): what its create
   * answered, and what a retrieve showed that the answer lacked (a created_at: the suite keeps it
   * too, ownership.ts). The widget the suite believes is there.
   */
  private readonly answeredAs = new Map<string, { readonly name: string; readonly created_at?: string }>();
  /** Ids whose create answered without a created_at: until a retrieve shows one, the name alone tells the widget. */
  private readonly answeredWithout = new Set<string>();
  /**
   * Ids at which, before any DELETE of them, a retrieve showed the suite something other than
   * that answer. List pages do not count: the suite takes a retrieve as the server's word for an
   * id and never weighs a list entry against it (docs/data-safety.md).
   */
  private readonly shownOther = new Set<string>();
  /** Ids a DELETE reached: what is shown there afterwards no longer counts for shownOther. */
  private readonly deleteSent = new Set<string>();
  /** Ids ("<account>\n<id>") the suite was shown in the account: in a list page, a retrieve's answer or a create's. */
  private readonly revealed = new Set<string>();
  /**
   * Widgets ("<account>\n<id>") a DELETE reached at another id than the one it named (a router
   * that folds, decodes twice or reads ids leniently), where the suite had never been shown that
   * id in the account: no list, no retrieve (its GET of the same path answered 404, or showed the
   * suite's widget at the id named) and no create answer named it. The proof covered the id sent,
   * and nothing the suite could see names the widget reached (docs/data-safety.md, what no client
   * can defend against). The property does not count them.
   */
  private readonly reachedUnseen = new Set<string>();
  /** The account of each user's widget. */
  private readonly userAccount = new Map<string, string>();

  /** Notes what a retrieve showed the suite at an id. */
  private shown(account: string, id: string, w: { name?: unknown; created_at?: unknown }): void {
    const key = `${account}\n${id}`;
    const answered = this.answeredAs.get(key);
    if (!answered || this.deleteSent.has(key)) return;
    const nameDiffers = typeof w.name !== 'string' || w.name.normalize('NFKC').toLowerCase() !== answered.name.normalize('NFKC').toLowerCase();
    if ((answered.created_at !== undefined && w.created_at !== answered.created_at) || nameDiffers) this.shownOther.add(key);
    else if (answered.created_at === undefined && typeof w.created_at === 'string') this.answeredAs.set(key, { ...answered, created_at: w.created_at });
  }
  private next = 1;
  private readonly cursor = { create: 0, retrieve: 0, list: 0, delete: 0, race: 0, afterAnswer: 0 };
  /** Requests received so far. */
  private requests = 0;
  /** "<account> <id>" → the request count at its latest retrieve, until the next request for it. */
  private readonly windows = new Map<string, number>();

  /** True while the id is between a retrieve and the next request for it (see WINDOW_REQUESTS, or the window given). */
  private inWindow(account: string, id: string): boolean {
    const at = this.windows.get(`${account} ${id}`);
    return at !== undefined && this.requests - at <= this.window;
  }
  /** The last marker a create carried: what a lying server copies onto the user's widgets. */
  private marker = 'wcs-aaaaaaaaaaaaaa';

  /**
   * @param window requests of others that may arrive between a proof and its write: the
   *   client's slots less one (WINDOW_REQUESTS for the whole CLI); no race takes the proven id then
   */
  constructor(
    readonly schedule: Schedule,
    private readonly window = WINDOW_REQUESTS,
  ) {
    for (const [account, n] of Object.entries(schedule.preExisting)) {
      for (let i = 0; i < n; i += 1) {
        const w = this.store(account, { name: `user widget ${i}`, ...(i % 2 ? { description: 'kept' } : {}) });
        this.preExisting.set(w.id, w);
        this.userAccount.set(w.id, account);
      }
    }
  }

  private lie<K extends Exclude<keyof typeof this.cursor, 'race' | 'afterAnswer'>>(op: K): Schedule[K][number] {
    const list = this.schedule[op];
    return list[this.cursor[op]++ % list.length]!;
  }

  /** A fresh creation time: each widget its own, as on a real server. */
  private stamp(): string {
    return new Date(Date.UTC(2026, 0, 1) + this.next * 1_000).toISOString();
  }

  private store(account: string, input: { name: string; description?: string }, id = `w${this.next}`): Stored {
    const w: Stored = { id, ...input, created_at: this.stamp() };
    this.next += 1;
    this.widgets.get(account)!.set(w.id, w);
    return w;
  }

  /** Another client's widget in the account, at a fresh id or at one given. */
  private foreignWidget(account: string, name: string, id?: string): void {
    const w = this.store(account, { name }, id);
    this.made.delete(`${account}\n${w.id}`);
    this.foreign.push({ ...w, account });
  }

  /** Another client acts between two requests (`race`) or right after an answer (`afterAnswer`), as the schedule says. */
  private race(when: 'race' | 'afterAnswer' = 'race'): void {
    const list = this.schedule[when] ?? ['none'];
    const race = list[this.cursor[when]++ % list.length]!;
    const account = this.cursor[when] % 2 ? 'primary' : 'second';
    const own = this.own(account).find((w) => !this.inWindow(account, w.id));
    if (race === 'other-client-creates') this.foreignWidget(account, 'another client\'s widget');
    if (race === 'other-client-copies-name' && own) this.foreignWidget(account, own.name);
    // The suite's widget expires and the store gives its id at once to another client's widget.
    if ((race === 'reassign-own-id' || race === 'reassign-own-id-copying-name') && own) {
      this.widgets.get(account)!.delete(own.id);
      this.foreignWidget(account, race === 'reassign-own-id' ? 'another client\'s widget' : own.name, own.id);
    }
  }

  /** The widget a GET or DELETE of the id finds in the account, as the router reads the path. */
  private route(account: string, rawPath: string, forDelete: boolean): { id: string; all?: true } {
    const segment = rawPath.replace(/^\/widgets\//, '');
    const id = safeDecode(segment);
    const router = this.schedule.router ?? 'exact';
    // Both methods alike: the proof's GET reaches what the DELETE would.
    if (router === 'first-segment') return { id: id.split('/')[0]! };
    if (router === 'lenient' || (router === 'lenient-on-delete' && forDelete)) {
      const widgets = this.widgets.get(account)!;
      return { id: widgets.has(id) ? id : ([...widgets.keys()].find((k) => id.startsWith(k)) ?? id) };
    }
    if (!forDelete || router === 'exact') return { id };
    if (router === 'decode-twice-on-delete') {
      let twice = id;
      try {
        twice = decodeURIComponent(id);
      } catch {
        // one decoding is all it gets
      }
      // Dot segments resolved after the second decoding: `..` climbs to the collection itself.
      const resolved = new URL(`http://x/widgets/${twice}`).pathname;
      return resolved === '/' || resolved === '/widgets/' || resolved === '/widgets' ? { id, all: true } : { id: resolved.replace(/^\/widgets\//, '') };
    }
    // The first widget (in creation order) whose folded id matches.
    const match = [...this.widgets.get(account)!.keys()].find((k) => folded(k) === folded(id));
    return { id: match ?? id };
  }

  private own(account: string): Stored[] {
    return [...this.widgets.get(account)!.values()].filter((w) => this.made.has(`${account}\n${w.id}`));
  }

  private users(account: string): Stored[] {
    return [...this.widgets.get(account)!.values()].filter((w) => this.preExisting.has(w.id));
  }

  handle = (req: IncomingMessage, res: ServerResponse): void => {
    // The moment an answer is written, another client may act (the suite reads the answer a round trip later at the earliest).
    res.on('finish', () => this.race('afterAnswer'));
    const json = (status: number, body?: unknown): void => void res.writeHead(status, { 'content-type': 'application/json' }).end(body === undefined ? '' : JSON.stringify(body));
    const account = ADVERSARY_TOKENS[(req.headers.authorization ?? '').replace(/^Bearer /, '') as keyof typeof ADVERSARY_TOKENS];
    if (!account) return json(401, { code: 'unauthorized', message: 'no' });
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname.replace(/^\/v1/, '');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      this.requests += 1;
      // Between a retrieve of an id and the next request for it lies the one round trip no
      // client can close (docs/data-safety.md): no race takes that id then. Other requests may
      // arrive meanwhile (the suite's deletes run side by side), up to WINDOW_REQUESTS of them.
      // The race first: the request that closes a window (the DELETE) is still inside it.
      this.race();
      // The id the request names, decoded once.
      const asked = safeDecode(path.slice('/widgets/'.length));
      if (path.startsWith('/widgets/')) {
        const key = `${account} ${asked}`;
        if (req.method === 'GET') this.windows.set(key, this.requests);
        else this.windows.delete(key);
      }
      if (req.method === 'GET' && path === '/widgets') return this.list(account, url, json);
      if (req.method === 'POST' && path === '/widgets') return this.create(account, Buffer.concat(chunks).toString('utf8'), json, res);
      if (req.method === 'GET') return this.retrieve(account, this.route(account, path, false).id, asked, json);
      if (req.method === 'DELETE') {
        const routed = this.route(account, path, true);
        this.deleteSent.add(`${account}\n${routed.id}`);
        if (!routed.all && routed.id !== asked && !this.revealed.has(`${account}\n${routed.id}`)) this.reachedUnseen.add(`${account}\n${routed.id}`);
        if (routed.all) {
          // "DELETE /v1/widgets/": the account emptied.
          this.widgets.get(account)!.clear();
          return json(204);
        }
        return this.remove(account, routed.id, json, res);
      }
      json(405, { code: 'method_not_allowed', message: 'no' });
    });
  };

  private list(account: string, url: URL, json: (s: number, b?: unknown) => void): void {
    const lie = this.lie('list');
    let all = [...this.widgets.get(account)!.values()];
    if (lie === 'hide-marked') all = all.filter((w) => !MARKER.test(`${w.name} ${w.description ?? ''}`));
    // An inventory the list hides (archived widgets, say): the users' widgets never listed.
    if (this.schedule.list.includes('hide-pre-existing')) all = all.filter((w) => !this.preExisting.has(w.id));
    const offset = Number(url.searchParams.get('cursor') ?? 0) || 0;
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 20) || 20, 100);
    let page: Stored[] = all.slice(offset, offset + limit);
    if (lie === 'add-marker') page = page.map((w) => ({ ...w, name: `${w.name} ${this.marker}` }));
    if (lie === 'remove-marker') page = page.map((w) => ({ ...w, name: w.name.replace(MARKER, '').trim() || 'x' }));
    if (lie === 'shift-names' && page.length > 1) page = page.map((w, i) => ({ ...w, name: page[(i + 1) % page.length]!.name }));
    if (lie === 'duplicate-entry' && page.length > 0) page = [...page, { ...page[0]!, name: `${page[0]!.name} ${this.marker}` }];
    for (const w of page) this.revealed.add(`${account}\n${w.id}`);
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
    const lie = this.lie('create');
    const user = this.users(account)[0];
    // The widget is made at an id that is a lookalike of a user's, at `%2e%2e`, at a user's id with
    // a path after it, or at a user's id with characters after it (a lenient lookup's bait).
    const at = lie === 'lookalike-of-pre-existing' && user ? LOOKALIKES[this.next % LOOKALIKES.length]!(user.id)
      : lie === 'dot-dot-id' ? '%2e%2e'
      : lie === 'slash-id-over-pre-existing' && user ? `${user.id}/x${this.next}`
      : lie === 'extension-of-pre-existing' && user ? `${user.id}x${this.next}`
      : undefined;
    const w = this.store(account, { name: input.name, ...(typeof input.description === 'string' ? { description: input.description } : {}) }, at === undefined || this.widgets.get(account)!.has(at) ? undefined : at);
    this.made.add(`${account}\n${w.id}`);
    if (lie === 'answer-lost') return void res.destroy();
    if (lie === 'no-id') return json(201, { name: w.name, created_at: w.created_at });
    const other = lie === 'id-of-pre-existing' ? this.users(account)[0] : lie === 'id-of-own-earlier' ? this.own(account).find((o) => o.id !== w.id) : undefined;
    const key = `${account}\n${other?.id ?? w.id}`;
    this.revealed.add(key);
    if (lie === 'no-created-at') {
      // As a server whose create answer lacks created_at (an FMT-3 fault): only a retrieve shows it.
      this.answeredAs.set(key, { name: w.name });
      this.answeredWithout.add(key);
      const { created_at: _unsaid, ...answer } = w;
      return json(201, { ...answer, id: w.id });
    }
    this.answeredAs.set(key, { name: w.name, created_at: w.created_at });
    json(201, { ...w, id: other?.id ?? w.id });
  }

  /** A GET of `asked` that the router took to `id`. */
  private retrieve(account: string, id: string, asked: string, json: (s: number, b?: unknown) => void): void {
    const lie = this.lie('retrieve');
    const w = this.widgets.get(account)!.get(id);
    if (lie === 'not-found') return json(404, { code: 'not_found', message: 'no' });
    const shown = (body: Stored): void => {
      // What the suite was shown at the id it asked for: a widget of another id shown there (a
      // router that reads ids leniently) is no sighting of either to the suite (api.ts retrieve).
      if (body.id === asked) this.shown(account, asked, body);
      this.revealed.add(`${account}\n${body.id}`);
      json(200, body);
    };
    if (lie === 'show-own-widget-at-any-id') {
      const own = this.own(account).at(-1);
      if (own) return shown({ ...own, id });
    }
    if (!w) return json(404, { code: 'not_found', message: 'no' });
    if (lie === 'add-marker') return shown({ ...w, name: `${w.name} ${this.marker}` });
    if (lie === 'remove-marker') return shown({ ...w, name: w.name.replace(MARKER, '').trim() || 'x' });
    if (lie === 'upper-case') return shown({ ...w, name: w.name.toUpperCase() });
    shown(w);
  }

  private remove(account: string, id: string, json: (s: number, b?: unknown) => void, res: ServerResponse): void {
    const lie = this.lie('delete');
    const widgets = this.widgets.get(account)!;
    if (lie === 'fail') return json(500, { code: 'internal', message: 'try later' });
    if (lie === 'ok-but-keep') return json(204);
    if (!widgets.has(id)) return json(404, { code: 'not_found', message: 'no' });
    if (lie === 'reassign-and-drop') {
      // Deleted; the freed id goes at once to another client's widget (a copy of the name, its
      // own created_at), and the answer is lost.
      const name = widgets.get(id)!.name;
      widgets.delete(id);
      this.foreignWidget(account, name, id);
      return void res.destroy();
    }
    // Another widget of the run's goes instead (never a user's: no client could defend against
    // that), and never one just proven for its own DELETE: within the one round trip no client can
    // close, the widget may vanish and its id name another (a DELETE route that reads ids
    // leniently then reaches a user's widget whose id begins it), whoever removed it.
    const victim = lie === 'delete-another-own' ? (this.own(account).find((o) => o.id !== id && !this.inWindow(account, o.id))?.id ?? id) : id;
    widgets.delete(victim);
    json(204);
  }

  /** Widgets the suite did not create (the users' and another client's) not exactly as they were. */
  damaged(): string[] {
    // The users' widgets have ids no other widget gets; another client's is checked in its own account.
    const users = [...this.preExisting.values()]
      .filter((w) => ![...this.widgets.values()].some((m) => JSON.stringify(m.get(w.id)) === JSON.stringify(w)))
      .filter((w) => !this.reachedUnseen.has(`${this.userAccount.get(w.id)}\n${w.id}`));
    const others = this.foreign
      .filter(({ account, ...w }) => JSON.stringify(this.widgets.get(account)!.get(w.id)) !== JSON.stringify(w))
      .filter(({ account, id }) => !this.undetectableAt(account, id) && !this.reachedUnseen.has(`${account}\n${id}`));
    return [...users, ...others].map((w) => w.id);
  }

  /**
   * Another client's widget at an id a create of the suite was answered with, where every
   * retrieve before the DELETE showed the suite a widget as it had been told of it (a retrieve
   * that shows the run's widget at any id; or a create answer without created_at, and another
   * client's widget with the same name at the id before any retrieve showed the suite's own):
   * the DELETE of a widget proven the suite's reached another. No client can tell
   * (docs/data-safety.md); the property does not count it.
   */
  private undetectableAt(account: string, id: string): boolean {
    const key = `${account}\n${id}`;
    return (this.schedule.retrieve.includes('show-own-widget-at-any-id') || this.answeredWithout.has(key)) && this.answeredAs.has(key) && !this.shownOther.has(key);
  }

  /** Widgets a POST made that are still there, by account. */
  remaining(): Array<{ account: string; id: string }> {
    return [...this.widgets].flatMap(([account, m]) => [...m.keys()].filter((id) => this.made.has(`${account}\n${id}`)).map((id) => ({ account, id })));
  }

  /** Starts the adversary on a loopback port. */
  start(): Promise<RunningServer> {
    return startServer({ handle: this.handle });
  }
}
