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

export type SchemaName = 'widget' | 'page' | 'error' | 'create-request' | 'conformance-report' | 'profile' | 'har';

const SCHEMA_DIR = join(PROJECT_ROOT, 'schemas');

/** The file of a schema in schemas/ (openapi/widget-service.openapi.json references the same files). */
export function schemaFile(name: SchemaName): string {
  return join(SCHEMA_DIR, `${name}.schema.json`);
}

/** Reads a schema document from schemas/. */
export function loadSchema(name: SchemaName): Record<string, unknown> {
  return JSON.parse(readFileSync(schemaFile(name), 'utf8')) as Record<string, unknown>;
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

export const SCHEMA_NAMES: readonly SchemaName[] = ['widget', 'page', 'error', 'create-request', 'conformance-report', 'profile', 'har'];

function newAjv(): InstanceType<typeof Ajv2020> {
  // No check of each schema against the 2020-12 meta-schema at every start (compiling the
  // meta-schema is a tenth of a second, in the runner and again in the worker): the schemas are
  // the project's own files, checked against it by test/unit/schema-files.test.ts.
  const ajv = new Ajv2020({ allErrors: true, strict: true, validateSchema: false });
  addFormats(ajv);
  ajv.addFormat('date-time', { type: 'string', validate: isRfc3339DateTime });
  // Registered, not compiled: each schema may $ref another.
  for (const name of SCHEMA_NAMES) ajv.addSchema(loadSchema(name), `${name}.schema.json`);
  return ajv;
}

let ajv: InstanceType<typeof Ajv2020> | undefined;
const validators = new Map<SchemaName, ValidateFunction>();

/**
 * The validator of one schema, compiled on first use: a run checks bodies against the four
 * small schemas, and compiling the report's and HAR's as well took most of a second of every
 * start (in the runner and again in the worker).
 */
function validatorOf(name: SchemaName): ValidateFunction {
  const known = validators.get(name);
  if (known) return known;
  ajv ??= newAjv();
  const fn = ajv.getSchema(`${name}.schema.json`);
  if (!fn) throw new Error(`schema ${name} did not compile`);
  validators.set(name, fn);
  return fn;
}

/** One schema violation, ready to print. */
export interface SchemaIssue {
  readonly path: string;
  readonly expected: string;
  readonly received: string;
}

/** Validates a value against a schema; an empty array means it conforms. */
export function validateSchema(name: SchemaName, value: unknown): SchemaIssue[] {
  return checkSchema(name, value).issues;
}

/** Validates a value against a schema, describing at most `maxIssues` issues; `total` counts them all. */
export function checkSchema(name: SchemaName, value: unknown, maxIssues = Number.POSITIVE_INFINITY): { issues: SchemaIssue[]; total: number } {
  const validate = validatorOf(name);
  if (validate(value)) return { issues: [], total: 0 };
  const errors = validate.errors ?? [];
  return { issues: errors.slice(0, maxIssues).map((e) => toIssue(e, value)), total: errors.length };
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

/**
 * A page with its items left out (`data` an empty array when it is an array): the page's own
 * fields. Whether each Widget in `data` matches the Widget schema is FMT-3's question, so a
 * Widget fault (an id sent as a number) does not also fail every pagination rule.
 */
export function pageEnvelope(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const page = value as Record<string, unknown>;
  return Array.isArray(page.data) ? { ...page, data: [] } : page;
}

/** Characters of a preview before it is cut. */
export const PREVIEW_CHARS = 200;
/**
 * Nesting a preview renders: JSON.stringify recurses once per level and a server's value may
 * be nested far deeper than the stack allows, so values nested deeper are shown cut instead.
 */
export const PREVIEW_MAX_DEPTH = 32;

/** A short JSON rendering of a value for messages: type-revealing, cut at 200 characters, safe at any depth. */
export function preview(value: unknown): string {
  if (value === undefined) return 'nothing (undefined)';
  if (nestedDeeperThan(value, PREVIEW_MAX_DEPTH)) return `${renderCut(value)} (nested more than ${PREVIEW_MAX_DEPTH} levels deep)`;
  const text = JSON.stringify(value) ?? String(value);
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}… (${text.length} characters)` : text;
}

/**
 * An id as the suite addresses it: a string as sent, an integer written as a JSON number as its
 * decimal text (the widget "7" that a list writes as 7); undefined for anything else. Its JSON
 * type is the Widget schema's (FMT-3) to judge, never a difference of the widget's.
 */
export function idText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return Number.isSafeInteger(value) ? String(value) : undefined;
}

/** The value as text: a string as it is, anything else as its preview (never String(), which recurses into arrays). */
export function asText(value: unknown): string {
  return typeof value === 'string' ? value : preview(value);
}

/** True when arrays or objects nest more than `limit` levels; never descends further than that. */
function nestedDeeperThan(value: unknown, limit: number, depth = 0): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (depth >= limit) return true;
  const children: unknown[] = Array.isArray(value) ? value : Object.values(value);
  return children.some((child) => nestedDeeperThan(child, limit, depth + 1));
}

/**
 * A JSON-like rendering down to PREVIEW_MAX_DEPTH levels, deeper containers shown as `[…]` or
 * `{…}`, and no more than about PREVIEW_CHARS characters: enough to show the shape of the value.
 */
function renderCut(value: unknown): string {
  const out: string[] = [];
  let length = 0;
  const emit = (text: string): boolean => {
    out.push(text);
    length += text.length;
    return length < PREVIEW_CHARS;
  };
  const render = (node: unknown, depth: number): boolean => {
    if (node === null || typeof node !== 'object') return emit(primitiveJson(node));
    const array = Array.isArray(node);
    if (depth >= PREVIEW_MAX_DEPTH) return emit(array ? '[…]' : '{…}');
    if (!emit(array ? '[' : '{')) return false;
    const keys = array ? node.keys() : Object.keys(node).values();
    let first = true;
    for (const key of keys) {
      if (!first && !emit(',')) return false;
      first = false;
      if (!array && !emit(`${JSON.stringify(key)}:`)) return false;
      if (!render((node as Record<string | number, unknown>)[key], depth + 1)) return false;
    }
    return emit(array ? ']' : '}');
  };
  const complete = render(value, 0);
  const text = out.join('');
  return complete ? text : `${text.slice(0, PREVIEW_CHARS)}…`;
}

function primitiveJson(value: unknown): string {
  if (typeof value === 'string' && value.length > PREVIEW_CHARS) return `${JSON.stringify(value.slice(0, PREVIEW_CHARS))}…`;
  return JSON.stringify(value) ?? 'null';
}

/** Renders schema issues one per line: `path: expected X, received Y`. */
export function formatIssues(issues: readonly SchemaIssue[]): string {
  return issues.map((i) => `${i.path}: expected ${i.expected}, received ${i.received}`).join('\n');
}
