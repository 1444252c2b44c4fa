/**
 * Create bodies whose member names are not exactly `name` (§4.2), and the two JSON texts
 * RFC 8259 leaves to the receiver. RFC 8259 §8.3 compares member names code unit by code unit
 * after escapes are undone, with no case folding or Unicode normalisation: `{"Name": …}` and
 * `{"ｎａｍｅ": …}` hold no `name` member, so they are bodies without name (MAL-1), however a
 * lenient decoder (Go's encoding/json folds case) reads them.
 */
import type { MalformedCase } from './malformed-cases.ts';

const json = JSON.stringify;

export const MEMBER_NAME_CASES: readonly MalformedCase[] = [
  { id: 'name-capitalised', rule: 'MAL-1', outcome: 'a body whose only name-like member is "Name" is refused', body: (m) => json({ Name: m, description: m }),
    why: 'Go\'s encoding/json and other case-insensitive decoders read "Name" as name: RFC 8259 §8.3 compares names code unit by code unit.' },
  { id: 'name-upper-case', rule: 'MAL-1', outcome: 'a body whose only name-like member is "NAME" is refused', body: (m) => json({ NAME: m, description: m }),
    why: 'The same folding, all capitals: catches lower-casing of every member name.' },
  { id: 'name-fullwidth', rule: 'MAL-1', outcome: 'a body whose only name-like member is "ｎａｍｅ" (fullwidth letters) is refused', body: (m) => json({ 'ｎａｍｅ': m, description: m }),
    why: 'NFKC normalisation maps fullwidth letters to ASCII: catches decoders that normalise member names before matching them.' },
];

/**
 * Bodies RFC 8259 lets the receiver decide on. Each is accepted, or refused with an Error object
 * and a 4xx; never a 5xx (MAL-3). Decided here:
 * - a byte-order mark before the JSON text: §8.1 says a sender MUST NOT add one, and a parser
 *   "MAY ignore the presence of a byte order mark rather than treating it as an error"; both are
 *   conformant.
 * - `name` twice: §4 says names SHOULD be unique and that "the behavior of software that receives
 *   such an object is unpredictable"; taking the first, taking the last, or refusing are all
 *   conformant, but an accepted widget must be named with one of the values sent.
 */
export interface ReceiverChoiceCase {
  readonly id: string;
  readonly outcome: string;
  readonly body: (marker: string) => string;
  /** The names an accepted widget may carry. */
  readonly names: (marker: string) => readonly string[];
}

export const RECEIVER_CHOICE_CASES: readonly ReceiverChoiceCase[] = [
  { id: 'byte-order-mark', outcome: 'a body starting with a byte-order mark is accepted or refused with an Error object',
    body: (m) => `\uFEFF${json({ name: m })}`, names: (m) => [m] },
  { id: 'duplicate-name', outcome: 'a body with name twice is accepted with one of the two names, or refused with an Error object',
    body: (m) => `{"name":${json(`${m} a`)},"name":${json(`${m} b`)}}`, names: (m) => [`${m} a`, `${m} b`] },
];
