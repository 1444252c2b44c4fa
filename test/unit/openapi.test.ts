/**
 * openapi/widget-service.openapi.json: a valid OpenAPI 3.1 document (checked offline against
 * the 3.1 schema @seriousme/openapi-schema-validator ships), whose external $refs land on the
 * very schema files src/schema.ts validates with, which describes the four operations the
 * suite exercises, and into which every rule of the catalogue points.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { RULES } from '../../src/rules.ts';
import { loadSchema, schemaFile, type SchemaName } from '../../src/schema.ts';

type Json = Record<string, unknown>;

const DOC_FILE = join(PROJECT_ROOT, 'openapi', 'widget-service.openapi.json');
const DOC_URL = pathToFileURL(DOC_FILE);
const readJson = (file: string): Json => JSON.parse(readFileSync(file, 'utf8')) as Json;
const DOC = readJson(DOC_FILE);

/** Every `$ref` in a JSON tree, with the object holding it. */
function refsOf(node: unknown, found: { holder: Json; ref: string }[] = []): { holder: Json; ref: string }[] {
  if (node === null || typeof node !== 'object') return found;
  const holder = node as Json;
  if (typeof holder.$ref === 'string') found.push({ holder, ref: holder.$ref });
  for (const child of Object.values(holder)) refsOf(child, found);
  return found;
}

/**
 * The schema files the document references, by their $id, loaded by following each $ref from
 * the file that holds it (what file-based tools do). Each file's own relative $refs are checked
 * to land on the same file whether resolved against its location or against its $id (what JSON
 * Schema tools do), so the two readings of the document cannot part ways.
 */
function externalSchemas(): Map<string, { file: string; schema: Json }> {
  const byId = new Map<string, { file: string; schema: Json }>();
  const follow = (ref: string, base: URL, baseId: string | undefined): string => {
    const fileUrl = new URL(ref, base);
    const file = fileURLToPath(fileUrl);
    const schema = readJson(file);
    const id = String(schema.$id);
    if (baseId !== undefined) expect(id, `${ref} read against ${baseId}`).toBe(new URL(ref, baseId).href);
    if (!byId.has(id)) {
      byId.set(id, { file, schema });
      for (const inner of refsOf(schema)) if (!inner.ref.startsWith('#')) follow(inner.ref, fileUrl, id);
    }
    return id;
  };
  for (const { ref } of refsOf(DOC)) if (!ref.startsWith('#')) follow(ref, DOC_URL, undefined);
  return byId;
}

/**
 * The document with every external $ref rewritten to the absolute $id of its target: the
 * validator looks $refs up by $id as written and does not resolve relative ones.
 */
function withAbsoluteRefs<T>(tree: T, base: URL | string): T {
  const copy = structuredClone(tree);
  for (const { holder, ref } of refsOf(copy)) {
    if (ref.startsWith('#')) continue;
    holder.$ref = base instanceof URL ? String(readJson(fileURLToPath(new URL(ref, base))).$id) : new URL(ref, base).href;
  }
  return copy;
}

/** The value a `#/…` JSON Pointer names in the document, or undefined. */
function at(pointer: string): unknown {
  if (!pointer.startsWith('#/')) return undefined;
  let node: unknown = DOC;
  for (const raw of pointer.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

const OPERATIONS = {
  listWidgets: ['get', '/widgets'],
  createWidget: ['post', '/widgets'],
  getWidget: ['get', '/widgets/{widgetId}'],
  deleteWidget: ['delete', '/widgets/{widgetId}'],
} as const;

/** The component each schema the suite validates with is published as. */
const COMPONENTS: Record<Exclude<SchemaName, 'conformance-report' | 'profile' | 'har'>, string> = {
  widget: 'Widget',
  page: 'WidgetPage',
  error: 'Error',
  'create-request': 'CreateWidgetRequest',
};

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document, its external schemas included', async () => {
    const validator = new Validator();
    for (const [id, { schema }] of externalSchemas()) await validator.addSpecRef(withAbsoluteRefs(schema, id), id);
    const result = await validator.validate(withAbsoluteRefs(DOC, DOC_URL));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('states the JSON Schema dialect its schema files declare', () => {
    const dialects = new Set([...externalSchemas().values()].map(({ schema }) => schema.$schema));
    expect([...dialects]).toEqual([DOC.jsonSchemaDialect]);
  });

  it('references the schema files the suite validates with, not copies', () => {
    const files = [...externalSchemas().values()].map(({ file }) => file).sort();
    expect(files).toEqual(Object.keys(COMPONENTS).map((name) => schemaFile(name as SchemaName)).sort());
    for (const [name, component] of Object.entries(COMPONENTS)) {
      const ref = (at(`#/components/schemas/${component}`) as Json | undefined)?.$ref;
      expect(ref, component).toBeTypeOf('string');
      expect(fileURLToPath(new URL(String(ref), DOC_URL)), component).toBe(schemaFile(name as SchemaName));
      expect(readJson(schemaFile(name as SchemaName))).toEqual(loadSchema(name as SchemaName));
    }
  });

  it('has exactly the four operations, with the parameters, bodies and responses the suite uses', () => {
    const operations = Object.entries(DOC.paths as Json).flatMap(([path, item]) =>
      Object.entries(item as Json).filter(([method]) => method !== 'parameters').map(([method, op]) => [(op as Json).operationId, [method, path]]));
    expect(Object.fromEntries(operations)).toEqual(OPERATIONS);
    const schemaOf = (pointer: string): unknown => (at(`${pointer}/content/application~1json/schema`) as Json | undefined)?.$ref;
    expect(schemaOf('#/paths/~1widgets/get/responses/2XX')).toBe('#/components/schemas/WidgetPage');
    expect(schemaOf('#/paths/~1widgets/post/requestBody')).toBe('#/components/schemas/CreateWidgetRequest');
    expect(schemaOf('#/paths/~1widgets/post/responses/2XX')).toBe('#/components/schemas/Widget');
    expect(schemaOf('#/paths/~1widgets~1{widgetId}/get/responses/2XX')).toBe('#/components/schemas/Widget');
    for (const error of ['#/components/responses/AuthenticationFailed', '#/paths/~1widgets/post/responses/4XX', '#/paths/~1widgets~1{widgetId}/get/responses/4XX']) {
      expect(schemaOf(error), error).toBe('#/components/schemas/Error');
    }
    const params = (pointer: string): unknown => (at(pointer) as Json[]).map((p) => [p.name, p.in, p.required, (p.schema as Json).type]);
    expect(params('#/paths/~1widgets/get/parameters')).toEqual([['limit', 'query', false, 'integer'], ['cursor', 'query', false, 'string']]);
    expect(params('#/paths/~1widgets~1{widgetId}/parameters')).toEqual([['widgetId', 'path', true, 'string']]);
  });

  it('fixes no status code the specification leaves open: only classes and default', () => {
    for (const [operationId, [method, path]] of Object.entries(OPERATIONS)) {
      const responses = Object.keys((at(`#/paths/${path.replace(/\//g, '~1')}/${method}`) as Json).responses as Json);
      expect(responses.every((code) => /^[2-5]XX$|^default$/.test(code)), `${operationId}: ${responses.join(', ')}`).toBe(true);
    }
  });

  it('serves v1 and applies bearer authentication (RFC 6750) to every operation', () => {
    expect((DOC.info as Json).version).toBe('v1');
    expect(String((DOC.servers as Json[])[0]!.url)).toMatch(/\/v1$/);
    expect(at('#/components/securitySchemes/bearerAuth')).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(DOC.security).toEqual([{ bearerAuth: [] }]);
    for (const [method, path] of Object.values(OPERATIONS)) {
      expect(at(`#/paths/${path.replace(/\//g, '~1')}/${method}/security`), `${method} ${path}`).toBeUndefined();
    }
  });
});

describe('the rule catalogue against the OpenAPI document', () => {
  it('every rule points at least once into the document, and every pointer resolves', () => {
    const unresolved = RULES.flatMap((r) => (r.openapi.length === 0 ? [`${r.id}: no pointer`] : r.openapi.filter((p) => at(p) === undefined).map((p) => `${r.id}: ${p}`)));
    expect(unresolved).toEqual([]);
  });

  it('every operation is pointed at by some rule', () => {
    const pointers = new Set(RULES.flatMap((r) => r.openapi));
    for (const [method, path] of Object.values(OPERATIONS)) {
      expect(pointers.has(`#/paths/${path.replace(/\//g, '~1')}/${method}`), `${method} ${path}`).toBe(true);
    }
  });
});
