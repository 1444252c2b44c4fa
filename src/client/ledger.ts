/**
 * The run's ownership journal and the one rule every write to a widget obeys: the delete
 * decision, in one module. Its facts are built here alone (factsOf), what a retrieve shows is
 * read here alone (shownAt), "gone" and "absent" mean one thing here and everywhere (isGone:
 * 404 or 410), every refusal names its reason by a type (Refusal), and the write as a whole (the
 * accounts its credential must be proven in) is decided here too (writeVerdict); the door only
 * sends. test/unit/client/ledger.test.ts decides every combination of every fact (DELETE_FACTS).
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
 * (appends of one short line each, so lines of different processes do not interleave); its
 * format, exact ids and reading live in journal.ts.
 */
export { JOURNAL_PREFIX, MAX_JOURNAL_BYTES, Journal, journalFacts, parseJournal, parseJournalText, readJournal, readJournalFile, targetOf, JournalFileError } from './journal.ts';
export type { JournalEntry, JournalFacts, LostCreate, TornLine } from './journal.ts';
import type { ApiResponse } from '../http/client.ts';
import type { Refusal } from '../errors.ts';
import { idText } from '../schema.ts';
import { showsAsAnswered, type Ownership } from './ownership.ts';
import { extendsId } from './safe-ids.ts';

/** The one meaning of "gone" and "absent": a retrieve answered 404 or 410. A 401 or 403 says the token is not the account's; anything else proves nothing. */
export const isGone = (status: number): boolean => status === 404 || status === 410;

/** What a fresh retrieve with an account's own token showed at the id. */
export type RetrieveShows =
  /** The widget its create answered: this run's marker, the same id, created_at and name (see shownAt). */
  | 'marked'
  /** This run's marker at the id, but not the widget the create answered (another created_at or name): another of the run's widgets, or one given the id since. */
  | 'another'
  /** A widget without the run's marker at the id. */
  | 'unmarked'
  /** 404 or 410: nothing at the id in this account's view (isGone). */
  | 'absent'
  /** Another 4xx (400 for an id the server did not issue to this account, 403): no widget shown, nothing said of one. */
  | 'withheld'
  /** Anything else: a 5xx, a 2xx with another id or no widget, a redirect. */
  | 'unknown';

/**
 * What a retrieve with the account's own token shows at the id: `marked` only for the widget the
 * create answered: this run's marker, the same id, and (where the create's answer or a later
 * retrieve showed them) the same created_at instant and the same name, read case- and
 * NFKC-insensitively. A conformant server always shows these as the create answered them
 * (created_at is read-only, the name is stored as sent); a widget of another client's, or another
 * of the run's, at the id does not.
 */
export function shownAt(ownership: Ownership, account: string, id: string, res: ApiResponse): RetrieveShows {
  if (isGone(res.status)) return 'absent';
  if (res.status >= 400 && res.status < 500) return 'withheld';
  if (res.status < 200 || res.status >= 300 || idText((res.json as { id?: unknown } | undefined)?.id) !== id) return 'unknown';
  if (!ownership.isOurs(res.json)) return 'unmarked';
  const known = ownership.answered(account, id);
  if (known === undefined) return 'marked';
  return showsAsAnswered(known, res.json) ? 'marked' : 'another';
}

/** A retrieve that shows no widget of this account at the id: absent, or withheld (a 4xx that is not 404 or 410). */
const showsNothing = (shows: RetrieveShows): boolean => shows === 'absent' || shows === 'withheld';

/** Everything the delete rule looks at, for one id and the account whose token would send the DELETE. */
export interface DeleteFacts {
  /** A create of this run answered this id in this account (the journal). */
  readonly journalled: boolean;
  /** The id is in this account's inventory: it existed before the run's first create. */
  readonly preExisting: boolean;
  /** Why the server contradicted itself about the id, if it did. */
  readonly contradiction: string | undefined;
  /** What a fresh retrieve showed at the id in this account. */
  readonly retrieve: RetrieveShows;
  /** The create that answered the id already showed the widget without the run marker. */
  readonly createdUnmarked: boolean;
  /**
   * A write to the id went out earlier in this run (or a run whose journal this is) and its
   * answer was lost: the server may have acted on it and given the id to another widget since,
   * which no later retrieve can tell from ours for sure. Nothing is sent to the id again.
   */
  readonly lostWrite: string | undefined;
  /**
   * Another id the run knows in this account, equal to this one under the normalisations servers
   * apply to ids (safe-ids.ts idKey), that may hold a widget not the run's (Ownership.lookalike):
   * a router that normalises ids would take the write there, which this id's proof says nothing of.
   */
  readonly lookalike: string | undefined;
  /**
   * Two creates of this run were answered with this id while the widget the first one got there
   * was not deleted: the id names two widgets (CRUD-3), and a retrieve showing one of them proves
   * nothing about which a DELETE would reach (a server that lies about ids can show either).
   * Nothing is sent to it.
   */
  readonly collided: boolean;
  /**
   * For a write with this account's own credential when it shows nothing at the id (or the
   * marked widget of an id another account's create answered, on a server that ignores accounts
   * on retrieve): the id is one the suite made up, or passes this same rule, on a fresh
   * retrieve, in the account whose create answered it. A DELETE that finds nothing of this
   * account's to act on harms nothing.
   */
  readonly absentHereProvenElsewhere: boolean;
  /** When not: the account whose create answered the id, and why the rule refused it there (the refusal says so, not only "no create answered"). */
  readonly refusedElsewhere: { readonly account: string; readonly reason: string } | undefined;
  /**
   * `cleanup --sweep-markers` only, without a journal: the id was listed with a run marker of
   * this suite in this walk and never without one. Less safe than the journal (see docs/data-safety.md).
   */
  readonly sweep: { readonly listedOnlyMarked: boolean } | undefined;
  /**
   * Only for a second DELETE of an id this run already deleted (WidgetApi.removeAgain, the
   * profile's "second delete of the same id"): the facts of the one narrow exception to
   * "a retrieve finds nothing at this id: nothing to delete". A server may give a freed id to
   * another widget, so each must hold (see deleteVerdict and docs/data-safety.md).
   */
  readonly again: SecondDeleteFacts | undefined;
  /**
   * Only for a DELETE of an id no create answered, made by extending the run's own widget's id
   * (DEL-4: `31-x` beside `31`): the facts that keep a lookup that reads ids leniently from
   * reaching any widget but that one (see extensionVerdict and docs/data-safety.md).
   */
  readonly extension: ExtensionFacts | undefined;
}

/** What a fresh retrieve of the exact id showed, for a DELETE of an extension of the run's own widget. */
export type TargetShows =
  /** A 4xx (404, 410, a 400 for an id the server would not issue): no widget at this id. */
  | 'nothing'
  /** The widget it extends, as its create answered it: a lookup that reads ids leniently, which reaches that widget alone. */
  | 'base'
  /** A widget at this very id: the id names a widget, which is not the run's. */
  | 'itself'
  /** Anything else: a 5xx, another widget, a 2xx without one. */
  | 'other';

/** What a DELETE of an extension of the run's own widget's id rests on, besides the facts every delete has. */
export interface ExtensionFacts {
  /** The id starts with the run's widget's id and has more after it, and the two are not one id under the normalisations of ids (safe-ids.ts extendsId). */
  readonly extendsBase: boolean;
  /** Why the delete rule would not delete the widget it extends, on its fresh retrieve (the run's own live widget, as its create answered it), or undefined when it would. */
  readonly baseRefused: { readonly reason: string; readonly broken?: string } | undefined;
  /** What the exact id's fresh retrieve, on the same slot just before the write, showed. */
  readonly target: TargetShows;
  /** An id the run knows in the account (inventory, live claims, ids seen not its own) that a lenient lookup could take this one for (Ownership.lenientNeighbour), if any. */
  readonly neighbour: string | undefined;
}

/**
 * The name of every fact, checked against DeleteFacts when the suite is compiled: a fact added
 * to the type and not here fails `tsc`, and the truth table (ledger.test.ts) enumerates these.
 */
export const DELETE_FACTS = ['journalled', 'preExisting', 'contradiction', 'retrieve', 'createdUnmarked', 'lostWrite', 'lookalike', 'collided', 'absentHereProvenElsewhere', 'refusedElsewhere', 'sweep', 'again', 'extension'] as const;
type Unlisted = Exclude<keyof DeleteFacts, (typeof DELETE_FACTS)[number]>;
/** Compiles only while DELETE_FACTS names every fact of DeleteFacts. */
export const EVERY_FACT_LISTED: [Unlisted] extends [never] ? true : Unlisted = true;

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

/** What the facts of one id take besides the ledger's own: a cross-account proof's outcome, the second delete's window. */
export interface FactsBeyondTheLedger {
  readonly absentHereProvenElsewhere?: boolean;
  readonly refusedElsewhere?: { readonly account: string; readonly reason: string };
  /** The second delete of the same id, inside (or not) a window without writes of the suite. */
  readonly secondDelete?: { readonly quiet: boolean };
  /** A DELETE of an extension of the run's widget `base`: what the fresh retrieves of the base and of the exact id showed. */
  readonly extension?: { readonly base: string; readonly baseRefused: ExtensionFacts['baseRefused']; readonly target: TargetShows };
}

/** The facts of an id in an account: what the ledger holds, what a retrieve showed, and what the caller proved beyond. Built here and nowhere else. */
export function factsOf(ownership: Ownership, account: string, id: string, retrieve: RetrieveShows, beyond: FactsBeyondTheLedger = {}): DeleteFacts {
  const claim = ownership.get(account, id);
  const listed = ownership.listedOnlyMarked(account, id);
  return {
    journalled: claim !== undefined,
    preExisting: ownership.preExisting(account, id),
    contradiction: ownership.contradiction(account, id),
    retrieve,
    createdUnmarked: claim?.answeredUnmarked === true,
    lostWrite: ownership.lostWrite(id),
    lookalike: ownership.lookalike(account, id),
    collided: claim?.collided === true,
    absentHereProvenElsewhere: beyond.absentHereProvenElsewhere === true,
    refusedElsewhere: beyond.refusedElsewhere,
    sweep: listed === undefined ? undefined : { listedOnlyMarked: listed },
    again: beyond.secondDelete === undefined ? undefined : {
      deletedOnce: claim?.deleted === true && claim.creates === 1,
      heldNothingBefore: ownership.heldNothingBefore(account),
      idsUnreliable: ownership.reissued || ownership.repeated || ownership.anyContradiction(account),
      quiet: beyond.secondDelete.quiet,
    },
    extension: beyond.extension === undefined ? undefined : {
      extendsBase: extendsId(beyond.extension.base, id),
      baseRefused: beyond.extension.baseRefused,
      target: beyond.extension.target,
      neighbour: ownership.lenientNeighbour(account, id, beyond.extension.base),
    },
  };
}

/** Whether a DELETE may be sent, and if not why (typed, and in words), with the rule the server broke to cause it (when one did). */
export type DeleteVerdict =
  | { readonly send: true }
  | { readonly send: false; readonly why: Refusal; readonly reason: string; readonly broken?: string };

/** A refusal. */
const no = (why: Refusal, reason: string, broken?: string): DeleteVerdict => ({ send: false, why, reason, ...(broken === undefined ? {} : { broken }) });

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
  return missing === undefined ? { send: true } : no('second-delete', missing);
}

/**
 * A DELETE of an id no create answered, made by extending the run's own widget's id (DEL-4): a
 * lookup that reads ids leniently (an integer cast, a prefix match) takes it for a widget whose
 * id begins it. Sent only when the only widget such a lookup could reach is the run's own: the
 * widget it extends passes the delete rule on a fresh retrieve (the run's, live, as its create
 * answered it); the exact id's fresh retrieve on the same slot shows nothing there, or that very
 * widget (a lookup as lenient for GET as for DELETE reaches it alone); and no other id the run
 * knows in the account could be taken for it (a lookup lenient for DELETE alone). Never from a
 * cleanup, never for an id a create answered.
 */
function extensionVerdict(f: DeleteFacts, e: ExtensionFacts): DeleteVerdict {
  const refuse = (reason: string, broken?: string): DeleteVerdict => no('extension', reason, broken);
  if (f.sweep !== undefined) return refuse('cleanup never deletes an id no create answered');
  if (f.journalled) return refuse('a create of this run answered this id: it is deleted as that widget, never as an extension of another');
  if (!e.extendsBase) return refuse('the id does not extend the run\'s widget (it must begin with that id and say more, and not be the same id under the normalisations servers apply to ids)');
  if (e.baseRefused !== undefined) return refuse(`the widget it extends is not proven the run's own and live: ${e.baseRefused.reason}`, e.baseRefused.broken);
  if (e.target === 'itself') return refuse('a retrieve of this very id shows a widget at it: the id names a widget that is not the run\'s');
  if (e.target === 'other') return refuse('a retrieve of this very id answered neither an error (4xx) nor the widget it extends, so what a DELETE of it reaches is unknown', 'CRUD-5');
  if (e.neighbour !== undefined) return refuse(`the run knows the id ${JSON.stringify(e.neighbour.slice(0, 80))} in this account, which a lookup that reads ids leniently could take this one for (a prefix of it, or its leading digits): the DELETE could reach that widget instead of the run's own`);
  return { send: true };
}

/**
 * The one rule every write to a widget obeys (tests, per-file cleanup, the final sweep, the
 * interrupt sweep, `cleanup`), in one account: sent only for an id that is in the journal, not
 * in the inventory, free of contradictions, lost writes, lookalikes and collisions, and whose
 * retrieve shows the widget its create answered; or for an id that shows nothing in this account
 * and is proven the suite's in another (or made up by the suite).
 */
export function deleteVerdict(f: DeleteFacts): DeleteVerdict {
  if (f.preExisting) {
    return f.journalled
      ? no('pre-existing', 'a create of this run answered this id, but the account held a widget at it before the run\'s first create: never deleted', 'CRUD-3')
      : no('pre-existing', 'the account held a widget at this id before the run\'s first create: never deleted');
  }
  if (f.lostWrite !== undefined) return no('lost-write', `${f.lostWrite}: the server may have acted on it and given the id to another widget, so nothing is sent to this id again`);
  if (f.lookalike !== undefined) return no('lookalike', `the id equals ${JSON.stringify(f.lookalike.slice(0, 80))}, another id in this account that may hold a widget not the run's (no create of the run answered it, or the server spoke against it since), under the normalisations servers apply to ids (case, Unicode forms, white space, trailing slashes, leading zeros, "+"): a router that normalises ids could take the write there, which this id's proof says nothing of, so nothing is sent to it`);
  if (f.collided) return no('collided', 'two creates of this run were answered with this id while the first widget was not deleted: the id does not name one widget, so nothing is sent to it', 'CRUD-3');
  if (f.contradiction !== undefined) return no('contradicted', `the server contradicted itself about this id (${f.contradiction}): never deleted`, 'CRUD-4');
  if (f.again) return secondDeleteVerdict(f, f.again);
  if (f.extension) return extensionVerdict(f, f.extension);
  const owned = f.sweep ? f.sweep.listedOnlyMarked : f.journalled;
  // A delete checking that another account's widget cannot be deleted (ISO, AUTH): this account
  // shows nothing at the id, or the same marked widget (a server ignoring accounts on retrieve).
  if (f.absentHereProvenElsewhere && (showsNothing(f.retrieve) || (f.retrieve === 'marked' && !f.journalled))) return { send: true };
  if (!owned && f.refusedElsewhere !== undefined && !f.sweep) return no('refused-elsewhere', `no create of this run answered this id in this account, and in the ${f.refusedElsewhere.account} account, whose create did: ${f.refusedElsewhere.reason}`);
  if (!owned) return no('not-ours', f.sweep ? 'not listed with a run marker of this suite (or also listed without one): not deleted' : 'no create of this run answered this id: not deleted');
  switch (f.retrieve) {
    case 'marked':
      return { send: true };
    case 'unmarked':
      // Unmarked since its create answered: the name or description sent never came back (CRUD-1);
      // marked then and unmarked now: the retrieve changes the widget (CRUD-4).
      return no('unmarked', `${f.createdUnmarked ? 'the create answered, and a retrieve shows,' : 'a retrieve shows'} a widget without the run marker at this id: not proven the suite's own, not deleted`, f.createdUnmarked ? 'CRUD-1' : 'CRUD-4');
    case 'absent':
      return no('absent', 'a retrieve finds nothing at this id (404 or 410): nothing to delete');
    case 'withheld':
      return no('withheld', 'a retrieve at this id answered a 4xx other than 404 or 410: no widget shown, not deleted');
    case 'unknown':
      return no('unknown', 'a retrieve at this id did not answer with the widget: not proven the suite\'s own, not deleted', 'CRUD-4');
    case 'another':
      return no('another', 'a retrieve shows the run marker at this id, but not the widget its create answered (another created_at or name): not proven the same widget, not deleted', 'CRUD-4');
  }
}

/** How a write to a widget must be proven, by the credential it carries (door.ts). */
export type Proof =
  /** The credential is this account's own: proven there (and, when it shows nothing, where the id was created). */
  | { readonly kind: 'own'; readonly account: string }
  /** A credential no account owns (none, garbage, another scheme): proven in every account, the write's own last. */
  | { readonly kind: 'any-account'; readonly last: string }
  /** The profile's second delete of the same id, in the account, inside (or not) a window without writes of the suite. */
  | { readonly kind: 'second-delete'; readonly account: string; readonly quiet: boolean }
  /** A DELETE of an id no create answered, extending the run's widget `base` (DEL-4): proven on that widget, then on the exact id. */
  | { readonly kind: 'extension'; readonly account: string; readonly base: string };

/** The accounts a proof may look into, and a fresh retrieve of an id in each (on the write's lane). */
export interface Proofs {
  readonly accounts: readonly string[];
  retrieve(account: string, id: string): Promise<ApiResponse>;
}

/**
 * Whether a write to the id may be sent, proven as `proof` says, each retrieve fresh from
 * `proofs`: the whole decision of the door, which only sends. A write whose answer was lost is
 * never sent again, before any retrieve.
 */
export async function writeVerdict(ownership: Ownership, id: string, proof: Proof, proofs: Proofs): Promise<DeleteVerdict> {
  const account = proof.kind === 'any-account' ? proof.last : proof.account;
  const shows = async (at: string): Promise<RetrieveShows> => shownAt(ownership, at, id, await proofs.retrieve(at, id));
  if (ownership.lostWrite(id) !== undefined) return deleteVerdict(factsOf(ownership, account, id, 'unknown'));
  if (proof.kind === 'second-delete') return deleteVerdict(factsOf(ownership, account, id, await shows(account), { secondDelete: { quiet: proof.quiet } }));
  if (proof.kind === 'extension') return extensionWriteVerdict(ownership, id, proof, proofs);
  if (proof.kind === 'own') return ownVerdict(ownership, id, account, shows);
  // In the write's own account the rule speaks of the widget itself (a rule the server broke
  // included); in another it says only that the credential could reach a widget there.
  const order = [...proofs.accounts].sort((a, b) => Number(a === account) - Number(b === account));
  for (const each of order) {
    const seen = await shows(each);
    if (showsNothing(seen)) continue;
    const verdict = deleteVerdict(factsOf(ownership, each, id, seen));
    if (verdict.send) continue;
    if (each === account) return verdict;
    return no('credential', `the write carries a credential that is no account's own (none, another scheme, a changed token), which the server may take for any account, and in the ${each} account: ${verdict.reason}`);
  }
  return { send: true };
}

/**
 * A write with the account's own credential: its fresh retrieve and the ledger's facts; when it
 * shows nothing at the id (or the marked widget of an id another account's create answered, on a
 * server that ignores accounts on retrieve), the fresh proof of the account whose create answered
 * it, or the id being one the suite made up.
 */
async function ownVerdict(ownership: Ownership, id: string, account: string, shows: (account: string) => Promise<RetrieveShows>): Promise<DeleteVerdict> {
  const seen = await shows(account);
  const here = factsOf(ownership, account, id, seen);
  const looksElsewhere = showsNothing(seen) || (seen === 'marked' && !here.journalled);
  if (!looksElsewhere || here.preExisting || here.contradiction !== undefined) return deleteVerdict(here);
  let elsewhere = seen !== 'marked' && ownership.isMadeUp(id);
  let refusedElsewhere: { account: string; reason: string } | undefined;
  for (const claimant of ownership.claimants(id)) {
    if (elsewhere || claimant === account) continue;
    const there = deleteVerdict(factsOf(ownership, claimant, id, await shows(claimant)));
    elsewhere = there.send;
    if (!there.send) refusedElsewhere ??= { account: claimant, reason: there.reason };
  }
  return deleteVerdict(factsOf(ownership, account, id, seen, { absentHereProvenElsewhere: elsewhere, ...(!elsewhere && refusedElsewhere ? { refusedElsewhere } : {}) }));
}

/**
 * A DELETE of `target`, extending the run's widget `base` (DEL-4): nothing is retrieved unless it
 * extends it; then the base's fresh retrieve under the delete rule, and the exact id's fresh
 * retrieve last, just before the write (extensionVerdict).
 */
async function extensionWriteVerdict(ownership: Ownership, target: string, proof: Extract<Proof, { kind: 'extension' }>, proofs: Proofs): Promise<DeleteVerdict> {
  const { account, base } = proof;
  if (!extendsId(base, target)) return deleteVerdict(factsOf(ownership, account, target, 'unknown', { extension: { base, baseRefused: undefined, target: 'other' } }));
  const baseVerdict = deleteVerdict(factsOf(ownership, account, base, shownAt(ownership, account, base, await proofs.retrieve(account, base))));
  const baseRefused = baseVerdict.send ? undefined : { reason: baseVerdict.reason, ...(baseVerdict.broken === undefined ? {} : { broken: baseVerdict.broken }) };
  const res = await proofs.retrieve(account, target);
  return deleteVerdict(factsOf(ownership, account, target, shownAt(ownership, account, target, res), { extension: { base, baseRefused, target: targetShows(ownership, account, base, target, res) } }));
}

/** What a retrieve of `target` shows, for a DELETE of it aimed at the run's widget `base` (TargetShows). */
export function targetShows(ownership: Ownership, account: string, base: string, target: string, res: ApiResponse): TargetShows {
  if (res.status >= 400 && res.status < 500) return 'nothing';
  if (res.status < 200 || res.status >= 300) return 'other';
  const shown = idText((res.json as { id?: unknown } | undefined)?.id);
  if (shown === target) return 'itself';
  const answered = ownership.answered(account, base);
  return shown === base && ownership.isOurs(res.json) && (answered === undefined || showsAsAnswered(answered, res.json)) ? 'base' : 'other';
}

/** The delete rule on the second delete of an id from the ledger's facts alone (no request): whether the quiet window is worth asking for. */
export function secondDeleteBefore(ownership: Ownership, account: string, id: string, quiet: boolean): DeleteVerdict {
  return deleteVerdict(factsOf(ownership, account, id, 'absent', { secondDelete: { quiet } }));
}
