/**
 * The ownership ledger's one door for writes. The HTTP client sends a POST, PUT, PATCH or
 * DELETE (any method but GET, HEAD and OPTIONS) only with a pass (http/client.ts WritePass),
 * and this module alone mints passes: each for one method and one path, spent by the request
 * it was minted for, and minted only
 * - for a create (or any write that may make a widget), after its `sent` entry is in the journal,
 *   whatever its body, so a create whose answer is lost is known (openCreate);
 * - for a write to one widget (DELETE, or PUT/PATCH/POST on its URL), right after a retrieve of
 *   that id, inside the id's turn (nothing else this process writes to the id goes out between
 *   them), that shows this run's marker and the widget as the create answered it, when the delete
 *   rule (ledger.ts deleteVerdict) says so from that retrieve and the ledger's own facts
 *   (sendProven). A write to an id whose earlier write lost its answer is never sent again.
 * test/unit/client/door.test.ts holds that no other module installs the gate or mints a pass.
 */
import { TransportError } from '../errors.ts';
import { idText } from '../schema.ts';
import { installWriteGate, type ApiResponse, type WritePass } from '../http/client.ts';
import { deleteVerdict, type DeleteFacts, type DeleteVerdict, type RetrieveShows } from './ledger.ts';
import { showsAsAnswered, type Ownership } from './ownership.ts';

/** Passes minted and not yet spent, with the one request each lets out. */
const passes = new WeakMap<object, { readonly method: string; readonly path: string }>();

installWriteGate((pass, method, path) => {
  const bound = pass === undefined ? undefined : passes.get(pass);
  if (bound === undefined || bound.method !== method || bound.path !== path) return false;
  // One write per pass: a pass kept by a caller lets nothing else out.
  passes.delete(pass as object);
  return true;
});

function mint(method: string, path: string): WritePass {
  const pass = Object.freeze(Object.create(null) as object) as WritePass;
  passes.set(pass, { method, path });
  return pass;
}

/** A create journalled as sent: its key pairs it with its outcome in the journal. */
export interface CreateTicket {
  readonly key: string;
  /** Sends the write this ticket journalled (again only after a refused token: see WidgetApi.authed). */
  send(method: string, path: string, send: (pass: WritePass) => Promise<ApiResponse>): Promise<ApiResponse>;
}

/** Journals a write that may make a widget (a `sent` entry with its tag), and returns what sends it. */
export function openCreate(ownership: Ownership, account: string, tag: string | undefined): CreateTicket {
  const key = ownership.sent(account, tag);
  return { key, send: (method, path, send) => send(mint(method, path)) };
}

/** Turns per id: a proven write's retrieve and its write go out with no other proven write of the id between them. */
const turns = new WeakMap<Ownership, Map<string, Promise<unknown>>>();

async function inTurn<T>(ownership: Ownership, id: string, run: () => Promise<T>): Promise<T> {
  let byId = turns.get(ownership);
  if (!byId) turns.set(ownership, (byId = new Map()));
  const before = byId.get(id) ?? Promise.resolve();
  const mine = before.then(run, run);
  const settled = mine.then(() => undefined, () => undefined);
  byId.set(id, settled);
  try {
    return await mine;
  } finally {
    if (byId.get(id) === settled) byId.delete(id);
  }
}

/**
 * What a retrieve with the account's own token shows at the id: `marked` only for the widget the
 * create answered: this run's marker, the same id, and (where the create's answer had them) the
 * same created_at instant and the same name, read case- and NFKC-insensitively. A conformant
 * server always shows these as the create answered them (created_at is read-only, the name is
 * stored as sent); a widget of another client's, or another of the run's, at the id does not.
 */
export function retrieveShows(ownership: Ownership, account: string, id: string, res: ApiResponse, strictAbsent = false): RetrieveShows {
  // The second delete takes only 404 or 410 for "nothing there" (ledger.ts secondDeleteVerdict).
  if (strictAbsent ? res.status === 404 || res.status === 410 : res.status >= 400 && res.status < 500) return 'absent';
  if (res.status < 200 || res.status >= 300 || idText((res.json as { id?: unknown } | undefined)?.id) !== id) return 'unknown';
  if (!ownership.isOurs(res.json)) return 'unmarked';
  const created = ownership.answered(account, id);
  if (created === undefined) return 'marked';
  return showsAsAnswered(created, res.json) ? 'marked' : 'another';
}

/** A write to one widget, with what the door needs to prove it. */
export interface ProvenWrite {
  readonly account: string;
  readonly id: string;
  readonly method: string;
  readonly path: string;
  /** A retrieve of the id with the account's own token, sent inside the id's turn. */
  readonly retrieve: () => Promise<ApiResponse>;
  /** Only 404 or 410 counts as nothing at the id (the second delete's exception). */
  readonly strictAbsent?: boolean;
  /**
   * Facts the ledger does not hold (the second delete's, a proof in another account); the door's
   * retrieve and the ledger's own facts override anything given here.
   */
  readonly extra?: (shows: RetrieveShows, base: DeleteFacts) => Promise<Partial<DeleteFacts>>;
  /** Sends the write with the pass. */
  readonly send: (pass: WritePass) => Promise<ApiResponse>;
}

/** The facts the ledger itself holds about an id, with what a retrieve showed. */
export function ledgerFacts(ownership: Ownership, account: string, id: string, retrieve: RetrieveShows): DeleteFacts {
  const lost = ownership.lostWrite(id);
  const lookalike = ownership.lookalike(account, id);
  return {
    journalled: ownership.journalled(account, id),
    preExisting: ownership.preExisting(account, id),
    contradiction: ownership.contradiction(account, id),
    retrieve,
    createdUnmarked: ownership.get(account, id)?.answeredUnmarked === true,
    ...(ownership.get(account, id)?.collided === true ? { collided: true } : {}),
    absentHereProvenElsewhere: false,
    ...(lost === undefined ? {} : { lostWrite: lost }),
    ...(lookalike === undefined ? {} : { lookalike }),
    ...(ownership.sweepCandidates ? { sweep: { listedOnlyMarked: ownership.sweepCandidates.get(account)?.has(id) ?? false } } : {}),
  };
}

/** The answer of a proven write, or the delete rule's reason for not sending it. */
export type ProvenOutcome = { readonly response: ApiResponse } | { readonly refused: Extract<DeleteVerdict, { send: false }> };

/**
 * Sends a write to one widget only on a proof made just then: inside the id's turn, a fresh
 * retrieve, the delete rule on it and the ledger's facts, then the write at once. A write whose
 * answer is lost (a transport failure after it may have gone out) is recorded, and no write to
 * that id is sent again in this run or by the cleanups reading its journal.
 */
export function sendProven(ownership: Ownership, w: ProvenWrite): Promise<ProvenOutcome> {
  return inTurn(ownership, w.id, async () => {
    const lost = ownership.lostWrite(w.id);
    if (lost !== undefined) return { refused: deleteVerdict(ledgerFacts(ownership, w.account, w.id, 'unknown')) as Extract<DeleteVerdict, { send: false }> };
    const shows = retrieveShows(ownership, w.account, w.id, await w.retrieve(), w.strictAbsent === true);
    const base = ledgerFacts(ownership, w.account, w.id, shows);
    // Only the two facts the ledger cannot hold come from the caller; the ledger's and the door's retrieve stand.
    const extra = w.extra ? await w.extra(shows, base) : {};
    const verdict = deleteVerdict({ ...base, absentHereProvenElsewhere: extra.absentHereProvenElsewhere === true, ...(extra.refusedElsewhere ? { refusedElsewhere: extra.refusedElsewhere } : {}), ...(extra.again ? { again: extra.again } : {}) });
    if (!verdict.send) return { refused: verdict };
    try {
      return { response: await w.send(mint(w.method, w.path)) };
    } catch (error) {
      if (error instanceof TransportError && !/: not sent\b/.test(error.message)) ownership.writeLost(w.account, w.id, `${w.method} was sent and its answer lost (${error.message.slice(0, 160)})`);
      throw error;
    }
  });
}
