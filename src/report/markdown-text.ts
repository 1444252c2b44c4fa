/**
 * Markdown's own escaping, for a reader on GitHub (a job summary, a pull-request comment). Text
 * the server chose goes into inline code spans: there GitHub makes no mention (`@octocat`),
 * issue link, autolink, image, emphasis or HTML of it. Controls and bidirectional characters
 * are shown as visible escapes everywhere, since a code span still displays them reordered.
 */
import { CONSOLE_UNSAFE, visibleEscape } from './console.ts';

/** Controls and bidi characters as visible escapes (see console.ts). */
export function visibleChars(text: string): string {
  return text.replace(CONSOLE_UNSAFE, visibleEscape);
}

/** One line, whitespace flattened, cut at `max` characters with an ellipsis. */
function flat(text: string, max: number): string {
  const one = visibleChars(text).replace(/\s+/g, ' ').trim();
  return one.length > max ? `${[...one.slice(0, max)].join('').replace(/[\uD800-\uDBFF]$/, '')}…` : one;
}

/**
 * An inline code span holding `text` inert: a fence longer than any backtick run inside it,
 * spaces padding a content that starts or ends with a backtick. In a table a `|` is escaped
 * (GFM splits cells before it reads code spans, and takes `\|` as a pipe there too).
 */
export function codeSpan(text: string, max = 300, inTable = false): string {
  const content = flat(text, max);
  if (content === '') return '';
  const longest = Math.max(0, ...[...content.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const padded = /^`|`$/.test(content) ? ` ${content} ` : content;
  const body = inTable ? padded.replace(/\|/g, '\\|') : padded;
  return `${fence}${body}${fence}`;
}

/** The suite's own words: Markdown punctuation, `@` and `#` escaped, so nothing in them becomes markup. */
export function mdText(text: string, max = 300): string {
  return flat(text, max).replace(/[\\`*_[\]<>|!#@~&:]/g, (c) => `\\${c}`);
}

/** A fenced code block that no backtick run in the text can close (CommonMark: a longer fence). */
export function codeBlock(text: string, info = ''): string {
  const shown = visibleChars(text);
  const longest = Math.max(0, ...[...shown.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${shown}\n${fence}`;
}

/** Markdown-safe inline text: no table breaks, no HTML, no runaway length. */
export function mdInline(text: string, max = 200): string {
  // Text that could mention someone (`@name` at a word's start) goes into an inert code span
  // (codeSpan: a backslash does not stop a mention); the rest is escaped, with controls
  // and bidi characters shown as escapes.
  if (/(^|\s)@/.test(text)) return codeSpan(text, max, true);
  const flat = visibleChars(text).replace(/\s+/g, ' ').trim();
  const cut = flat.length > max ? `${flat.slice(0, max)}…` : flat;
  return cut.replace(/[\\`*_[\]<>|#!&()~]/g, (c) => `\\${c}`);
}
