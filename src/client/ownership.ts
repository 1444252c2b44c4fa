/**
 * The run's ownership ledger, in memory: per account, the inventory of ids that existed before
 * the first create, every id a create answered (a claim, journalled at once: see ledger.ts),
 * what the server showed at each, and the ids it contradicted itself about. Whether a DELETE
 * may go out is decided by ledger.ts deleteVerdict alone, from these facts and a retrieve;
 * what could not be deleted is reported by id at the end of the run.
 * Long because these facts (claims, inventory, what each create answered, ids seen that are not
 * the run's, lost writes, contradictions) are one state that every proof reads together:
 * split, a delete could read one part and miss a change in another.
 */
import { Journal, journalFacts, type JournalEntry, type JournalFacts, type LostCreate } from './journal.ts';
import { idKey, keyReaches, lenientlyReaches } from './safe-ids.ts';

/** What the latest retrieve with the account's own token showed at an id (a list entry is never proof). */
export type Sighting =
  /** The widget at the id carries the marker. */
  | 'marked'
  /** A widget without the marker (or another id's widget) is shown at the id. */
  | 'unmarked'
  /** A retrieve answered 404 or 410 (ledger.ts isGone): nothing at that id in this account's view. */
  | 'absent'
  /**
   * A retrieve answered 2xx with a body that is not a widget at all (none, not JSON, no id): it
   * shows nothing, marked or not. Never read as a widget without the marker: a server answering
   * 204 with no body at an unknown id has shown no other widget there.
   */
  | 'unreadable';

/** One id the suite holds in an account, and what became of it; changed only by Ownership's named operations (a Claim is read-only outside). */
interface ClaimState {
  readonly account: string;
  readonly id: string;
  sighting?: Sighting;
  /** A delete with the account's own token answered 2xx (or the widget was found gone after one). */
  deleted: boolean;
  /** Proven gone (journalled 'gone'): after the delete, a retrieve with the own token answered 404 or 410 (sweep.ts). */
  gone?: boolean;
  /** Why it could not be deleted, when an attempt failed. */
  problem?: string;
  /**
   * Left in place on purpose (--keep-failing: a failing test's widget, kept so its replay finds
   * it): never deleted by the run, still journalled, so `cleanup` deletes it later under the usual proof.
   */
  kept?: string;
  /** How many creates in this account answered with this id: more than one means ids repeat (CRUD-3). */
  creates: number;
  /**
   * A create answered with this id while the widget an earlier create got at it had not been
   * deleted: two live widgets given one id (CRUD-3). A repeat after a delete is DEL-2's fault.
   */
  collided?: boolean;
  /** A retrieve or list entry showed the id with the marker (since the last create or delete of it). */
  seenMarked?: boolean;
  /**
   * The create's own answer already lacked the run marker (the name or description sent did not
   * come back): a retrieve without it then shows CRUD-1's fault, not a retrieve that changes the widget.
   */
  answeredUnmarked?: boolean;
  /** A retrieve or list entry showed the id without the marker (since the last create or delete of it). */
  seenUnmarked?: boolean;
  /** The widget as the create answered it (journalled): a retrieve must show the same to prove the widget at the id is this one (door.ts retrieveShows). */
  answered?: Answered;
  /** A PUT, PATCH or POST of the suite went to the id (MAL-5): a server that applies it may show the widget changed, lawfully by its own lights. */
  written?: boolean;
  /** Why the id is never put in a path (safe-ids.ts unsafeSegment): no delete is tried, the id is reported. */
  unsendable?: string;
}

/** One id the suite holds in an account, as the rest of the suite reads it. */
export type Claim = Readonly<ClaimState>;

/** What a create answered, kept to tell its widget from another at the same id. */
export interface Answered {
  readonly name?: string;
  readonly createdAt?: string;
}

/** Names longer than this are not kept (the created_at and the marker still tell the widget). */
const MAX_ANSWERED_NAME = 4096;

/** The name and created_at of a create's answer, as kept in the ledger and journal. */
export function answeredOf(json: unknown): Answered {
  const { name, created_at: createdAt } = (json !== null && typeof json === 'object' ? json : {}) as { name?: unknown; created_at?: unknown };
  return {
    ...(typeof name === 'string' && name.length <= MAX_ANSWERED_NAME ? { name } : {}),
    ...(typeof createdAt === 'string' && createdAt.length <= 100 ? { createdAt } : {}),
  };
}

/** A created_at as an instant (other precision or offset, same instant), or undefined when unreadable. */
function instant(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The name as compared with the create's answer: case and compatibility forms folded, as markers are read (harness/marker.ts). */
function foldedName(value: unknown): string | undefined {
  return typeof value === 'string' ? value.normalize('NFKC').toLowerCase() : undefined;
}

/**
 * Whether a widget shown at an id is the one its create answered: the same created_at instant and
 * the same name (case and NFKC folded), where the answer had them. A conformant server always
 * shows them so (created_at is read-only, the name is stored as sent).
 */
export function showsAsAnswered(created: Answered, shown: unknown): boolean {
  const w = (shown !== null && typeof shown === 'object' ? shown : {}) as { name?: unknown; created_at?: unknown };
  if (created.createdAt !== undefined && instant(w.created_at) !== instant(created.createdAt)) return false;
  if (created.name !== undefined && foldedName(w.name) !== foldedName(created.name)) return false;
  return true;
}

/** How a lost write is journalled: as a contradiction entry (never deleted) whose reason starts so. */
const LOST_WRITE = 'a write to this id lost its answer: ';

/** A widget the run could not delete (or could not prove its own), for the reports. */
export interface Leftover {
  readonly account: string;
  readonly id: string;
  readonly reason: string;
}

export { MAX_ID_LENGTH, unsafeSegment } from './safe-ids.ts';

/** The text with its ASCII letters in lower case (ids are compared so, never Unicode-folded). */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** Ids seen without the marker and not held, remembered per account (a bound: the server chooses how many it shows). */
const MAX_UNMARKED_REMEMBERED = 100_000;
/** Ids seen that are not the run's remembered per idKey (lookalikes of one another), per account. */
const MAX_IDS_PER_KEY = 8;

/** Every id the run holds, per account, with the facts that decide whether it may be deleted. */
export class Ownership {
  private readonly claims = new Map<string, Map<string, ClaimState>>();
  /** Ids the suite made up for "unknown id" checks and saw answered as absent. */
  private readonly madeUp = new Set<string>();
  private readonly inventory = new Map<string, Set<string>>();
  /** Accounts a complete inventory walk found empty: nothing in them is a user's widget. */
  private readonly emptyAtStart = new Set<string>();
  private readonly contradictions = new Map<string, Map<string, string>>();
  /** Ids not held that a list or retrieve showed without the marker: a create answering one later contradicts it. */
  private readonly unmarked = new Map<string, Set<string>>();
  /** Creates sent whose answer has not (yet) said what they made, by key. */
  private readonly pending = new Map<string, LostCreate>();
  /** Ids a write went out to whose answer was lost, with why: nothing is sent to them again. */
  private readonly lostWrites = new Map<string, string>();
  /**
   * Per account, the idKey of every id the run knows there (the inventory, ids lists and retrieves
   * showed, ids its creates were answered with), with the ids of that key: a write to one of them
   * proves only that one, and a router that normalises ids may take it to another (lookalike).
   */
  private readonly knownKeys = new Map<string, Map<string, string[]>>();
  private sequence = 0;
  /**
   * Keys a pending create's journal line apart from another worker's (each worker journals into
   * the run's one file). Not from --seed: it names a line of the journal, never shapes a request,
   * and two workers of one seeded run must not draw the same.
   */
  private readonly keyPrefix = Math.random().toString(36).slice(2, 10);

  /**
   * @param isOurs true when a widget as the server shows it carries the run's marker
   * @param journal where every create, delete and contradiction is appended as it happens
   */
  constructor(
    readonly isOurs: (widget: unknown) => boolean,
    readonly journal: Journal = new Journal(undefined),
  ) {}

  private of(account: string): Map<string, ClaimState> {
    let claims = this.claims.get(account);
    if (!claims) this.claims.set(account, (claims = new Map()));
    return claims;
  }

  #repeated = false;
  #reissued = false;
  readonly #answeredPreExisting: Array<{ readonly account: string; readonly id: string }> = [];
  #sweepCandidates: Map<string, Set<string>> | undefined;

  /** True once a create answered an id the run already held for a widget not deleted. */
  get repeated(): boolean {
    return this.#repeated;
  }

  /**
   * True once a create answered an id the run already held in the account, live or deleted, or
   * one the account held before the run: the server gives ids more than once, so a freed id
   * may name another widget at any time (the second delete of ledger.ts deleteVerdict is then never sent).
   */
  get reissued(): boolean {
    return this.#reissued;
  }

  /** Creates answered with an id the inventory holds: the server gave a new widget an existing id (CRUD-3). */
  get answeredPreExisting(): ReadonlyArray<{ readonly account: string; readonly id: string }> {
    return this.#answeredPreExisting;
  }

  /**
   * `cleanup --sweep-markers` only: whether the id was listed with a run marker and never without
   * in this walk of the account (sweepCandidate), or undefined outside that mode. When set, this
   * stands in for the journal in the delete rule (less safe: see docs/data-safety.md).
   */
  listedOnlyMarked(account: string, id: string): boolean | undefined {
    return this.#sweepCandidates === undefined ? undefined : this.#sweepCandidates.get(account)?.has(id) ?? false;
  }

  /** `cleanup --sweep-markers` only: records an id a walk listed with a run marker and never without, and claims it. */
  sweepCandidate(account: string, id: string): void {
    this.#sweepCandidates ??= new Map();
    let ids = this.#sweepCandidates.get(account);
    if (!ids) this.#sweepCandidates.set(account, (ids = new Set()));
    ids.add(id);
    this.claim(account, id);
  }

  /** `cleanup --sweep-markers` only: from now on, the walk's marked ids stand in for the journal (none yet). */
  sweepMode(): void {
    this.#sweepCandidates ??= new Map();
  }

  /** Records the ids an account held before the run's first create (and journals them). */
  setInventory(account: string, ids: Iterable<string>, complete: boolean): void {
    const list = [...ids];
    this.journal.append({ kind: 'inventory', account, ids: list, complete });
    this.addInventory(account, list);
    if (complete && list.length === 0) this.emptyAtStart.add(account);
  }

  /**
   * True when a complete inventory walk found the account empty before the run's first create:
   * a request that could act on every widget of the account (PUT or PATCH on /widgets) can then
   * touch none of a user's.
   */
  heldNothingBefore(account: string): boolean {
    return this.emptyAtStart.has(account) && (this.inventory.get(account)?.size ?? 0) === 0;
  }

  private addInventory(account: string, ids: Iterable<string>): void {
    let set = this.inventory.get(account);
    if (!set) this.inventory.set(account, (set = new Set()));
    for (const id of ids) {
      set.add(id);
      this.knows(account, id);
    }
  }

  /**
   * Remembers the idKey of an id the run knows in the account. Ids seen that are not the run's
   * are bounded like the unmarked ids (the server chooses how many it shows); the ids its creates
   * were answered with always count (`held`), so none can hide behind the bound.
   */
  private knows(account: string, id: string, held = false): void {
    let keys = this.knownKeys.get(account);
    if (!keys) this.knownKeys.set(account, (keys = new Map()));
    const key = idKey(id);
    const ids = keys.get(key);
    if (ids === undefined) {
      if (keys.size < MAX_UNMARKED_REMEMBERED || held) keys.set(key, [id]);
    } else if (!ids.includes(id) && (ids.length < MAX_IDS_PER_KEY || held)) ids.push(id);
  }

  /**
   * Another id the run knows in the account that equals this one under the normalisations servers
   * apply to ids (safe-ids.ts idKey) and may hold a widget that is not the run's (mayHold): a
   * router that normalises would take a request for this id there, which this id's proof says
   * nothing of.
   */
  lookalike(account: string, id: string): string | undefined {
    return this.knownKeys.get(account)?.get(idKey(id))?.find((other) => other !== id && this.mayHold(account, other));
  }

  /**
   * Whether an id the run knows in the account may hold a widget that is not the run's: any id no
   * create of the run answered, any of the inventory, and a claim the run has not deleted that
   * the server has said something against: a contradiction, two creates, a lost write, the marker
   * missing from its create's answer or from a sighting since, or a latest retrieve that did not
   * show the run's widget there (a create answered with the id of a user's widget that no list
   * shows, whose retrieve answers 404). A claim no answer has spoken against is the run's own, as
   * the delete rule holds it: a server that gives one run `a` and `A` (a case-sensitive base62
   * counter) has both judged and deleted.
   */
  private mayHold(account: string, id: string): boolean {
    const claim = this.state(account, id);
    if (claim === undefined || this.preExisting(account, id)) return true;
    if (claim.deleted) return false;
    const shownOther = claim.sighting !== undefined && claim.sighting !== 'marked';
    return shownOther || claim.seenUnmarked === true || claim.answeredUnmarked === true || claim.collided === true || this.contradiction(account, id) !== undefined || this.lostWrite(id) !== undefined;
  }

  /**
   * An id the run knows in the account, other than `base` and not deleted by the run, that a
   * lookup reading ids leniently could take `target` for (safe-ids.ts lenientlyReaches: a prefix
   * of it, its leading digits): an id of the inventory, a live claim of the run, or an id seen
   * that is not the run's. Ids equal to the target or the base under idKey are the lookalike
   * rule's, not this one's. Undefined when none: a DELETE of `target` aimed at `base` can reach
   * no other widget the run knows of (DEL-4, ledger.ts extensionVerdict).
   */
  lenientNeighbour(account: string, target: string, base: string): string | undefined {
    const targetKey = idKey(target);
    const mine = new Set([targetKey, idKey(base)]);
    const near = (id: string): boolean => id !== base && lenientlyReaches(id, target) && !mine.has(idKey(id));
    for (const id of this.inventory.get(account) ?? []) if (near(id)) return id;
    for (const claim of this.claims.get(account)?.values() ?? []) if (!claim.deleted && near(claim.id)) return claim.id;
    for (const [key, ids] of this.knownKeys.get(account) ?? []) {
      const other = !mine.has(key) && keyReaches(key, targetKey) ? ids.find((known) => this.mayHold(account, known)) : undefined;
      if (other !== undefined) return other;
    }
    return undefined;
  }

  /** The create's answer for the id: this account's claim, else the claim of the account whose create answered it. */
  answered(account: string, id: string): Answered | undefined {
    const own = this.state(account, id);
    if (own) return own.answered;
    for (const other of this.claimants(id)) return this.state(other, id)?.answered;
    return undefined;
  }

  /** Why nothing may be sent to the id again (a write to it lost its answer), if so. */
  lostWrite(id: string): string | undefined {
    return this.lostWrites.get(id);
  }

  /** Records (and journals) that a write to the id went out and its answer was lost: nothing is sent to it again. */
  writeLost(account: string, id: string, why: string): void {
    if (this.lostWrites.has(id)) return;
    this.lostWrites.set(id, why);
    this.journal.append({ kind: 'contradiction', account, id, why: `${LOST_WRITE}${why}` });
    this.failed(account, id, why);
  }

  /** True when the id was in the account's inventory: it existed before the run's first create. */
  preExisting(account: string, id: string): boolean {
    return this.inventory.get(account)?.has(id) ?? false;
  }

  /** Takes in what a journal established (the runner's final cleanup, `cleanup`): inventory, live claims, contradictions, lost creates. */
  load(facts: JournalFacts): void {
    for (const [account, ids] of facts.inventory) this.addInventory(account, ids);
    for (const [account, ids] of facts.live) for (const id of ids) if (!this.state(account, id)) this.loaded(account, id, false);
    // Deleted ids stay held: only proof that each is gone lets a cleanup say nothing is left.
    for (const [account, ids] of facts.created) {
      for (const id of ids) if (!this.state(account, id)) this.loaded(account, id, true, facts.gone.get(account)?.has(id) === true);
    }
    // What each create answered: a retrieve must show the same widget for the id to be proven (door.ts).
    for (const [account, byId] of facts.answered ?? []) {
      for (const [id, answered] of byId) {
        const claim = this.state(account, id);
        if (claim && claim.answered === undefined) claim.answered = answered;
      }
    }
    for (const [account, ids] of facts.collided ?? []) {
      for (const id of ids) {
        const claim = this.state(account, id);
        if (claim) claim.collided = true;
      }
    }
    // Shown without the marker in another process (a worker): shown with it here, the id is contradicted as it would be there.
    for (const [account, ids] of facts.unmarked ?? []) {
      for (const id of ids) {
        const claim = this.state(account, id);
        if (claim) claim.seenUnmarked = true;
      }
    }
    for (const [account, map] of facts.contradictions) {
      for (const [id, why] of map) {
        if (why.startsWith(LOST_WRITE)) this.lostWrites.set(id, why.slice(LOST_WRITE.length));
        else this.remember(account, id, why);
      }
    }
    for (const [i, lost] of facts.lost.entries()) this.pending.set(`journal-${i}`, lost);
    for (const [i, reused] of facts.reused.entries()) this.pending.set(`journal-reused-${i}`, { ...reused, reused: true });
  }

  /** A claim replayed from a journal (load): held like one a create of this run answered. */
  private loaded(account: string, id: string, deleted: boolean, gone = false): void {
    this.of(account).set(id, { account, id, deleted, creates: 1, ...(gone ? { gone: true } : {}) });
    this.knows(account, id, true);
  }

  /** Replays journal entries into the ledger (see load). */
  loadEntries(entries: readonly JournalEntry[]): void {
    this.load(journalFacts(entries));
    for (const e of entries) if (e.kind === 'inventory' && e.complete && e.ids.length === 0) this.emptyAtStart.add(e.account);
  }

  /** Journals a create about to be sent; the key pairs it with its outcome (created / refused). */
  sent(account: string, tag: string | undefined): string {
    const key = `${this.keyPrefix}-${(this.sequence += 1)}`;
    this.journal.append({ kind: 'sent', account, key, ...(tag === undefined ? {} : { tag }) });
    this.pending.set(key, { account, ...(tag === undefined ? {} : { tag }) });
    return key;
  }

  /** Journals a create answered without a widget (a non-2xx status): nothing is lost. */
  refused(account: string, key: string, status: number): void {
    this.journal.append({ kind: 'refused', account, key, status });
    this.pending.delete(key);
  }

  /** Creates sent whose answer never said which widget they made (no answer, or a 2xx without a usable id). */
  lostCreates(): LostCreate[] {
    return [...this.pending.values()];
  }

  /** Records an id a create answered 2xx with (journalled before anything else is sent): a claim, not yet proof. */
  claim(account: string, id: string, key?: string, answer?: unknown): Claim {
    const answered = answer === undefined ? undefined : answeredOf(answer);
    // The answer already lacked the run marker: the name or description sent never came back (CRUD-1).
    const unmarked = answer === undefined ? undefined : !this.isOurs(answer);
    if (key !== undefined) {
      this.journal.append({ kind: 'created', account, key, id, ...(answered?.name === undefined ? {} : { name: answered.name }), ...(answered?.createdAt === undefined ? {} : { created_at: answered.createdAt }) });
      this.pending.delete(key);
    }
    const claims = this.of(account);
    this.knows(account, id, true);
    if (this.unmarked.get(account)?.has(id)) this.contradict(account, id, 'shown without the run marker before a create of this run answered it');
    if (this.preExisting(account, id) && key !== undefined) {
      this.#reissued = true;
      this.contradict(account, id, 'a create answered the id of a widget the account held before the run');
      this.#answeredPreExisting.push({ account, id });
      // Whatever this create made stands at an id the run never learned: as good as lost.
      this.pending.set(`${key}-pre-existing`, { account, reused: true });
    }
    const existing = claims.get(id);
    if (existing) {
      this.#reissued = true;
      // The same id for two widgets alive at once: the server breaks CRUD-3, and any check that
      // tells widgets apart by id may be misled (rule.ts defers its failures to CRUD-3). Not when
      // the id's DELETE was on the wire unanswered: the server may have deleted first and reused
      // the id (DEL-2's fault, not CRUD-3's), and the client cannot tell which came first.
      const live = !existing.deleted && !this.deleteOnWire(account, id);
      if (live) this.#repeated = true;
      // A second create answered with the same id: whatever was deleted before, this one is live,
      // and what the server showed at the id before proves nothing about it.
      if (live) existing.collided = true;
      // Whatever this create made may stand at an id the run never learned: as good as lost.
      if (key !== undefined && !this.pending.has(`${key}-pre-existing`)) this.pending.set(`${key}-reused`, { account, reused: true });
      existing.deleted = false;
      delete existing.gone;
      existing.creates += 1;
      delete existing.sighting;
      delete existing.seenMarked;
      delete existing.seenUnmarked;
      if (answered !== undefined) existing.answered = answered;
      if (unmarked !== undefined) existing.answeredUnmarked = unmarked;
      return existing;
    }
    const claim: ClaimState = { account, id, deleted: false, creates: 1, ...(answered === undefined ? {} : { answered }), ...(unmarked === undefined ? {} : { answeredUnmarked: unmarked }) };
    claims.set(id, claim);
    return claim;
  }

  /** The claim on an id in an account, if the run holds one. */
  get(account: string, id: string): Claim | undefined {
    return this.claims.get(account)?.get(id);
  }

  private state(account: string, id: string): ClaimState | undefined {
    return this.claims.get(account)?.get(id);
  }

  /** True when a create of this run answered the id in the account (and no delete has removed it since, or it was). */
  journalled(account: string, id: string): boolean {
    return this.state(account, id) !== undefined;
  }

  /** True when the server contradicted itself about any id of the account (this run, or an earlier attempt's journal). */
  anyContradiction(account: string): boolean {
    return (this.contradictions.get(account)?.size ?? 0) > 0;
  }

  /**
   * True when the id is not one the run holds in the account but differs from one it holds
   * there only in the case of its ASCII letters: a lookup that tells whether ids are
   * case-sensitive (the profile's id.case-sensitive). Classification only.
   */
  caseVariantHeld(account: string, id: string): boolean {
    const claims = this.claims.get(account);
    if (!claims || claims.has(id)) return false;
    if (!/[A-Za-z]/.test(id)) return false;
    const folded = asciiLower(id);
    for (const held of claims.keys()) if (held.length === id.length && asciiLower(held) === folded) return true;
    return false;
  }

  /** Why the id must never be deleted in the account, when the server contradicted itself about it. */
  contradiction(account: string, id: string): string | undefined {
    return this.contradictions.get(account)?.get(id);
  }

  /** Records (and journals, once) that the id must never be deleted in the account. */
  contradict(account: string, id: string, why: string): void {
    if (this.contradiction(account, id) !== undefined) return;
    this.journal.append({ kind: 'contradiction', account, id, why });
    this.remember(account, id, why);
  }

  private remember(account: string, id: string, why: string): void {
    let map = this.contradictions.get(account);
    if (!map) this.contradictions.set(account, (map = new Map()));
    if (!map.has(id)) map.set(id, why);
  }

  /**
   * Records what a retrieve (own token) or list entry showed at an id. Only a retrieve is proof;
   * any sighting without the marker of an id also seen with it (or held before the run) is a contradiction.
   */
  saw(account: string, id: string, widget: unknown, via: 'list' | 'retrieve' = 'retrieve'): void {
    const marked = this.isOurs(widget);
    const claim = this.state(account, id);
    if (marked && this.preExisting(account, id)) this.contradict(account, id, `a ${via} shows the run marker at an id the account held before the run`);
    if (!claim) {
      this.knows(account, id);
      if (!marked) {
        let set = this.unmarked.get(account);
        if (!set) this.unmarked.set(account, (set = new Set()));
        if (set.size < MAX_UNMARKED_REMEMBERED) set.add(id);
      }
      return;
    }
    // The own token's retrieve showed, at a live id of the run, a widget other than its create
    // answered (and the suite wrote nothing to it): the id does not hold one widget for sure.
    // Later showing the answered widget again proves nothing (a server can show any widget at any id).
    if (via === 'retrieve' && marked && !claim.deleted && claim.written !== true && claim.answered !== undefined && !showsAsAnswered(claim.answered, widget)) {
      this.contradict(account, id, 'a retrieve showed another widget at this id than its create answered (another created_at or name) while it was not deleted');
    } else if (via === 'retrieve' && marked && !claim.deleted && claim.written !== true) this.learn(claim, widget);
    if (marked) claim.seenMarked = true;
    else if (claim.seenUnmarked !== true) {
      claim.seenUnmarked = true;
      this.journal.append({ kind: 'unmarked', account, id });
    }
    if (via === 'retrieve' || !marked) claim.sighting = marked ? 'marked' : 'unmarked';
    if (claim.seenMarked && claim.seenUnmarked) this.contradict(account, id, 'shown with the run marker at one time and without it at another');
  }

  /**
   * What a retrieve with the own token showed of the run's widget, as its create answered it:
   * an identifying fact the answer lacked (its created_at, its name) is kept and journalled
   * (`seen`), so every later proof, the cleanups' included, holds the widget to it too.
   */
  private learn(claim: ClaimState, widget: unknown): void {
    const known = claim.answered ?? {};
    const shown = answeredOf(widget);
    const more: Answered = { ...known, ...(known.name === undefined && shown.name !== undefined ? { name: shown.name } : {}), ...(known.createdAt === undefined && shown.createdAt !== undefined ? { createdAt: shown.createdAt } : {}) };
    if (more.name === known.name && more.createdAt === known.createdAt) return;
    claim.answered = more;
    this.journal.append({ kind: 'seen', account: claim.account, id: claim.id, ...(more.name !== known.name ? { name: more.name! } : {}), ...(more.createdAt !== known.createdAt ? { created_at: more.createdAt! } : {}) });
  }

  /** Records that the suite sent a write other than DELETE to the id (MAL-5): what a retrieve shows there afterwards may lawfully differ from the create's answer. */
  wrote(account: string, id: string): void {
    const claim = this.state(account, id);
    if (claim) claim.written = true;
  }

  /** Records that one list page showed the id more than once: which entry is the widget at it is unknown. */
  listedTwice(account: string, id: string): void {
    if (this.state(account, id)) this.contradict(account, id, 'one list page showed the id more than once');
  }

  /**
   * Records that a retrieve (own token) answered 2xx with a body that is no widget (see Sighting
   * 'unreadable'): nothing is learnt of what stands at the id, so no contradiction is drawn from it.
   */
  sawUnreadable(account: string, id: string): void {
    const claim = this.state(account, id);
    // At an id that is not the run's, the answer still counts as something there (lookalikes): as before.
    if (!claim) return this.saw(account, id, undefined, 'retrieve');
    claim.sighting = 'unreadable';
  }

  /**
   * Records an id a retrieve of another id answered with (a router that reads ids leniently, or
   * by their first segment, shows that widget there): a widget stands at it in the account, which
   * a write to an id that equals or extends it could reach (lookalike, lenientNeighbour). Nothing
   * else is drawn from it: it is no sighting of that id.
   */
  shownAt(account: string, id: string): void {
    this.knows(account, id);
  }

  /** Records that a retrieve (own token) found nothing at an id. */
  sawAbsent(account: string, id: string): void {
    const claim = this.state(account, id);
    if (claim) claim.sighting = 'absent';
  }

  /** How many creates in the account answered with this id (0 when none did). */
  creates(account: string, id: string): number {
    return this.state(account, id)?.creates ?? 0;
  }

  /** Ids in the account that a create of this run was answered with while an earlier widget at it was live. */
  collidedIds(account: string): string[] {
    return [...(this.claims.get(account)?.values() ?? [])].filter((c) => c.collided === true).map((c) => c.id);
  }

  /** The accounts holding a claim on the id. */
  claimants(id: string): string[] {
    return [...this.claims].filter(([, claims]) => claims.has(id)).map(([account]) => account);
  }

  /** Records an id the suite made up and saw answered as absent ("unknown id" checks). */
  addMadeUp(id: string): void {
    this.madeUp.add(id);
  }

  /** True for an id the suite made up for an "unknown id" check. */
  isMadeUp(id: string): boolean {
    return this.madeUp.has(id);
  }

  /** DELETEs sent and not yet recorded (deleted() or their failure), by account and id, with how many. */
  readonly #deletesOnWire = new Map<string, number>();

  /** A DELETE of the id went on the wire: until deleteSettled, a create answered with the id may follow the server's delete. */
  deleteSent(account: string, id: string): void {
    const key = `${account}\u0000${id}`;
    this.#deletesOnWire.set(key, (this.#deletesOnWire.get(key) ?? 0) + 1);
  }

  /** The DELETE's answer was recorded (or lost, or it was never sent after all). */
  deleteSettled(account: string, id: string): void {
    const key = `${account}\u0000${id}`;
    const n = (this.#deletesOnWire.get(key) ?? 0) - 1;
    if (n > 0) this.#deletesOnWire.set(key, n);
    else this.#deletesOnWire.delete(key);
  }

  /** True while a DELETE of the id is on the wire unrecorded. */
  deleteOnWire(account: string, id: string): boolean {
    return this.#deletesOnWire.has(`${account}\u0000${id}`);
  }

  /** Records a delete with the account's own token that answered 2xx. */
  deleted(account: string, id: string): void {
    const claim = this.state(account, id);
    if (claim) {
      this.journal.append({ kind: 'deleted', account, id });
      claim.deleted = true;
      delete claim.problem;
      // Proof was of the widget that is gone: whatever comes to stand at the id needs its own.
      delete claim.sighting;
      delete claim.seenMarked;
      delete claim.seenUnmarked;
    }
  }

  /** Records that a widget reported deleted is still there (a retrieve shows it after a 2xx delete). */
  undeleted(account: string, id: string): void {
    const claim = this.state(account, id);
    if (claim?.deleted) {
      // Its own kind: no create answered anything (a 'created' entry read as an id given twice).
      this.journal.append({ kind: 'undeleted', account, id });
      claim.deleted = false;
      delete claim.gone;
    }
  }

  /** Every claim the run holds, deleted, gone or not. */
  allClaims(): Claim[] {
    return [...this.claims.values()].flatMap((claims) => [...claims.values()]);
  }

  /** Records (and journals) that a deleted id is proven gone: after the delete, a retrieve with the owner's token answered 404 or 410 (sweep.ts). */
  provenGone(account: string, id: string): void {
    const claim = this.state(account, id);
    if (claim?.deleted && !claim.gone) {
      this.journal.append({ kind: 'gone', account, id });
      claim.gone = true;
      delete claim.problem;
    }
  }

  /** Records that a list (or another account) still showing the id contradicts its delete or gone proof: held as live again, with the problem. */
  notGone(account: string, id: string, problem: string): void {
    const claim = this.state(account, id);
    if (!claim) return;
    if (claim.deleted) this.journal.append({ kind: 'undeleted', account, id });
    claim.deleted = false;
    delete claim.gone;
    claim.problem = problem;
  }

  /** Leaves a widget of the run in place on purpose (--keep-failing), saying why; a deleted one is not kept. True when it is. */
  keep(account: string, id: string, why: string): boolean {
    const claim = this.state(account, id);
    if (!claim || claim.deleted) return false;
    claim.kept ??= why;
    return true;
  }

  /** Records that the id is never put in a path (safe-ids.ts unsafeSegment), and why: no delete is tried, it is reported. */
  unsendable(account: string, id: string, why: string): void {
    const claim = this.state(account, id);
    if (!claim) return;
    claim.unsendable = why;
    claim.problem = `never sent in a path: ${why}`;
  }

  /** Takes in a claim a worker held at its end (the runner's final cleanup): the id, why it was not deleted, and whether it is kept. */
  held(claim: Claim): void {
    const own = this.state(claim.account, claim.id) ?? (this.claim(claim.account, claim.id), this.state(claim.account, claim.id)!);
    if (claim.problem) own.problem = claim.problem;
    if (claim.kept !== undefined) own.kept = claim.kept;
    if (claim.unsendable !== undefined) own.unsendable = claim.unsendable;
  }

  /** Records why a held id could not be deleted. */
  failed(account: string, id: string, problem: string): void {
    // Only a held id is reported as the run's: any other was never the run's to delete.
    const claim = this.state(account, id);
    if (claim) claim.problem = problem;
  }

  /** Every claim not known to be deleted. */
  outstanding(): Claim[] {
    return [...this.claims.values()].flatMap((claims) => [...claims.values()].filter((c) => !c.deleted));
  }
}
