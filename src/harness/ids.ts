/**
 * Ids for widgets that do not exist. A server may validate the id format and answer 400 for
 * a malformed id but 404 for a well-formed unknown one (both are choices it may make), so a
 * check that compares answers uses an unknown id shaped like the server's own ids.
 */
import type { WidgetApi } from '../client/api.ts';
import { EXTENSION_LETTERS, EXTENSION_SEPARATORS, EXTENSION_TAG, FOREIGN_ID_PREFIX } from '../client/situation.ts';
import { unsafeSegment } from '../client/safe-ids.ts';
import { swapAsciiCase } from '../shared/sent-credential.ts';
import type { SeededRandom } from './random.ts';

/** How many trailing characters of a real id are replaced to make an unknown one. */
const MUTATED_TAIL = 8;

/** An id in no format any server issues, recognisably the suite's; drawn from the test's seeded stream. */
export function foreignId(random: SeededRandom): string {
  return `${FOREIGN_ID_PREFIX}${random.hex(8)}`;
}

/** Added to an all-digit id, plus up to NUMERIC_SPREAD at random: far past any neighbour in a sequence. */
export const NUMERIC_OFFSET = 1_000_000_000;
export const NUMERIC_SPREAD = 1_000_000;

const CLASSES = [/[0-9]/, /[a-z]/, /[A-Z]/];

/**
 * A random character of the same class (digit, lower, upper) drawn only from the characters
 * the model id itself uses: formats with a restricted alphabet (hex, Crockford base32 without
 * I, L, O, U) stay valid.
 */
function sameClass(ch: string, model: string, random: SeededRandom): string {
  const cls = CLASSES.find((c) => c.test(ch));
  if (!cls) return ch;
  const pool = [...new Set([...model].filter((c) => cls.test(c)))];
  return pool[random.int(pool.length)] as string;
}

/**
 * An id shaped like `model` (same length, separators, character classes and alphabet) that
 * almost surely names no widget: its last alphanumeric characters are redrawn at random from
 * the characters the model uses. An all-digit id becomes a much larger number, so it cannot
 * be a neighbour in a sequence. Drawn from the test's seeded stream: a rerun draws the same.
 */
export function unknownIdLike(model: string, random: SeededRandom): string {
  if (/^\d{1,15}$/.test(model)) return String(Number(model) + NUMERIC_OFFSET + random.int(NUMERIC_SPREAD));
  const chars = [...model];
  // At most half of the alphanumerics: a short id keeps its leading characters (often a type prefix).
  const budget = Math.min(MUTATED_TAIL, Math.floor(chars.filter((c) => /[0-9a-zA-Z]/.test(c)).length / 2));
  let changed = 0;
  for (let i = chars.length - 1; i >= 0 && changed < budget; i -= 1) {
    const ch = chars[i] as string;
    if (!/[0-9a-zA-Z]/.test(ch)) continue;
    chars[i] = sameClass(ch, model, random);
    changed += 1;
  }
  const out = chars.join('');
  // Vanishingly unlikely, but an unchanged id would be the model itself.
  return out === model ? `${model}0` : out;
}

/** Candidates tried before falling back to an id in a foreign format. */
export const CANDIDATES = 3;

/**
 * An id shaped like `model` that names no widget of this account, checked with a retrieve
 * first: a delete of it can never touch a widget the suite did not create, and a check that
 * expects "unknown" is never handed an id that happens to exist.
 */
export async function freshUnknownId(api: WidgetApi, model: string, random: SeededRandom): Promise<string> {
  for (let i = 0; i < CANDIDATES; i += 1) {
    const id = unknownIdLike(model, random);
    const res = await api.retrieve(id);
    // Only an id the server answered as absent is the suite's to delete (see ownership.ts).
    if (res.status >= 400 && res.status < 500) {
      api.ownership.addMadeUp(id);
      return id;
    }
  }
  const fallback = foreignId(random);
  api.ownership.addMadeUp(fallback);
  return fallback;
}

/**
 * The id with the case of its ASCII letters swapped (`wgt_3fa9` → `WGT_3FA9`), or undefined when
 * it has none: a retrieve of it tells whether id lookups are case-sensitive (the profile's
 * id.case-sensitive). Only ever retrieved, never deleted.
 */
export function caseSwapped(id: string): string | undefined {
  const swapped = swapAsciiCase(id);
  return swapped === id ? undefined : swapped;
}

/**
 * Ids that begin with `base` and say more, one per separator (none, "-", "_", "~"; situation.ts
 * EXTENSION_SEPARATORS), each then a tag and random lower-case letters drawn from the test's
 * stream: `31wcsqkzjd`, `31-wcsxpamr`. A lookup that reads ids leniently (an integer cast, a
 * prefix match) takes them for `base`; no server issues them beside it, since a separator or a
 * letter follows the id, never a digit (`310` may be a real widget beside `31`), and the random
 * letters make any widget at one as unlikely as at a foreign id. Ids the suite will not put in a
 * path (over-long, say) are left out.
 */
export function extendedIds(base: string, random: SeededRandom, separators: readonly string[] = EXTENSION_SEPARATORS): string[] {
  const letters = (): string => Array.from({ length: EXTENSION_LETTERS }, () => String.fromCharCode(97 + random.int(26))).join('');
  return separators.map((separator) => `${base}${separator}${EXTENSION_TAG}${letters()}`).filter((id) => unsafeSegment(id) === undefined);
}
