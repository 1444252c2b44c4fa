/**
 * Ids for widgets that do not exist. A server may validate the id format and answer 400 for
 * a malformed id but 404 for a well-formed unknown one (both are choices it may make), so a
 * check that compares answers uses an unknown id shaped like the server's own ids.
 */
import { randomBytes, randomInt } from 'node:crypto';

/** How many trailing characters of a real id are replaced to make an unknown one. */
const MUTATED_TAIL = 8;

/** An id in no format any server issues, recognisably the suite's. */
export function foreignId(): string {
  return `wcs-unknown-${randomBytes(8).toString('hex')}`;
}

function sameClass(ch: string, hexOnly: boolean): string {
  const pick = (alphabet: string): string => alphabet[randomInt(alphabet.length)] as string;
  if (/[0-9]/.test(ch)) return pick('0123456789');
  if (/[a-f]/.test(ch) && hexOnly) return pick('abcdef');
  if (/[A-F]/.test(ch) && hexOnly) return pick('ABCDEF');
  if (/[a-z]/.test(ch)) return pick('abcdefghijklmnopqrstuvwxyz');
  if (/[A-Z]/.test(ch)) return pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ');
  return ch;
}

/**
 * An id shaped like `model` (same length, separators and character classes) that almost
 * surely names no widget: its last alphanumeric characters are redrawn at random. An
 * all-digit id becomes a much larger number, so it cannot be a neighbour in a sequence.
 */
export function unknownIdLike(model: string): string {
  if (/^\d{1,15}$/.test(model)) return String(Number(model) + 1_000_000_000 + randomInt(1_000_000));
  const hexOnly = /^[0-9a-fA-F-]+$/.test(model.replace(/^[a-z]+_/, ''));
  const chars = [...model];
  // At most half of the alphanumerics: a short id keeps its leading characters (often a type prefix).
  const budget = Math.min(MUTATED_TAIL, Math.floor(chars.filter((c) => /[0-9a-zA-Z]/.test(c)).length / 2));
  let changed = 0;
  for (let i = chars.length - 1; i >= 0 && changed < budget; i -= 1) {
    const ch = chars[i] as string;
    if (!/[0-9a-zA-Z]/.test(ch)) continue;
    chars[i] = sameClass(ch, hexOnly);
    changed += 1;
  }
  const out = chars.join('');
  // Vanishingly unlikely, but an unchanged id would be the model itself.
  return out === model ? `${model}0` : out;
}
