/**
 * Run markers. Every widget the suite creates carries `wcs-<run id><check>` as a whole word in
 * its name or description, so the run's final sweep, and `npm run cleanup` after a killed run,
 * can find it without ever touching a widget the suite did not create.
 *
 * A marker is a whole token (white space or the field's edge on both sides) of 14 characters
 * after `wcs-`: 10 random base32 characters and a 4-character checksum of them. A user's own
 * name such as `wcs-configurations` or `team wcs-integrations` has the shape by chance at most
 * once in about a million, and never the checksum on purpose: it is not touched.
 *
 * A marker is read after case folding and NFKC normalisation (see folded), and as a whole word
 * trimming cannot cut: a server that changes case, trims or normalises names still shows it.
 * Only the run's ownership ledger (client/ledger.ts) lets a marker lead to a delete.
 */
import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const RANDOM_CHARS = 10;
const CHECK_CHARS = 4;
/** Ties the checksum to this suite: an arbitrary base32 word does not carry it. */
const CHECK_SALT = 'widget-conformance run marker v2:';

/** A whole-word candidate marker (checksum not yet verified). */
const MARKER_TOKEN = new RegExp(`(?<=^|\\s)wcs-([${ALPHABET}]{${RANDOM_CHARS}})([${ALPHABET}]{${CHECK_CHARS}})(?=\\s|$)`, 'g');

function base32(bytes: Uint8Array, length: number): string {
  return [...bytes.subarray(0, length)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
}

function checksum(random: string): string {
  return base32(createHash('sha256').update(CHECK_SALT + random).digest(), CHECK_CHARS);
}

/** A fresh marker for one run. */
export function newMarker(): string {
  const random = base32(randomBytes(RANDOM_CHARS), RANDOM_CHARS);
  return `wcs-${random}${checksum(random)}`;
}

/**
 * The text as markers are read in it: Unicode-normalised (NFKC: full-width and compatibility
 * forms fold to ASCII) and lower-cased. A server that upper-cases, title-cases or normalises a
 * name has not made the suite's widget someone else's; the alphabet is case-insensitive by
 * design, so no two markers differ only in case.
 */
function folded(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** The valid markers of this suite standing as whole words in a text (read case- and normalisation-insensitively). */
export function markersIn(text: string): string[] {
  return [...folded(text).matchAll(MARKER_TOKEN)].filter((m) => checksum(m[1] as string) === m[2]).map((m) => m[0]);
}

function markedTexts(widget: unknown): string[] {
  if (widget === null || typeof widget !== 'object') return [];
  const { name, description } = widget as { name?: unknown; description?: unknown };
  return [name, description].filter((v): v is string => typeof v === 'string');
}

/** True when a widget carries this run's marker as a whole word in its name or description. */
export function carriesMarker(widget: unknown, marker: string): boolean {
  return markedTexts(widget).some((text) => markersIn(text).includes(marker));
}

/** True when a widget carries the marker of any run of this suite (for `npm run cleanup`). */
export function carriesAnyMarker(widget: unknown): boolean {
  return markedTexts(widget).some((text) => markersIn(text).length > 0);
}

/**
 * True when a widget carries this exact tag (a name from RuleContext.name()): a field equal to
 * it, or starting with it and a space. Not a substring test: tag "… PROP-1 2" must not match
 * a widget tagged "… PROP-1 23".
 */
export function carriesTag(widget: unknown, tag: string): boolean {
  return markedTexts(widget).some((v) => v === tag || v.startsWith(`${tag} `));
}

/**
 * The tags of this run (`<marker> <rule id> <n>`, as RuleContext.name() makes them) in a
 * widget's name and description. Each tag names one widget the run created, so a widget
 * carrying a tag another widget was given is that other widget.
 */
export function tagsIn(widget: unknown, marker: string): string[] {
  // The marker is base32 after `wcs-`: no character in it is special in an expression.
  const tag = new RegExp(`(?<=^|\\s)${marker} [A-Z]+-\\d+ \\d+(?=\\s|$)`, 'g');
  return markedTexts(widget).flatMap((text) => text.match(tag) ?? []);
}
