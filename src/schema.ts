/**
 * JSON Schema checks of response bodies: the schemas in schemas/ compiled once with ajv
 * (draft 2020-12) and ajv-formats, with messages that name the path, the expectation and
 * the value received.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020Module, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { PROJECT_ROOT } from './paths.ts';

// Both packages are CommonJS modules whose class sits on `.default` when imported from ESM.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

export type SchemaName = 'widget' | 'page' | 'error' | 'create-request' | 'conformance-report';

const SCHEMA_DIR = join(PROJECT_ROOT, 'schemas');

/** Reads a schema document from schemas/. */
export function loadSchema(name: SchemaName): Record<string, unknown> {
  return JSON.parse(readFileSync(join(SCHEMA_DIR, `${name}.schema.json`), 'utf8')) as Record<string, unknown>;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/;

/**
 * RFC 3339 §5.6 date-time, to the letter: "T" separator, seconds present, and a "Z" or a
 * "+hh:mm" offset. ajv-formats also passes "+0100", "+01" and a space separator, which RFC
 * 3339 does not allow, so the spec's "format date-time" is checked here instead.
 */
export function isRfc3339DateTime(value: string): boolean {
  const m = RFC3339.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  if (daysInMonth === undefined || day < 1 || day > daysInMonth) return false;
  if (hour > 23 || minute > 59 || second > 60) return false;
  if (m[9] !== undefined && (Number(m[10]) > 23 || Number(m[11]) > 59)) return false;
  return true;
}

/** Milliseconds since the epoch of an RFC 3339 date-time (leap second read as :59), or NaN. */
export function parseRfc3339(value: string): number {
  if (!isRfc3339DateTime(value)) return Number.NaN;
  return Date.parse(value.toUpperCase().replace(/:60(?=[.Z+-])/, ':59'));
}

function compile(): Record<SchemaName, ValidateFunction> {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  ajv.addFormat('date-time', { type: 'string', validate: isRfc3339DateTime });
  const names: SchemaName[] = ['widget', 'page', 'error', 'create-request', 'conformance-report'];
  for (const name of names) ajv.addSchema(loadSchema(name), `${name}.schema.json`);
  const get = (name: SchemaName): ValidateFunction => {
    const fn = ajv.getSchema(`${name}.schema.json`);
    if (!fn) throw new Error(`schema ${name} did not compile`);
    return fn;
  };
  return Object.fromEntries(names.map((name) => [name, get(name)])) as Record<SchemaName, ValidateFunction>;
}

let validators: Record<SchemaName, ValidateFunction> | undefined;

/** One schema violation, ready to print. */
export interface SchemaIssue {
  readonly path: string;
  readonly expected: string;
  readonly received: string;
}

/** Validates a value against a schema; an empty array means it conforms. */
export function validateSchema(name: SchemaName, value: unknown): SchemaIssue[] {
  validators ??= compile();
  const validate = validators[name];
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => toIssue(e, value));
}

function toIssue(error: ErrorObject, root: unknown): SchemaIssue {
  const path = error.instancePath === '' ? '(body)' : error.instancePath;
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return { path: `${error.instancePath}/${missing}`, expected: 'a required field', received: 'nothing (field absent)' };
  }
  const value = valueAt(root, error.instancePath);
  return { path, expected: describeExpectation(error), received: preview(value) };
}

function describeExpectation(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type': return `type ${String(p.type).replace(',', ' or ')}`;
    case 'format': return `format ${String(p.format)} (RFC 3339)`;
    case 'minLength': return `a string of at least ${String(p.limit)} character(s)`;
    default: return error.message ?? error.keyword;
  }
}

function valueAt(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

/** A short JSON rendering of a value for messages: type-revealing and cut at 200 characters. */
export function preview(value: unknown): string {
  if (value === undefined) return 'nothing (undefined)';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}… (${text.length} characters)` : text;
}

/** Renders schema issues one per line: `path: expected X, received Y`. */
export function formatIssues(issues: readonly SchemaIssue[]): string {
  return issues.map((i) => `${i.path}: expected ${i.expected}, received ${i.received}`).join('\n');
}
