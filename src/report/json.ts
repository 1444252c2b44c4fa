/**
 * conformance.json's own escaping: JSON.stringify, then every character a reader's terminal or
 * editor would act on rather than show (C1 controls, DEL, bidirectional overrides and isolates,
 * the line and paragraph separators) written as a `\uXXXX` escape. The value parsed back is the same.
 */
import type { RunReport } from './model.ts';

/** Characters JSON.stringify leaves raw that no reader should receive raw. */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Any value as JSON text with only printable characters (outside JSON's own escapes). */
export function safeJson(value: unknown, indent = 2): string {
  return JSON.stringify(value, null, indent).replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Renders conformance.json. */
export function renderJson(report: RunReport): string {
  return `${safeJson(report)}\n`;
}
