/**
 * The next_cursor values an account's lists were given, so that a cursor the server never gave
 * is told apart (the profile's "unknown cursor" situation). Bounded: the memory is the suite's.
 */

/** Cursors remembered as issued, at most. */
const MAX_ISSUED_CURSORS = 4096;

/** The cursors one account's lists were given. */
export class IssuedCursors {
  private readonly issued = new Set<string>();

  /** Remembers a next_cursor a list with the account's own token answered (until the bound is reached). */
  note(next: unknown): void {
    if (typeof next === 'string' && this.issued.size < MAX_ISSUED_CURSORS) this.issued.add(next);
  }

  /** True for a cursor a list of this account was given. */
  has(cursor: string): boolean {
    return this.issued.has(cursor);
  }
}
