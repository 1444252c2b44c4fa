/**
 * What condition a request tests, told from the request itself and the run's ledger when it is
 * sent: the interoperability profile files each answer under it (report/profile-facts.ts).
 * Classification only: it never changes what is sent or how an answer is judged.
 */
import type { Ownership } from './ownership.ts';

/** The credential condition of a request with an overridden Authorization, or undefined for the account's own token. */
export function credentialSituation(auth: { readonly authorization: string | null; readonly query?: Readonly<Record<string, string>> } | undefined, token?: string): string | undefined {
  if (!auth) return undefined;
  if (auth.query && Object.keys(auth.query).length > 0) return 'token-in-query';
  if (auth.authorization === null) return 'no-credential';
  // The account's own token in another legal spelling (the scheme's case, more spaces: AUTH-6).
  if (token !== undefined && /^bearer +/i.test(auth.authorization) && auth.authorization.replace(/^bearer +/i, '') === token) return 'credential-spelling';
  return 'bad-credential';
}

/** A list: the default page, a limit, limit=0, a limit spelled unusually, an invalid limit, or a cursor. */
export function listSituation(limit: string | undefined, cursor: string | undefined, issued: { has(cursor: string): boolean }): string {
  if (cursor !== undefined) return issued.has(cursor) ? 'ok' : 'unknown-cursor';
  if (limit === undefined) return 'ok';
  if (limit === '0') return 'limit-0';
  if (/^[1-9]\d{0,15}$/.test(limit)) return 'ok';
  // Spellings an integer parser may read as a number (a leading zero or plus, an exponent, hex, a
  // space, no digits, other scripts' digits, more digits than fit): either answer is the
  // server's choice, so they are not filed with the limits no reading can accept ('1x', '-1').
  return /^[+ ]?\d+$|^\d+e\d+$|^0x[0-9a-f]+$|^NaN$|^$|^\p{Nd}+$/iu.test(limit) ? 'limit-spelling' : 'invalid-limit';
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A create: valid, empty-name, unknown-field, no or another Content-Type, or malformed. */
export function createSituation(raw: string, contentType: string | null): { situation: string; sent?: unknown } {
  // RFC 8259 §8.1 lets the receiver ignore a byte-order mark or refuse it: its own condition.
  if (raw.startsWith('\uFEFF')) return { situation: 'byte-order-mark' };
  let sent: unknown;
  try {
    sent = JSON.parse(raw);
  } catch {
    return { situation: 'malformed' };
  }
  const wellFormed = isObject(sent) && typeof sent.name === 'string' && (sent.description === undefined || typeof sent.description === 'string');
  if (!wellFormed || !isObject(sent)) return { situation: 'malformed', sent };
  if (contentType === null) return { situation: 'no-content-type', sent };
  if (contentType.split(';')[0]?.trim().toLowerCase() !== 'application/json') return { situation: 'other-content-type', sent };
  if (sent.name === '') return { situation: 'empty-name', sent };
  if (Object.keys(sent).some((k) => k !== 'name' && k !== 'description')) return { situation: 'unknown-field', sent };
  return { situation: 'valid', sent };
}

/** The start of the ids the suite makes up in no format any server issues (harness/ids.ts foreignId). */
export const FOREIGN_ID_PREFIX = 'wcs-unknown-';

/**
 * How the suite extends one of its own widget's ids into an id no widget has (harness/ids.ts
 * extendedIds, for CRUD-5 and DEL-4): the id, one of these separators (or none), then
 * EXTENSION_TAG and EXTENSION_LETTERS random lower-case letters. Never digits right after the id:
 * `310` may be a real widget beside `31`, `31wcs…` and `31-wcs…` are no id a server issues.
 */
export const EXTENSION_SEPARATORS = ['', '-', '_', '~'] as const;
export const EXTENSION_TAG = 'wcs';
export const EXTENSION_LETTERS = 5;

/** The added part of an extended id at its end (a separator, the tag, the letters). */
const EXTENSION = new RegExp(`[-_~]?${EXTENSION_TAG}[a-z]{${EXTENSION_LETTERS}}$`);

/** True when the id is one of the account's own ids extended as the suite extends them (EXTENSION_SEPARATORS). */
function extendsHeld(ownership: Ownership, account: string, id: string): boolean {
  const added = EXTENSION.exec(id)?.[0];
  if (added === undefined) return false;
  // With or without the separator: an id that ends in one of them itself is extended with none.
  return [id.slice(0, -added.length), id.slice(0, -(added.length - 1))].some((base) => base !== '' && base !== id && ownership.get(account, base) !== undefined);
}

/**
 * A retrieve or delete with the account's own token: of its widget, one it deleted, another
 * account's, one of its own ids with the case of its letters changed or with characters added
 * after it, or an unknown id (shaped like the server's, or foreign).
 */
export function idSituation(ownership: Ownership, account: string, id: string): string {
  const claim = ownership.get(account, id);
  if (claim?.deleted) return 'after-delete';
  if (claim) return 'existing';
  if (ownership.claimants(id).length > 0) return 'other-account';
  if (id.startsWith(FOREIGN_ID_PREFIX)) return 'foreign-id';
  if (extendsHeld(ownership, account, id)) return 'extended-id';
  return ownership.caseVariantHeld(account, id) ? 'case-swapped' : 'unknown-id';
}
