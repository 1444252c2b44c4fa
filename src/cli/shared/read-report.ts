/**
 * Reads a conformance.json someone hands to compare or verify: an untrusted file. Its size is
 * bounded before it is read, it must parse as JSON and match the report's schema; anything else
 * is one line naming the file and what is wrong with it, never a stack trace.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RunReport } from '../../report/model.ts';
import { checkSchema, formatIssues } from '../../schema.ts';

/** The largest report read: a run's bodies are cut at 4 KiB each, so a real report is far smaller. */
export const MAX_REPORT_BYTES = 64 * 1024 * 1024;
/** Schema issues named in a message before "and N more". */
const ISSUES_SHOWN = 3;

/** A file that cannot be used as it is: the CLI prints the message and exits 2. */
export class InputError extends Error {
  readonly code = 'ERR_INPUT';
  override readonly name = 'InputError';
}

function why(error: unknown): string {
  const e = error as { code?: string; message?: string };
  return e.code === 'ENOENT' ? 'no such file or directory' : (e.code ?? e.message ?? String(error));
}

/** The file itself, or conformance.json inside a directory. */
export function reportPath(path: string): string {
  try {
    return statSync(path).isDirectory() ? join(path, 'conformance.json') : path;
  } catch {
    return path;
  }
}

/** The text of a regular file no larger than `maxBytes`; InputError otherwise. */
export function readBounded(path: string, shown: string, maxBytes: number): string {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new InputError(`${shown}: not a regular file`);
    size = stat.size;
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`${shown}: cannot read it (${why(error)})`);
  }
  if (size > maxBytes) throw new InputError(`${shown}: ${size} bytes, more than the ${maxBytes} a report file may hold`);
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new InputError(`${shown}: cannot read it (${why(error)})`);
  }
}

/**
 * Deepest nesting a report of this suite has (a failure's exchange's headers sit at about 12):
 * deeper text is refused before it is parsed, since parsing and validating millions of nested
 * arrays costs seconds and gigabytes, and no field of the schema holds them.
 */
export const MAX_JSON_DEPTH = 32;

/** The deepest nesting of arrays and objects in JSON text, counted in one pass outside strings; stops past `limit`. */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** JSON text parsed; InputError naming the file when it is not JSON, or nested deeper than any report. */
export function parseJson(text: string, shown: string): unknown {
  if (jsonDepth(text) > MAX_JSON_DEPTH) throw new InputError(`${shown}: nested deeper than ${MAX_JSON_DEPTH} levels, which no report of this suite is`);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    // A RangeError too: nesting deep enough to exhaust the stack is not a report either.
    throw new InputError(`${shown}: not JSON (${((error as Error).message ?? String(error)).split('\n')[0]})`);
  }
}

/** The schema issues of a parsed report, one line each (at most ISSUES_SHOWN, then a count). */
export function reportIssues(value: unknown): string[] {
  const { issues, total } = checkSchema('conformance-report', value, ISSUES_SHOWN);
  if (total === 0) return [];
  const lines = formatIssues(issues).split('\n');
  return total > issues.length ? [...lines, `and ${total - issues.length} more`] : lines;
}

/** A conformance report read from `path` (a file, or a report directory), validated against its schema. */
export function readReport(path: string, shown: string): RunReport {
  const file = reportPath(path);
  const label = file === path ? shown : join(shown, 'conformance.json');
  const value = parseJson(readBounded(file, label, MAX_REPORT_BYTES), label);
  const issues = reportIssues(value);
  if (issues.length > 0) throw new InputError(`${label}: not a conformance report of this suite (schemas/conformance-report.schema.json): ${issues.join('; ')}`);
  return value as RunReport;
}

/** Text fit for a terminal: control characters from an input (an escape sequence in a file name or a report) shown as "?". */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/g, '?');
}
