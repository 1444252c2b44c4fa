/**
 * The run's journal file: every fact the run's own records hold about its widgets, one JSON
 * line each, written as it happens and replayed by the final cleanup and `cleanup`.
 * - Ids are stored exactly: an id whose text the run's redactor would change (it holds a
 *   credential in one of its spellings) is written as `idHex` (its UTF-16 code units in hex,
 *   each XORed with `idKey`, a key chosen so that no credential spelling appears in the line),
 *   never as redacted text, which no request could address again.
 * - A line that is not an entry (torn by a kill, edited, another file) is reported with its
 *   number, never skipped silently: `cleanup` then keeps the journal.
 * - A journal path that is not a regular file (FIFO, directory, symlink, device) is refused
 *   before any open that could block.
 */
import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readSync, appendFileSync } from 'node:fs';

/** One line of a run's journal. `account` is the account's role: "primary" or "second". */
export type JournalEntry =
  /** The run's marker (`cleanup` proves ownership with it) and its target: origin and base path (see targetOf). */
  | { readonly kind: 'run'; readonly marker: string; readonly at: string; readonly target?: string }
  /** The ids an account held before the first create; `complete` false when the walk stopped early. */
  | { readonly kind: 'inventory'; readonly account: string; readonly ids: readonly string[]; readonly complete: boolean }
  /** A create about to be sent (`key` pairs it with its outcome), with the name it carries. */
  | { readonly kind: 'sent'; readonly account: string; readonly key: string; readonly tag?: string }
  /** The create answered 2xx with this id: the widget is the run's to delete, given proof. */
  | { readonly kind: 'created'; readonly account: string; readonly key: string; readonly id: string; readonly name?: string; readonly created_at?: string }
  /**
   * A retrieve with the account's own token showed the run's widget at this id with an
   * identifying fact its create's answer lacked (a created_at, a name): every later proof, the
   * cleanups' included, holds the widget to it too.
   */
  | { readonly kind: 'seen'; readonly account: string; readonly id: string; readonly name?: string; readonly created_at?: string }
  /**
   * A retrieve or list entry with the account's own token showed the run's id without the run
   * marker (since its last create or delete): shown with the marker at another time, in the final
   * cleanup or `cleanup` as in the process that saw this, the id is contradicted, never deleted.
   */
  | { readonly kind: 'unmarked'; readonly account: string; readonly id: string }
  /** The create was answered without creating anything (a non-2xx status). */
  | { readonly kind: 'refused'; readonly account: string; readonly key: string; readonly status: number }
  /** A delete with the account's own token answered 2xx, or a retrieve found the widget gone after one. */
  | { readonly kind: 'deleted'; readonly account: string; readonly id: string }
  /**
   * Proven gone: after the run's delete, a retrieve with the account's own token answered 404 or
   * 410, from a target whose list answered that token 2xx. Only this lets a cleanup say nothing is left.
   */
  | { readonly kind: 'gone'; readonly account: string; readonly id: string }
  /**
   * A widget recorded deleted is seen again with the marker (a retrieve after a 2xx delete, or a
   * list after a 404 retrieve): held as live again. No create answered anything here.
   */
  | { readonly kind: 'undeleted'; readonly account: string; readonly id: string }
  /** The id must never be deleted: the server contradicted itself about it. */
  | { readonly kind: 'contradiction'; readonly account: string; readonly id: string; readonly why: string };

/** A run's journal in its report directory is `widget-journal-<marker>.jsonl`. */
export const JOURNAL_PREFIX = 'widget-journal-';

/** A journal larger than this is not read (a file of the suite's own, so this only bounds a wrong --journal). */
export const MAX_JOURNAL_BYTES = 256 * 1024 * 1024;

/** The target a journal records: the base URL's origin and path, without a trailing slash, query or credentials. */
export function targetOf(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The widest XOR key tried for an id's code units (a key that clears the redactor is found long before). */
const MAX_ID_KEY = 0xff;

/** An id as written: its code units in hex (4 digits each), each XORed with the key. */
function hexOfId(id: string, key: number): string {
  let out = '';
  for (let i = 0; i < id.length; i += 1) out += (id.charCodeAt(i) ^ key).toString(16).padStart(4, '0');
  return out;
}

/** The id an `idHex` field holds, or undefined when it is not one. */
function idOfHex(hex: unknown, key: unknown): string | undefined {
  if (typeof hex !== 'string' || hex.length % 4 !== 0 || !/^[0-9a-f]*$/.test(hex)) return undefined;
  const k = key === undefined ? 0 : key;
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 0 || k > MAX_ID_KEY) return undefined;
  let id = '';
  for (let i = 0; i < hex.length; i += 4) id += String.fromCharCode(Number.parseInt(hex.slice(i, i + 4), 16) ^ k);
  return id;
}

/** The entry as it is written, its ids that `changes` flags moved to idHex / idsHex with the key. */
function encoded(entry: JournalEntry, changes: (id: string) => boolean, key: number): Record<string, unknown> {
  const out: Record<string, unknown> = { ...entry };
  if ('id' in entry && changes(entry.id)) {
    delete out.id;
    out.idHex = hexOfId(entry.id, key);
    if (key !== 0) out.idKey = key;
  }
  if (entry.kind === 'inventory' && entry.ids.some(changes)) {
    out.ids = entry.ids.filter((id) => !changes(id));
    out.idsHex = entry.ids.filter(changes).map((id) => hexOfId(id, key));
    if (key !== 0) out.idKey = key;
  }
  return out;
}

/** Appends entries to a journal file as they happen; a journal without a file keeps nothing. */
export class Journal {
  /**
   * @param file where to append (undefined: keep nothing)
   * @param redact the run's redaction: no credential reaches the file as text, in any spelling it knows
   */
  constructor(
    readonly file: string | undefined,
    private readonly redact: (text: string) => string = (text) => text,
  ) {}

  /** Appends one entry (synchronously: it is on disk before the next request goes out). */
  append(entry: JournalEntry): void {
    if (this.file !== undefined) appendFileSync(this.file, `${this.line(entry)}\n`, { mode: 0o600 });
  }

  /**
   * The line for an entry: as it is when the redactor leaves it alone; else with every id the
   * redactor would change encoded under the first key that leaves the encoding untouched, and
   * the rest (a name, a reason) redacted as text. Ids are what a later delete addresses, so
   * they must come back exactly; when no key can (never seen), the entry is written redacted
   * and replays as a torn line, which keeps the journal (see parseJournalText).
   */
  line(entry: JournalEntry): string {
    const plain = JSON.stringify(entry);
    const redacted = this.redact(plain);
    if (redacted === plain) return plain;
    const changes = (id: string): boolean => this.redact(JSON.stringify(id)) !== JSON.stringify(id);
    for (let key = 0; key <= MAX_ID_KEY; key += 1) {
      const text = this.redact(JSON.stringify(encoded(entry, changes, key)));
      const back = parseLine(text);
      if (back !== undefined && sameIds(back, entry)) return text;
    }
    return redacted;
  }
}

function idsOf(entry: JournalEntry): string[] {
  return entry.kind === 'inventory' ? [...entry.ids].sort() : 'id' in entry ? [entry.id] : [];
}

function sameIds(a: JournalEntry, b: JournalEntry): boolean {
  const x = idsOf(a);
  const y = idsOf(b);
  return x.length === y.length && x.every((id, i) => id === y[i]);
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isRole = (v: unknown): v is string => v === 'primary' || v === 'second';

/** The entry a parsed line holds (ids decoded from idHex), or undefined for a line that is not one. */
function entryOf(value: unknown): JournalEntry | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const e = { ...(value as Record<string, unknown>) };
  if ('idHex' in e && e.kind !== 'inventory') {
    const id = idOfHex(e.idHex, e.idKey);
    if (id === undefined || 'id' in e) return undefined;
    e.id = id;
    delete e.idHex;
    delete e.idKey;
  }
  if (e.kind === 'inventory' && 'idsHex' in e) {
    if (!Array.isArray(e.idsHex) || !Array.isArray(e.ids)) return undefined;
    const decoded = e.idsHex.map((h) => idOfHex(h, e.idKey));
    if (decoded.some((id) => id === undefined)) return undefined;
    e.ids = [...(e.ids as unknown[]), ...decoded];
    delete e.idsHex;
    delete e.idKey;
  }
  switch (e.kind) {
    case 'run': return isString(e.marker) && (e.target === undefined || isString(e.target)) ? (e as JournalEntry) : undefined;
    case 'inventory': return isRole(e.account) && Array.isArray(e.ids) && e.ids.every(isString) && typeof e.complete === 'boolean' ? (e as JournalEntry) : undefined;
    case 'sent': return isRole(e.account) && isString(e.key) && (e.tag === undefined || isString(e.tag)) ? (e as JournalEntry) : undefined;
    case 'created': return isRole(e.account) && isString(e.key) && isString(e.id) ? (e as JournalEntry) : undefined;
    case 'seen': return isRole(e.account) && isString(e.id) && (e.name === undefined || isString(e.name)) && (e.created_at === undefined || isString(e.created_at)) ? (e as JournalEntry) : undefined;
    case 'refused': return isRole(e.account) && isString(e.key) ? (e as JournalEntry) : undefined;
    case 'deleted':
    case 'gone':
    case 'unmarked':
    case 'undeleted': return isRole(e.account) && isString(e.id) ? (e as JournalEntry) : undefined;
    case 'contradiction': return isRole(e.account) && isString(e.id) && isString(e.why) ? (e as JournalEntry) : undefined;
    default: return undefined;
  }
}

function parseLine(line: string): JournalEntry | undefined {
  try {
    return entryOf(JSON.parse(line));
  } catch {
    return undefined;
  }
}

/** A line of a journal that is not an entry: its 1-based number and why. */
export interface TornLine {
  readonly line: number;
  readonly why: string;
}

/** Parses journal text into its entries and the lines that are not entries (blank lines apart). */
export function parseJournalText(text: string): { entries: JournalEntry[]; torn: TornLine[] } {
  const entries: JournalEntry[] = [];
  const torn: TornLine[] = [];
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      torn.push({ line: i + 1, why: i === lines.length - 1 ? 'not JSON, and the file does not end with a newline (a write cut short)' : 'not JSON' });
      continue;
    }
    const entry = entryOf(value);
    if (entry) entries.push(entry);
    else torn.push({ line: i + 1, why: 'JSON, but not a journal entry this version can read' });
  }
  return { entries, torn };
}

/** Parses journal text; lines that are not entries are left out (the run's own cleanup; `cleanup` reads them with parseJournalText). */
export function parseJournal(text: string): JournalEntry[] {
  return parseJournalText(text).entries;
}

/** A journal path `cleanup` cannot read: not a regular file, too large, unreadable. */
export class JournalFileError extends Error {}

/**
 * The text of a journal file, read without following a symlink and without an open that could
 * block: lstat first, then open non-blocking and check again what was opened. Undefined when
 * there is no file; JournalFileError when the path is not a regular file or is too large.
 */
export function readJournalFile(file: string): string | undefined {
  let stat;
  try {
    stat = lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new JournalFileError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const what = (s: { isFIFO(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean; isSocket(): boolean; isFile(): boolean }): string | undefined =>
    s.isFile() ? undefined : s.isFIFO() ? 'a FIFO' : s.isDirectory() ? 'a directory' : s.isSymbolicLink() ? 'a symbolic link' : s.isSocket() ? 'a socket' : 'a device or other special file';
  const special = what(stat);
  if (special) throw new JournalFileError(`${file} is ${special}, not a regular file: not read (a journal is a regular file a run wrote)`);
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    throw new JournalFileError(`${file}: cannot be opened (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    const opened = fstatSync(fd);
    const swapped = what(opened);
    if (swapped) throw new JournalFileError(`${file} is ${swapped}, not a regular file: not read`);
    if (opened.size > MAX_JOURNAL_BYTES) throw new JournalFileError(`${file} is ${opened.size} bytes, more than a journal of this suite can be (${MAX_JOURNAL_BYTES})`);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(1 << 20);
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      total += n;
      if (total > MAX_JOURNAL_BYTES) throw new JournalFileError(`${file} grew past ${MAX_JOURNAL_BYTES} bytes while read`);
      chunks.push(chunk.subarray(0, n));
    }
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** The entries of a journal file ([] when there is none); throws when the path is not a journal file. */
export function readJournal(file: string): JournalEntry[] {
  if (!existsSync(file)) return [];
  const text = readJournalFile(file);
  return text === undefined ? [] : parseJournal(text);
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
  /** The targets the journal's 'run' entries name (none in a journal written before targets were recorded). */
  readonly targets: string[];
  readonly inventory: Map<string, Set<string>>;
  /** Accounts whose inventory walk stopped before the end of the list. */
  readonly partialInventory: Set<string>;
  /** Ids a create answered and no delete has removed since, per account. */
  readonly live: Map<string, Set<string>>;
  /** Every id any create answered, per account. */
  readonly created: Map<string, Set<string>>;
  /** Ids proven gone (a 'gone' entry after their last create or undeleted entry), per account. */
  readonly gone: Map<string, Set<string>>;
  readonly contradictions: Map<string, Map<string, string>>;
  readonly lost: LostCreate[];
  /**
   * Creates answered with an id an earlier create of the run had (live or deleted), or one the
   * account held before the run: recorded create answers only (never a retrieve or a list), so
   * the widget each made may stand at an id the run never learned (CRUD-3 or DEL-2): it counts as lost.
   */
  readonly reused: LostCreate[];
  /** The name and created_at each create answered, per account and id (the latest create of an id), with what retrieves showed that the answer lacked (`seen`): what a retrieve must show to prove the widget the same (ledger.ts shownAt). */
  readonly answered?: Map<string, Map<string, { readonly name?: string; readonly createdAt?: string }>>;
  /** Ids a create answered while the widget an earlier create got there was not deleted (the id names two widgets: never deleted), per account. */
  readonly collided?: Map<string, Set<string>>;
  /** Ids the account's own token was shown without the run marker since their last create or delete (`unmarked`), per account. */
  readonly unmarked?: Map<string, Set<string>>;
}

const bucket = <T>(map: Map<string, T>, account: string, make: () => T): T => {
  let value = map.get(account);
  if (value === undefined) map.set(account, (value = make()));
  return value;
};

/** Journals written before the 'undeleted' kind recorded it as a 'created' entry with this key prefix: no create answered it. */
const OLD_UNDELETED_KEY = 'undeleted-';

/** Replays entries in order into what they establish. */
export function journalFacts(entries: readonly JournalEntry[]): JournalFacts {
  const facts: JournalFacts = { markers: [], targets: [], inventory: new Map(), partialInventory: new Set(), live: new Map(), created: new Map(), gone: new Map(), contradictions: new Map(), lost: [], reused: [], answered: new Map(), collided: new Map(), unmarked: new Map() };
  const pending = new Map<string, LostCreate>();
  const live = (account: string, id: string): void => {
    bucket(facts.live, account, () => new Set()).add(id);
    facts.gone.get(account)?.delete(id);
  };
  for (const e of entries) {
    switch (e.kind) {
      case 'run':
        if (!facts.markers.includes(e.marker)) facts.markers.push(e.marker);
        if (e.target !== undefined && !facts.targets.includes(e.target)) facts.targets.push(e.target);
        break;
      case 'inventory':
        for (const id of e.ids) bucket(facts.inventory, e.account, () => new Set()).add(id);
        if (!e.complete) facts.partialInventory.add(e.account);
        break;
      case 'sent':
        pending.set(e.key, { account: e.account, ...(e.tag === undefined ? {} : { tag: e.tag }) });
        break;
      case 'created': {
        if (e.key.startsWith(OLD_UNDELETED_KEY) && e.key === `${OLD_UNDELETED_KEY}${e.id}` && facts.created.get(e.account)?.has(e.id)) {
          live(e.account, e.id);
          break;
        }
        const sent = pending.get(e.key);
        // An id an earlier create had, or one the account held before the run: what this create made is elsewhere.
        if (facts.created.get(e.account)?.has(e.id) || facts.inventory.get(e.account)?.has(e.id)) facts.reused.push({ ...(sent ?? { account: e.account }), reused: true });
        // Answered while the widget an earlier create got at the id was not deleted: the id names two widgets.
        if (facts.live.get(e.account)?.has(e.id)) bucket(facts.collided!, e.account, () => new Set()).add(e.id);
        pending.delete(e.key);
        live(e.account, e.id);
        // A new widget at the id: what was shown of an earlier one there says nothing of it.
        facts.unmarked!.get(e.account)?.delete(e.id);
        bucket(facts.created, e.account, () => new Set()).add(e.id);
        // This create's answer replaces what an earlier widget at the id was known by.
        bucket(facts.answered!, e.account, () => new Map()).set(e.id, { ...(isString(e.name) ? { name: e.name } : {}), ...(isString(e.created_at) ? { createdAt: e.created_at } : {}) });
        break;
      }
      case 'seen': {
        // Only for an id a create of the run answered; a fact the answer had is never replaced.
        if (!facts.created.get(e.account)?.has(e.id)) break;
        const known = facts.answered!.get(e.account)?.get(e.id) ?? {};
        const more = { ...known, ...(known.name === undefined && isString(e.name) ? { name: e.name } : {}), ...(known.createdAt === undefined && isString(e.created_at) ? { createdAt: e.created_at } : {}) };
        bucket(facts.answered!, e.account, () => new Map()).set(e.id, more);
        break;
      }
      case 'undeleted':
        if (facts.created.get(e.account)?.has(e.id)) live(e.account, e.id);
        break;
      case 'refused':
        pending.delete(e.key);
        break;
      case 'unmarked':
        if (facts.created.get(e.account)?.has(e.id)) bucket(facts.unmarked!, e.account, () => new Set()).add(e.id);
        break;
      case 'deleted':
        facts.live.get(e.account)?.delete(e.id);
        facts.unmarked!.get(e.account)?.delete(e.id);
        break;
      case 'gone':
        if (facts.created.get(e.account)?.has(e.id) && !facts.live.get(e.account)?.has(e.id)) bucket(facts.gone, e.account, () => new Set()).add(e.id);
        break;
      case 'contradiction':
        if (!facts.contradictions.get(e.account)?.has(e.id)) bucket(facts.contradictions, e.account, () => new Map()).set(e.id, e.why);
        break;
    }
  }
  facts.lost.push(...pending.values());
  return facts;
}
