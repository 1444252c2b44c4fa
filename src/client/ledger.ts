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
 * (appends of one short line each, so lines of different processes do not interleave); its
 * format, exact ids and reading live in journal.ts.
 */
export { JOURNAL_PREFIX, MAX_JOURNAL_BYTES, Journal, journalFacts, parseJournal, parseJournalText, readJournal, readJournalFile, targetOf, JournalFileError } from './journal.ts';
export type { JournalEntry, JournalFacts, LostCreate, TornLine } from './journal.ts';

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
   * Two creates of this run were answered with this id while the widget the first one got there
   * was not deleted: the id names two widgets (CRUD-3), and a retrieve showing one of them proves
   * nothing about which a DELETE would reach (a server that lies about ids can show either).
   * Nothing is sent to it.
   */
  readonly collided?: boolean;
  /**
   * For a delete checking that another account's widget cannot be deleted (the id absent in this
   * account, or shown here with the marker by a server that ignores accounts on retrieve): the id
   * is one the suite made up, or one that passes this same rule in the account whose create
   * answered it. A DELETE that finds nothing of this account's to act on harms nothing.
   */
  readonly absentHereProvenElsewhere: boolean;
  /** When not: the account whose create answered the id, and why the rule refused it there (the refusal says so, not only "no create answered"). */
  readonly refusedElsewhere?: { readonly account: string; readonly reason: string };
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
  | {
      readonly send: false;
      readonly reason: string;
      readonly broken?: string;
      /**
       * `credential`: the write carries a credential that is no account's own, and an account of
       * the run shows a widget at the id the rule does not prove the suite's: not evidence about
       * the widget, only that the write cannot be sent safely on this server (door.ts).
       */
      readonly kind?: 'credential';
    };

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
  if (f.collided === true) return { send: false, reason: 'two creates of this run were answered with this id while the first widget was not deleted: the id does not name one widget, so nothing is sent to it', broken: 'CRUD-3' };
  if (f.contradiction !== undefined) return { send: false, reason: `the server contradicted itself about this id (${f.contradiction}): never deleted`, broken: 'CRUD-4' };
  if (f.again) return secondDeleteVerdict(f, f.again);
  const owned = f.sweep ? f.sweep.listedOnlyMarked : f.journalled;
  // A delete checking that another account's widget cannot be deleted (ISO, AUTH): this account
  // shows nothing at the id, or the same marked widget (a server ignoring accounts on retrieve).
  if (!f.journalled && (f.retrieve === 'absent' || f.retrieve === 'marked') && f.absentHereProvenElsewhere) return { send: true };
  if (f.retrieve === 'absent' && f.absentHereProvenElsewhere) return { send: true };
  if (!owned && f.refusedElsewhere !== undefined && !f.sweep) return { send: false, reason: `no create of this run answered this id in this account, and in the ${f.refusedElsewhere.account} account, whose create did: ${f.refusedElsewhere.reason}` };
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
