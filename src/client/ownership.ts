/**
 * Proof of ownership. The suite deletes a widget only when the server itself has shown, in
 * this run and after the create, that the widget at that id is the suite's own: a retrieve or
 * a list entry of that id carrying the run marker. An id from a create answer is only a claim:
 * a faulty server may answer with the id of a widget that already existed, and trusting it
 * once cost a user every widget of the account.
 *
 * The ledger records, per account, every id a create claimed and the latest thing the server
 * showed at that id; what could not be deleted is reported by id at the end of the run.
 */

/** What the server showed most recently at an id, in one account's view. */
export type Sighting =
  /** A retrieve or list entry of the id carrying the marker: proof. */
  | 'marked'
  /** A retrieve or list entry of the id without the marker: the id names someone else's widget. */
  | 'unmarked'
  /** A retrieve answered 4xx: nothing at that id in this account's view. */
  | 'absent';

/** One id the suite holds in an account, and what became of it. */
export interface Claim {
  readonly account: string;
  readonly id: string;
  sighting?: Sighting;
  /** A delete with the account's own token answered 2xx (or the widget was found gone after one). */
  deleted: boolean;
  /** Why it could not be deleted, when an attempt failed. */
  problem?: string;
  /** How many creates in this account answered with this id: more than one means ids repeat (CRUD-3). */
  creates: number;
  /**
   * A create answered with this id while the widget an earlier create got at it had not been
   * deleted: two live widgets given one id (CRUD-3). A repeat after a delete is DEL-2's fault.
   */
  collided?: boolean;
}

/** A widget the run could not delete (or could not prove its own), for the reports. */
export interface Leftover {
  readonly account: string;
  readonly id: string;
  readonly reason: string;
}

/** The longest id the suite puts in a path: a server's id is untrusted input. */
export const MAX_ID_LENGTH = 1024;

/**
 * Why an id cannot be sent as one path segment, or undefined when it can. An id goes into a
 * path percent-encoded; one that URL normalisation would still change (`.` and `..` are
 * resolved away, so `/widgets/.` is the collection) or that cannot be encoded (a lone
 * surrogate) must never be sent: the request would act on another resource.
 */
export function unsafeSegment(id: string): string | undefined {
  if (id === '') return 'the id is empty';
  if (id.length > MAX_ID_LENGTH) return `the id is longer than ${MAX_ID_LENGTH} characters`;
  let encoded: string;
  try {
    encoded = encodeURIComponent(id);
  } catch {
    return 'the id is not well-formed Unicode (a lone surrogate)';
  }
  const base = new URL('http://suite.invalid/widgets/');
  if (new URL(encoded, base).pathname !== `${base.pathname}${encoded}`) return 'URL normalisation would change the path (a "." or ".." segment)';
  return undefined;
}

/** Every id the run holds, per account, with proof of ownership. */
export class Ownership {
  private readonly claims = new Map<string, Map<string, Claim>>();
  /** Ids the suite made up for "unknown id" checks and saw answered as absent. */
  private readonly madeUp = new Set<string>();

  /** @param isOurs true when a widget as the server shows it carries the run's marker */
  constructor(readonly isOurs: (widget: unknown) => boolean) {}

  private of(account: string): Map<string, Claim> {
    let claims = this.claims.get(account);
    if (!claims) this.claims.set(account, (claims = new Map()));
    return claims;
  }

  /** True once a create answered an id the run already held for a widget not deleted. */
  repeated = false;

  /** Records an id a create answered 2xx with: a claim, not yet proof. */
  claim(account: string, id: string): Claim {
    const claims = this.of(account);
    const existing = claims.get(id);
    if (existing) {
      // The same id for two widgets alive at once: the server breaks CRUD-3, and any check that
      // tells widgets apart by id may be misled (rule.ts defers its failures to CRUD-3).
      if (!existing.deleted) this.repeated = true;
      // A second create answered with the same id: whatever was deleted before, this one is live,
      // and what the server showed at the id before proves nothing about it.
      if (!existing.deleted) existing.collided = true;
      existing.deleted = false;
      existing.creates += 1;
      delete existing.sighting;
      return existing;
    }
    const claim: Claim = { account, id, deleted: false, creates: 1 };
    claims.set(id, claim);
    return claim;
  }

  /** The claim on an id in an account, if the run holds one. */
  get(account: string, id: string): Claim | undefined {
    return this.claims.get(account)?.get(id);
  }

  /** Records what a retrieve (own token) or list entry showed at an id; only held ids are kept. */
  saw(account: string, id: string, widget: unknown): void {
    const claim = this.get(account, id);
    if (claim) claim.sighting = this.isOurs(widget) ? 'marked' : 'unmarked';
  }

  /** Records that a retrieve (own token) found nothing at an id. */
  sawAbsent(account: string, id: string): void {
    const claim = this.get(account, id);
    if (claim) claim.sighting = 'absent';
  }

  /** True when the latest sighting of the id in the account carries the marker. */
  proven(account: string, id: string): boolean {
    return this.get(account, id)?.sighting === 'marked';
  }

  /** How many creates in the account answered with this id (0 when none did). */
  creates(account: string, id: string): number {
    return this.get(account, id)?.creates ?? 0;
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

  /** Records a delete with the account's own token that answered 2xx. */
  deleted(account: string, id: string): void {
    const claim = this.get(account, id);
    if (claim) {
      claim.deleted = true;
      delete claim.problem;
      // Proof was of the widget that is gone: whatever comes to stand at the id needs its own.
      delete claim.sighting;
    }
  }

  /** Records why a held id could not be deleted. */
  failed(account: string, id: string, problem: string): void {
    const claim = this.get(account, id) ?? this.claim(account, id);
    claim.problem = problem;
  }

  /** Every claim not known to be deleted. */
  outstanding(): Claim[] {
    return [...this.claims.values()].flatMap((claims) => [...claims.values()].filter((c) => !c.deleted));
  }
}
