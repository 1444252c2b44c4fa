/**
 * Faults whose blame is easy to get wrong (issue 11): each breaks one rule, and its effects
 * reach checks of other rules. test/e2e/attribution.test.ts holds the suite to blaming the rule the
 * fault breaks, and to calling the checks it disturbs inconclusive, naming that rule.
 */
import { isUtf8 } from 'node:buffer';
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { HttpError, type PageJson, type Reply, type WidgetJson } from '../../../src/reference/service.ts';
import type { StoredWidget, WidgetInput } from '../../../src/reference/store.ts';
import { InspectableStore, QuietService, serve } from '../support.ts';
import type { TestServer } from '../test-server.ts';
import { dependentsOf, type FaultCase } from './case.ts';

/** A store that files a widget under the id it is given; a second widget at an id replaces the first (an upsert: last write wins). */
class UpsertStore extends InspectableStore {
  put(account: string, input: WidgetInput, id: string): StoredWidget {
    const widget = this.issue(input, id);
    let widgets = this.widgetsByAccount.get(account);
    if (!widgets) this.widgetsByAccount.set(account, (widgets = new Map()));
    // Deleted first so that the account's list stays in creation order: only the id is at fault.
    widgets.delete(id);
    widgets.set(id, widget);
    return widget;
  }
}

/**
 * Ids from a counter read before the request body is awaited and written after it: creates in
 * flight at the same time read the same value and get the same id (a read-modify-write race).
 * `shared`: one counter for both accounts; otherwise one per account, so that ids also repeat
 * across accounts all the time (which ids unique per account may do).
 */
function racyIds(counters: 'shared' | 'per-account'): TestServer {
  const store = new UpsertStore();
  return serve(new (class extends QuietService {
    private readonly counts = new Map<string, number>();
    protected override async create(account: string, req: IncomingMessage): Promise<Reply> {
      if (!this.isJsonMediaType(req.headers['content-type'])) throw new HttpError(415, 'unsupported_media_type', 'Content-Type must be application/json.');
      const key = counters === 'shared' ? '*' : account;
      const next = (this.counts.get(key) ?? 0) + 1;
      const input = this.validateCreate(this.parseJson(await this.readBody(req)));
      // A database round trip between the read and the write: requests that arrived together all read the same value.
      await new Promise<void>((resolve) => setImmediate(resolve));
      this.counts.set(key, next);
      const widget = store.put(account, input, `wgt_${next}`);
      return { status: 201, headers: { Location: this.widgetPath(widget.id) }, body: this.toJson(widget) };
    }
  })({ store }));
}

/** Ids "1", "2", … from one sequence for both accounts (never reused), but sent as JSON numbers. */
function numericIds(): TestServer {
  let last = 0;
  const store = new (class extends InspectableStore {
    protected override randomId(): string {
      last += 1;
      return String(last);
    }
  })();
  return serve(new (class extends QuietService {
    protected override toJson(widget: StoredWidget): WidgetJson {
      return { ...super.toJson(widget), id: Number(widget.id) as unknown as string };
    }
  })({ store }));
}

/**
 * Ids "1", "2", … from one counter for both accounts (never reused), sent as JSON strings by create
 * and retrieve; but the list sorts the account's widgets by id numerically, and, as Perl does
 * (Mojolicious: `sort { $a->{id} <=> $b->{id} }`), that makes each id a number, which the JSON
 * encoder then writes as one: `"id": 7` in the list, `"id": "7"` everywhere else. `listed`: how
 * the list writes the ids: 'numbers' on every page; 'numbers-sticking', and a retrieve of a widget
 * a list has sorted writes its id as a number too (the scalar keeps its numeric flag, as in
 * Perl); 'numbers-after-the-first-page' (the first page comes from a cache filled before the
 * sort); or 'objects' (`{"$oid": "7"}`, a document store's id type). Pages resume after the last
 * id shown, so a walk is exactly-once.
 */
function idsRetypedInList(listed: 'numbers' | 'numbers-after-the-first-page' | 'objects' | 'numbers-sticking'): TestServer {
  let last = 0;
  const store = new (class extends InspectableStore {
    protected override randomId(): string {
      last += 1;
      return String(last);
    }
  })();
  const numified = new Set<string>();
  return serve(new (class extends QuietService {
    protected override retrieve(account: string, id: string): Reply {
      const reply = super.retrieve(account, id);
      return listed === 'numbers-sticking' && numified.has(id) ? { ...reply, body: { ...(reply.body as WidgetJson), id: Number(id) as unknown as string } } : reply;
    }

    protected override list(account: string, query: URLSearchParams): Reply {
      const { limit, afterSeq: afterId } = this.parseListQuery(account, query);
      const sorted = store.all(account).sort((a, b) => Number(a.id) - Number(b.id));
      for (const w of sorted) numified.add(w.id);
      const rest = afterId === undefined ? sorted : sorted.filter((w) => Number(w.id) > afterId);
      const items = rest.slice(0, limit);
      const retyped = listed !== 'numbers-after-the-first-page' || afterId !== undefined;
      const idOf = (id: string): unknown => (!retyped ? id : listed === 'objects' ? { $oid: id } : Number(id));
      const body: PageJson = { data: items.map((w) => ({ ...this.toJson(w), id: idOf(w.id) as string })), has_more: rest.length > items.length };
      const lastShown = items.at(-1);
      if (body.has_more && lastShown) body.next_cursor = this.encodeCursor({ account, seq: Number(lastShown.id) });
      return { status: 200, body };
    }
  })({ store }));
}

/** Drops the description from every retrieve answer (create and list keep it). */
function retrieveDropsDescription(): TestServer {
  return serve(new (class extends QuietService {
    protected override retrieve(account: string, id: string): Reply {
      const reply = super.retrieve(account, id);
      const { description: _dropped, ...rest } = reply.body as WidgetJson;
      return { ...reply, body: rest };
    }
  })());
}

export interface AttributionCase {
  readonly name: string;
  readonly description: string;
  make(): TestServer;
  /** The rules the fault breaks: exactly these fail (or warn, for SHOULD rules). */
  readonly fails: readonly string[];
  /**
   * Rules that may also fail, because whether the fault shows in their checks depends on timing
   * (a race shows only when requests overlap); never a rule the fault does not break.
   */
  readonly mayFail?: readonly string[];
  /** The rule that explains every inconclusive check. */
  readonly explainedBy: string;
  /** Rules that must end inconclusive (or may, when listed in mayBeInconclusive), naming `explainedBy`. */
  readonly inconclusive?: readonly string[];
  readonly mayBeInconclusive?: readonly string[];
  /** Text every failure message of the listed rules must contain: the difference, named. */
  readonly names?: Readonly<Record<string, string | RegExp>>;
  /**
   * Why the fault's verdict could depend on timing (the issue that brought it saw it change from
   * run to run). Its self-test then runs it at every setting of SETTINGS (case.ts) and asserts
   * the exact sets: the rules in `fails` fail and no other (no `mayFail`), exactly the rules in
   * `inconclusive` are inconclusive, nothing ends in an error or is labelled intermittent.
   */
  readonly timing?: string;
  /** Arguments added to its runs, e.g. one --seed for every setting where the property inputs, not the timing, decide what a property meets. */
  readonly args?: readonly string[];
}

export const ATTRIBUTION_FAULTS: readonly AttributionCase[] = [
  {
    name: 'id-race-shared-counter',
    description: 'reads a counter shared by both accounts before awaiting the body: concurrent creates get the same id, the last write wins',
    make: () => racyIds('shared'),
    fails: ['CRUD-3'],
    explainedBy: 'CRUD-3',
  },
  {
    name: 'id-race-per-account-counters',
    description: 'one counter per account read before awaiting the body: ids repeat across accounts, and concurrent creates in one account get the same id',
    make: () => racyIds('per-account'),
    fails: ['CRUD-3'],
    explainedBy: 'CRUD-3',
  },
  {
    name: 'numeric-ids',
    description: 'sends ids as JSON numbers (1, 2, …) instead of strings',
    make: numericIds,
    fails: ['FMT-3'],
    explainedBy: 'FMT-3',
    // Either the schema's pointer (/id) or the create's own check (id 4 (number)) names the id.
    names: { 'FMT-3': /\/id\b|\bid \S+ \(number\)/ },
  },
  // A field whose JSON type differs between the list and create or retrieve (issue 20): the list's
  // Widgets break the schema, FMT-3's alone. An id written as an integer still names its widget
  // (client/api.ts idOf), so the checks that find widgets in lists judge as usual and pass; one
  // that names no widget leaves what they would conclude from it inconclusive under FMT-3.
  {
    name: 'ids-numeric-once-sorted',
    description: 'sends ids as JSON strings from create and retrieve, but sorts the list by id numerically, after which the list writes them as JSON numbers (a Perl server)',
    make: () => idsRetypedInList('numbers'),
    fails: ['FMT-3'],
    explainedBy: 'FMT-3',
    inconclusive: [],
    names: { 'FMT-3': /\/id: expected type string, received \d+/ },
    timing: 'the run that reported it blamed AUTH-4 as intermittent, and a rerun gave another set',
  },
  {
    name: 'ids-numeric-once-sorted-sticking',
    description: 'as ids-numeric-once-sorted, and an id a list has sorted stays a number: a retrieve after it writes "id": 7 too, as a Perl scalar keeps its numeric flag',
    make: () => idsRetypedInList('numbers-sticking'),
    fails: ['FMT-3'],
    explainedBy: 'FMT-3',
    inconclusive: [],
    names: { 'FMT-3': /\/id: expected type string, received \d+/ },
    timing: 'whether a retrieve comes after a list that sorted its widget depends on timing: the check that compares it (AUTH-4, CRUD-4, MAL-5, PROP-3) saw "7" become 7 in some runs only',
  },
  {
    name: 'ids-numeric-after-the-first-page',
    description: 'as ids-numeric-once-sorted, but the first page of a list keeps string ids: only pages fetched with a cursor send numbers',
    make: () => idsRetypedInList('numbers-after-the-first-page'),
    fails: ['FMT-3'],
    explainedBy: 'FMT-3',
    inconclusive: [],
    names: { 'FMT-3': /\/id: expected type string, received \d+/ },
    timing: 'a variant of ids-numeric-once-sorted: whether a walk reaches a second page depends on what the account holds meanwhile',
  },
  {
    name: 'ids-objects-in-list',
    description: 'sends ids as JSON strings from create and retrieve, but the list writes each as an object ({"$oid": "7"}, a document store\'s id type)',
    make: () => idsRetypedInList('objects'),
    fails: ['FMT-3'],
    explainedBy: 'FMT-3',
    // The checks that would conclude a widget is missing from a list cannot tell it is; PAGE-7 through PAGE-3.
    // DEL-1, ISO-1 and the refused creates' "nothing created" find the suite's widgets by name, and pass.
    inconclusive: ['PAGE-3', 'PAGE-7', 'PROP-1', 'PROP-3'],
    names: { 'FMT-3': /\/id: expected type string|whose id is not a string/ },
    timing: 'a variant of ids-numeric-once-sorted: which walks meet a listed id depends on what the account holds meanwhile',
    // Whether a PROP-3 sequence leaves a widget live for a list to miss is its input's doing, not the timing's: one seed for every setting.
    args: ['--seed', '20'],
  },
  {
    name: 'retrieve-drops-description',
    description: 'leaves the description out of every retrieve answer',
    make: retrieveDropsDescription,
    fails: ['CRUD-4'],
    explainedBy: 'CRUD-4',
    names: { 'CRUD-4': 'description' },
  },
  {
    name: 'twenty-character-names',
    description: 'refuses names longer than 20 characters with a 400 (the suite names its own widgets with up to 32, which PROP-2 calls ordinary)',
    make: shortNames,
    fails: ['PROP-2'],
    explainedBy: 'PROP-2',
    // The message says how long the refused name was and what the suite assumes (issue 20).
    names: { 'PROP-2': /name of \d+ printable ASCII characters.*names of 1 to 32/ },
  },
];

/** A server that refuses names over 20 characters: a limit below what PROP-2 calls ordinary input. */
function shortNames(): TestServer {
  return serve(new (class extends QuietService {
    protected override validateCreate(body: unknown): WidgetInput {
      const input = super.validateCreate(body);
      if (input.name.length > 20) throw new HttpError(400, 'name_too_long', 'name must be at most 20 characters');
      return input;
    }
  })());
}

/**
 * Four workers, each with a store of its own (an in-memory map per process behind a round-robin
 * balancer): each request goes to the next worker, so a widget is found only by the requests that
 * happen to reach the worker that created it. The cursor key is shared, as a deployment's secret is.
 */
function splitStores(workers = 4): TestServer {
  const key = randomBytes(32);
  const services = Array.from({ length: workers }, () => new (class extends QuietService {
    protected override readonly cursorKey: Buffer = key;
  })());
  let next = 0;
  return serve({ handle: (req, res) => services[(next++) % workers]!.handle(req, res) });
}

/**
 * A gateway in front of a conformant server that answers some retrieves with its own 404, as
 * Apache does for an id with an encoded slash (AllowEncodedSlashes off): here the ids whose
 * SHA-256 starts with a byte that is 0 mod 5 (about one in five). Lists and deletes pass through.
 */
function proxyHidesSomeIds(): TestServer {
  const service = new QuietService();
  const hidden = (id: string): boolean => (createHash('sha256').update(id).digest()[0]! % 5) === 0;
  return serve({
    handle: (req, res) => {
      const id = /^\/v1\/widgets\/([^/?]+)/.exec(req.url ?? '')?.[1];
      if (req.method === 'GET' && id !== undefined && hidden(decodeURIComponent(id))) {
        // An Error object, as the server's own 404: Apache's HTML page would also (rightly) fail
        // CRUD-5 and ISO-2 for the unknown ids it happens to hide, which only chance decides.
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"not_found","message":"Not Found"}');
        return;
      }
      return service.handle(req, res);
    },
  });
}

/**
 * Stores a name that is not UTF-8 as the bytes it was sent (Sinatra: the body is read as binary
 * and parsed without checking its encoding), then fails to encode it in any answer that holds it:
 * a retrieve of that widget and every list of its account answer 500. A delete still works.
 */
function storesInvalidUtf8(): TestServer {
  const poisoned = new Map<string, Set<string>>();
  return serve(new (class extends QuietService {
    protected override async create(account: string, req: IncomingMessage): Promise<Reply> {
      if (!this.isJsonMediaType(req.headers['content-type'])) throw new HttpError(415, 'unsupported_media_type', 'Content-Type must be application/json.');
      const body = await this.readBody(req);
      if (isUtf8(body)) return this.created(account, this.validateCreate(this.parseJson(body)));
      // Each byte read as one character: the name keeps 0xFF 0xFE as they came.
      let value: unknown;
      try {
        value = JSON.parse(body.toString('latin1'));
      } catch {
        throw new HttpError(400, 'invalid_json', 'The request body is not valid JSON.');
      }
      const reply = this.created(account, this.validateCreate(value));
      const id = (reply.body as WidgetJson).id;
      poisoned.set(account, (poisoned.get(account) ?? new Set()).add(id));
      // The create's own answer is written before the name is read back: it goes out (with the bytes as Latin-1 text).
      return reply;
    }

    private created(account: string, input: WidgetInput): Reply {
      const widget = this.store.create(account, input);
      return { status: 201, headers: { Location: this.widgetPath(widget.id) }, body: this.toJson(widget) };
    }

    protected override list(account: string, query: URLSearchParams): Reply {
      if ((poisoned.get(account)?.size ?? 0) > 0) throw new Error('JSON::GeneratorError: source sequence is illegal/malformed utf-8');
      return super.list(account, query);
    }

    protected override retrieve(account: string, id: string): Reply {
      if (poisoned.get(account)?.has(id)) throw new Error('JSON::GeneratorError: source sequence is illegal/malformed utf-8');
      return super.retrieve(account, id);
    }

    protected override remove(account: string, id: string): Reply {
      const reply = super.remove(account, id);
      poisoned.get(account)?.delete(id);
      return reply;
    }
  })());
}

/**
 * Servers that lose, split or are poisoned in their state (issue 30): a widget its owner can no
 * longer retrieve is CRUD-4's, and every rule that finds widgets by id is inconclusive under it
 * (a check that met the loss said so with its evidence; the others stand on the same store). A
 * request of the suite that breaks later answers (FMT-4's bytes that are not UTF-8) is sent after
 * every other test; the lists that then fail are PAGE-6's, naming the create that poisoned them.
 */
export const STATE_FAULTS: readonly FaultCase[] = [
  {
    name: 'split-stores', rule: 'CRUD-4',
    description: 'four workers, each with its own store, behind a round-robin balancer: a widget is found only by requests that reach the worker that created it',
    inconclusive: dependentsOf('CRUD-4'),
    make: () => splitStores(4),
  },
  {
    name: 'proxy-hides-some-ids', rule: 'CRUD-4',
    description: 'a gateway answers its own 404 Error to a retrieve of about one id in five (ids whose SHA-256 starts with a byte 0 mod 5, as Apache does for an encoded slash)',
    inconclusive: dependentsOf('CRUD-4'),
    // Which ids it hides follows the ids the server draws at random: a second attempt may meet none.
    timing: 'which widgets the proxy hides depends on the random ids they are given, so CRUD-4 may be intermittent',
    make: proxyHidesSomeIds,
  },
  {
    // Accepting the bytes breaks no rule (RFC 8259 §8.2); the lists that fail after it break PAGE-6, which names the create.
    name: 'stores-invalid-utf8', rule: 'PAGE-6',
    description: 'stores a name that is not UTF-8 as the bytes sent (Sinatra), then answers 500 to every list of the account and to a retrieve of that widget',
    make: storesInvalidUtf8,
  },
];
