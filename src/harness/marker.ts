/**
 * Run markers. Every widget the suite creates carries `wcs-<run id>` in its name or
 * description, so the run's final sweep, and `npm run cleanup` after a killed run, can find
 * it without ever touching a widget the suite did not create.
 */
import { randomBytes } from 'node:crypto';

/** Matches any run's marker (for the leftover sweep). */
export const ANY_MARKER = /wcs-[a-z2-7]{12}/;

/** A fresh marker for one run. */
export function newMarker(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const id = [...randomBytes(12)].map((b) => alphabet[b % 32]).join('');
  return `wcs-${id}`;
}

/** True when a widget (any JSON value) carries the marker anywhere in its name or description. */
export function carriesMarker(widget: unknown, marker: string | RegExp): boolean {
  if (widget === null || typeof widget !== 'object') return false;
  const { name, description } = widget as { name?: unknown; description?: unknown };
  const texts = [name, description].filter((v): v is string => typeof v === 'string');
  return texts.some((text) => (typeof marker === 'string' ? text.includes(marker) : marker.test(text)));
}

/**
 * True when a widget carries this exact tag (a name from RuleContext.name()): a field equal to
 * it, or starting with it and a space. Not a substring test: tag "… PROP-1 2" must not match
 * a widget tagged "… PROP-1 23".
 */
export function carriesTag(widget: unknown, tag: string): boolean {
  if (widget === null || typeof widget !== 'object') return false;
  const { name, description } = widget as { name?: unknown; description?: unknown };
  return [name, description].some((v) => typeof v === 'string' && (v === tag || v.startsWith(`${tag} `)));
}
