/**
 * The run's ownership journal and the one rule every DELETE obeys.
 *
 * Whatever the server says about which widget is the suite's (a create answer, a list entry, a
 * retrieve, a marker) it may say falsely. Only facts the suite holds itself decide a delete:
 * - the inventory: the ids each account held before the run's first create (the runner's
 *   walk). Never deleted, whatever any later answer says.
 * - the journal: every id a create answered, appended to a file in the report directory the
 *   moment the answer arrives (a SIGKILL loses nothing written before it), with the tag sent.
 * - contradictions: an id seen without the marker at one time and with it at another, or
 *   listed twice on one page. Never deleted.
 * The journal file is JSON Lines: one JournalEntry a line, from the runner and every worker
 * (appends of one short line each, so lines of different processes do not interleave).
 */
import { appendFileSync, existsSync, readFileSync, statSync } from 'node:fs';

/** One line of a run's journal. */
export type JournalEntry =
  /** The run's marker: `cleanup` proves ownership with it. */
  | { readonly kind: 'run'; readonly marker: string; readonly at: string }
  /** The ids an account held before the first create; `complete` false when the walk stopped early. */
  | { readonly kind: 'inventory'; readonly account: string; readonly ids: readonly string[]; readonly complete: boolean }
  /** A create about to be sent (`key` pairs it with its outcome), with the name it carries. */
  | { readonly kind: 'sent'; readonly account: string; readonly key: string; readonly tag?: string }
  /** The create answered 2xx with this id: the widget is the run's to delete, given proof. */
  | { readonly kind: 'created'; readonly account: string; readonly key: string; readonly id: string; readonly name?: string; readonly created_at?: string }
  /** The create was answered without creating anything (a non-2xx status). */
  | { readonly kind: 'refused'; readonly account: string; readonly key: string; readonly status: number }
  /** A delete with the account's own token answered 2xx, or a retrieve found the widget gone after one. */
  | { readonly kind: 'deleted'; readonly account: string; readonly id: string }
  /** The id must never be deleted: the server contradicted itself about it. */
  | { readonly kind: 'contradiction'; readonly account: string; readonly id: string; readonly why: string };

/** A run's journal in its report directory is `widget-journal-<marker>.jsonl`. */
export const JOURNAL_PREFIX = 'widget-journal-';

/** A journal larger than this is not read (a file of the suite's own, so this only bounds a wrong --journal). */
export const MAX_JOURNAL_BYTES = 256 * 1024 * 1024;

/** Appends entries to a journal file as they happen; a journal without a file keeps nothing. */
export class Journal {
  /**
   * @param file where to append (undefined: keep nothing)
   * @param redact the run's redaction: an id or name that holds a credential is never written as it is
   */
  constructor(
    readonly file: string | undefined,
    private readonly redact: (text: string) => string = (text) => text,
  ) {}

  /** Appends one entry (synchronously: it is on disk before the next request goes out). */
  append(entry: JournalEntry): void {
    if (this.file !== undefined) appendFileSync(this.file, `${this.redact(JSON.stringify(entry))}\n`, { mode: 0o600 });
  }
}

/** A create whose answer never said what it made: its widget, if any, cannot be found safely. */
export interface LostCreate {
  readonly account: string;
  readonly tag?: string;
  /** Answered with an id an earlier create of the run had (or a pre-existing widget's), rather than with no usable answer. */
  readonly reused?: boolean;
}

/** What a journal says, replayed in order. */
export interface JournalFacts {
  readonly markers: string[];
  readonly inventory: Map<string, Set<string>>;
  /** Accounts whose inventory walk stopped before the end of the list. */
  readonly partialInventory: Set<string>;
  /** Ids a create answered and no delete has removed since, per account. */
  readonly live: Map<string, Set<string>>;
  /** Every id any create answered, per account. */
  readonly created: Map<string, Set<string>>;
  readonly contradictions: Map<string, Map<string, string>>;
  readonly lost: LostCreate[];
  /**
   * Creates answered with an id an earlier create of the run had (live or deleted), or one the
   * account held before the run: the widget each made may stand at an id the run never learned
   * (CRUD-3 or DEL-2), so it counts as lost.
   */
  readonly reused: LostCreate[];
  /** The name and created_at each create answered, per account and id (the latest create of an id): what a retrieve must show to prove the widget the same. */
  readonly answered?: Map<string, Map<string, { readonly name?: string; readonly createdAt?: string }>>;
}

const bucket = <T>(map: Map<string, T>, account: string, make: () => T): T => {
  let value = map.get(account);
  if (value === undefined) map.set(account, (value = make()));
  return value;
};

const isString = (v: unknown): v is string => typeof v === 'string';

/** The entry a parsed line holds, or undefined for a line that is not one (a line torn by a kill, another file). */
function entryOf(value: unknown): JournalEntry | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const e = value as Record<string, unknown>;
  switch (e.kind) {
    case 'run': return isString(e.marker) ? (e as JournalEntry) : undefined;
    case 'inventory': return isString(e.account) && Array.isArray(e.ids) && e.ids.every(isString) ? (e as JournalEntry) : undefined;
    case 'sent': return isString(e.account) && isString(e.key) ? (e as JournalEntry) : undefined;
    case 'created': return isString(e.account) && isString(e.key) && isString(e.id) ? (e as JournalEntry) : undefined;
    case 'refused': return isString(e.account) && isString(e.key) ? (e as JournalEntry) : undefined;
    case 'deleted': return isString(e.account) && isString(e.id) ? (e as JournalEntry) : undefined;
    case 'contradiction': return isString(e.account) && isString(e.id) && isString(e.why) ? (e as JournalEntry) : undefined;
    default: return undefined;
  }
}

/** Parses journal text; lines that are not entries are skipped. */
export function parseJournal(text: string): JournalEntry[] {
  const entries: JournalEntry[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const entry = entryOf(value);
    if (entry) entries.push(entry);
  }
  return entries;
}

/** The entries of a journal file ([] when there is none); throws when the file is too large to be one. */
export function readJournal(file: string): JournalEntry[] {
  if (!existsSync(file)) return [];
  const size = statSync(file).size;
  if (size > MAX_JOURNAL_BYTES) throw new Error(`${file} is ${size} bytes, more than a journal of this suite can be (${MAX_JOURNAL_BYTES})`);
  return parseJournal(readFileSync(file, 'utf8'));
}

/** Replays entries in order into what they establish. */
export function journalFacts(entries: readonly JournalEntry[]): JournalFacts {
  const facts: JournalFacts = { markers: [], inventory: new Map(), partialInventory: new Set(), live: new Map(), created: new Map(), contradictions: new Map(), lost: [], reused: [], answered: new Map() };
  const pending = new Map<string, LostCreate>();
  for (const e of entries) {
    switch (e.kind) {
      case 'run':
        if (!facts.markers.includes(e.marker)) facts.markers.push(e.marker);
        break;
      case 'inventory':
        for (const id of e.ids) bucket(facts.inventory, e.account, () => new Set()).add(id);
        if (!e.complete) facts.partialInventory.add(e.account);
        break;
      case 'sent':
        pending.set(e.key, { account: e.account, ...(e.tag === undefined ? {} : { tag: e.tag }) });
        break;
      case 'created': {
        const sent = pending.get(e.key);
        // An id an earlier create had, or one the account held before the run: what this create made is elsewhere.
        if (facts.created.get(e.account)?.has(e.id) || facts.inventory.get(e.account)?.has(e.id)) facts.reused.push({ ...(sent ?? { account: e.account }), reused: true });
        pending.delete(e.key);
        bucket(facts.live, e.account, () => new Set()).add(e.id);
        bucket(facts.created, e.account, () => new Set()).add(e.id);
        // An entry without them (an "undeleted" one) keeps what the create answered.
        if (isString(e.name) || isString(e.created_at)) bucket(facts.answered!, e.account, () => new Map()).set(e.id, { ...(isString(e.name) ? { name: e.name } : {}), ...(isString(e.created_at) ? { createdAt: e.created_at } : {}) });
        break;
      }
      case 'refused':
        pending.delete(e.key);
        break;
      case 'deleted':
        facts.live.get(e.account)?.delete(e.id);
        break;
      case 'contradiction':
        if (!facts.contradictions.get(e.account)?.has(e.id)) bucket(facts.contradictions, e.account, () => new Map()).set(e.id, e.why);
        break;
    }
  }
  facts.lost.push(...pending.values());
  return facts;
}

/** What a retrieve with the deleting account's own token showed at the id, just before the delete. */
export type RetrieveShows = 'marked' | 'unmarked' | 'absent' | 'unknown'
  /** This run's marker at the id, but not the widget the create answered (another created_at or name): another of the run's widgets, or one given the id since. */
  | 'another';

/** Everything the delete rule looks at, for one id and the account whose token would send the DELETE. */
export interface DeleteFacts {
  /** A create of this run answered this id in this account (the journal). */
  readonly journalled: boolean;
  /** The id is in this account's inventory: it existed before the run's first create. */
  readonly preExisting: boolean;
  /** Why the server contradicted itself about the id, if it did. */
  readonly contradiction: string | undefined;
  /** What a retrieve showed at the id in this account. */
  readonly retrieve: RetrieveShows;
  /** The create that answered the id already showed the widget without the run marker. */
  readonly createdUnmarked?: boolean;
  /**
   * A write to the id went out earlier in this run (or a run whose journal this is) and its
   * answer was lost: the server may have acted on it and given the id to another widget since,
   * which no later retrieve can tell from ours for sure. Nothing is sent to the id again.
   */
  readonly lostWrite?: string;
  /**
   * An id the run saw in this account that is not its own and equals this one under the
   * normalisations servers apply to ids (safe-ids.ts idKey): a router that normalises ids would
   * take the write to that widget. Nothing is sent.
   */
  readonly lookalike?: string;
  /**
   * For a delete checking that another account's widget cannot be deleted (the id absent in this
   * account, or shown here with the marker by a server that ignores accounts on retrieve): the id
   * is one the suite made up, or one that passes this same rule in the account whose create
   * answered it. A DELETE that finds nothing of this account's to act on harms nothing.
   */
  readonly absentHereProvenElsewhere: boolean;
  /**
   * `cleanup --sweep-markers` only, without a journal: the id was listed with a run marker of
   * this suite in this walk and never without one. Less safe than the journal (see docs/data-safety.md).
   */
  readonly sweep?: { readonly listedOnlyMarked: boolean };
  /**
   * Only for a second DELETE of an id this run already deleted (WidgetApi.removeAgain, the
   * profile's "second delete of the same id"): the facts of the one narrow exception to
   * "a retrieve finds nothing at this id: nothing to delete". A server may give a freed id to
   * another widget, so each must hold (see deleteVerdict and docs/data-safety.md).
   */
  readonly again?: SecondDeleteFacts;
}

/** What a second DELETE of the same id rests on, besides the facts every delete has. */
export interface SecondDeleteFacts {
  /** This account's own DELETE of the id answered 2xx earlier in this run, and only one create of the run answered the id. */
  readonly deletedOnce: boolean;
  /** A complete inventory walk found the account empty before the run's first create: no widget in it is a user's from before. */
  readonly heldNothingBefore: boolean;
  /** The run saw the server give an id twice (to two creates, or a create an id held before the run), or contradict itself about an id of the account. */
  readonly idsUnreliable: boolean;
  /** No create or delete of the suite is in flight, and none starts, from the retrieve until the DELETE is answered (WalkGate.quiet). */
  readonly quiet: boolean;
}

/**
 * The one exception for an id that shows nothing: a second DELETE of an id this run created
 * once and deleted, in an account that held no widget before the run, while no write of the
 * suite is in flight, after a retrieve in that same window found nothing there, and only if the
 * server has never given an id twice nor contradicted itself about one. Then no widget of the
 * user's predates the run, none of the suite's can be given the freed id meanwhile, and the
 * server has shown no sign of giving it again. Any other case: not sent, saying which fact is missing.
 */
function secondDeleteVerdict(f: DeleteFacts, again: SecondDeleteFacts): DeleteVerdict {
  const missing =
    f.sweep !== undefined ? 'cleanup never deletes an id twice'
    : !f.journalled || !again.deletedOnce ? 'no delete of this run removed a widget that one create of the run made at this id'
    : !again.heldNothingBefore ? 'the account held widgets before the run (or its inventory walk did not reach the end), so a widget given the freed id could be a user\'s'
    : again.idsUnreliable ? 'the server gave an id twice or contradicted itself about one in this run, so the freed id may name another widget'
    : !again.quiet ? 'writes of the suite may be in flight, and one of them could be given the freed id'
    : f.retrieve !== 'absent' ? 'the retrieve just before did not answer 404 or 410 at the id'
    : undefined;
  return missing === undefined ? { send: true } : { send: false, reason: missing };
}

/** Whether a DELETE may be sent, and if not why, with the rule the server broke to cause it (when one did). */
export type DeleteVerdict =
  | { readonly send: true }
  | { readonly send: false; readonly reason: string; readonly broken?: string };

/**
 * The one rule every DELETE obeys (tests, per-file cleanup, the final sweep, the interrupt
 * sweep, `cleanup`): sent only for an id that is in the journal, not in the inventory, free of
 * contradictions, and whose retrieve shows this run's marker; or for an id that names nothing
 * in this account and is proven the suite's in another (or made up by the suite).
 */
export function deleteVerdict(f: DeleteFacts): DeleteVerdict {
  if (f.preExisting) {
    return {
      send: false,
      reason: f.journalled
        ? 'a create of this run answered this id, but the account held a widget at it before the run\'s first create: never deleted'
        : 'the account held a widget at this id before the run\'s first create: never deleted',
      ...(f.journalled ? { broken: 'CRUD-3' } : {}),
    };
  }
  if (f.lostWrite !== undefined) return { send: false, reason: `${f.lostWrite}: the server may have acted on it and given the id to another widget, so nothing is sent to this id again` };
  if (f.lookalike !== undefined) return { send: false, reason: `the id equals ${JSON.stringify(f.lookalike.slice(0, 80))}, an id of a widget that is not the run's, under the normalisations servers apply to ids (case, Unicode forms, white space, trailing slashes, leading zeros, "+"): a router that normalises ids could take the write there, so nothing is sent to it` };
  if (f.contradiction !== undefined) return { send: false, reason: `the server contradicted itself about this id (${f.contradiction}): never deleted`, broken: 'CRUD-4' };
  if (f.again) return secondDeleteVerdict(f, f.again);
  const owned = f.sweep ? f.sweep.listedOnlyMarked : f.journalled;
  // A delete checking that another account's widget cannot be deleted (ISO, AUTH): this account
  // shows nothing at the id, or the same marked widget (a server ignoring accounts on retrieve).
  if (!f.journalled && (f.retrieve === 'absent' || f.retrieve === 'marked') && f.absentHereProvenElsewhere) return { send: true };
  if (f.retrieve === 'absent' && f.absentHereProvenElsewhere) return { send: true };
  if (!owned) return { send: false, reason: f.sweep ? 'not listed with a run marker of this suite (or also listed without one): not deleted' : 'no create of this run answered this id: not deleted' };
  switch (f.retrieve) {
    case 'marked':
      return { send: true };
    case 'unmarked':
      // Unmarked since its create answered: the name or description sent never came back (CRUD-1);
      // marked then and unmarked now: the retrieve changes the widget (CRUD-4).
      return { send: false, reason: `${f.createdUnmarked ? 'the create answered, and a retrieve shows,' : 'a retrieve shows'} a widget without the run marker at this id: not proven the suite's own, not deleted`, broken: f.createdUnmarked ? 'CRUD-1' : 'CRUD-4' };
    case 'absent':
      return { send: false, reason: 'a retrieve finds nothing at this id: nothing to delete' };
    case 'unknown':
      return { send: false, reason: 'a retrieve at this id did not answer with the widget: not proven the suite\'s own, not deleted', broken: 'CRUD-4' };
    case 'another':
      return { send: false, reason: 'a retrieve shows the run marker at this id, but not the widget its create answered (another created_at or name): not proven the same widget, not deleted', broken: 'CRUD-4' };
  }
}
