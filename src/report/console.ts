/**
 * The console's (terminal and CI log) own escaping. A terminal acts on control characters
 * (ESC and OSC sequences set window titles, write the clipboard, draw fake links; CR rewrites
 * a line; C1 controls are 8-bit escapes), bidirectional overrides and isolates reorder what a
 * reader sees, and a CI log runner reads a line starting with `::` as a workflow command
 * (`::add-mask::`, `::stop-commands::`). Text the server chose is shown with each such
 * character as a visible escape (`\x1b`, `\u202e`) and no line it controls can begin with `::`.
 */

/**
 * Every character a terminal or CI log would act on instead of showing: C0 controls but tab and
 * newline, DEL, C1 controls, bidi marks, overrides and isolates, the Unicode line and paragraph
 * separators, and lone surrogates.
 */
export const CONSOLE_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A line whose first non-blank characters are `::`: a workflow command to a CI log runner. */
const COMMAND_LINE = /^([ \t]*):(?=:)/gm;

/** The visible escape of one character: `\x1b` up to 0xff, `\u202e` beyond. */
export function visibleEscape(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Text fit for a terminal or a CI log: controls and bidi shown escaped, no line starting with `::`. */
export function consoleSafe(text: string): string {
  return text.replace(CONSOLE_UNSAFE, visibleEscape).replace(COMMAND_LINE, '$1\\x3a');
}
