/**
 * HTML's own escaping, for conformance.html and matrix.html: text from the server (names,
 * messages, bodies, headers) is shown as text, never run.
 */
import { CONSOLE_UNSAFE, visibleEscape } from './console.ts';

/**
 * Escapes text for HTML element content and attribute values. Controls and bidirectional
 * characters are shown as visible escapes (`\x1b`, `\u202e`): a browser would reorder or hide them.
 */
export function escapeHtml(text: string): string {
  return text.replace(CONSOLE_UNSAFE, visibleEscape).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}
