/**
 * Server data enters every feature through bounded readers (issue 30 point 6): an answer however
 * hostile (nested 100,000 deep, megabytes of one string, numbers where strings belong, bytes that
 * are not UTF-8) goes through every path that reads one (the answer itself, the first-contact
 * record and its reading back, the profile's facts and the file a worker writes of them, the
 * messages a check builds, a failure's rendering and its evidence record, the journal) and none throws.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { wholeAnswer, type ApiResponse } from '../../../src/http/answer.ts';
import { Redactor } from '../../../src/shared/redact.ts';
import { firstContactText, parseFirstContact, recordFirstContact, type FirstAnswer } from '../../../src/harness/first-contact.ts';
import { SeededRandom } from '../../../src/harness/random.ts';
import { ProfileTally, factsOf } from '../../../src/report/profile-facts.ts';
import type { Observation } from '../../../src/shared/observation.ts';
import { asText, checkSchema, idText, pageEnvelope, preview } from '../../../src/schema.ts';
import { describeDifferences, differingFields } from '../../../src/harness/differ.ts';
import { ConformanceFailure, evidenceOf, renderFailure } from '../../../src/harness/failure.ts';
import { ruleById } from '../../../src/rules.ts';
import { tagsIn, carriesMarker } from '../../../src/harness/marker.ts';
import type { WidgetApi } from '../../../src/client/api.ts';
import { Ownership } from '../../../src/client/ownership.ts';
import { Journal, readJournal } from '../../../src/client/ledger.ts';

const DEEP = 100_000;
const redactor = new Redactor(['secret-token-value']);
const recording = {
  request: { method: 'GET', url: 'http://server.test/v1/widgets', headers: {} },
  startedAt: new Date(0).toISOString(),
  elapsed: () => 1,
  redactor,
  maxResponseBytes: 8 * 1024 * 1024,
};

/** An answer as the client builds it from the bytes a server sent. */
function answerOf(bytes: Buffer, status = 200): ApiResponse {
  const a = wholeAnswer({ status, headers: { 'content-type': 'application/json' }, bytes, truncated: false }, recording);
  if ('tooLargeAfter' in a) throw new Error('not decoded');
  return a;
}

/** JSON text nested `depth` deep, built as text (JSON.stringify of such a value would itself overflow). */
const nested = (depth: number, open = '[', close = ']'): string => `${open.repeat(depth)}${close.repeat(depth)}`;
const nestedObjects = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** A hostile value in the place of a field, as JSON text. */
const hostileField = fc.oneof(
  fc.constantFrom(nested(DEEP), nestedObjects(DEEP), nested(5_000), `"${'x'.repeat(300_000)}"`, '1e308', '-0', '123', 'true', 'null', '{}', '[]', '{"__proto__":{"x":1}}', '"\\u0000\\u001b[31m"', '"\\ud800"'),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
);

/** A whole body: a Widget, a page of Widgets or an Error with hostile fields, raw bytes, or a bare hostile value. */
const hostileBody = fc.oneof(
  fc.record({ id: hostileField, name: hostileField, created_at: hostileField }).map((w) => Buffer.from(`{"id":${w.id},"name":${w.name},"description":"d","created_at":${w.created_at}}`)),
  fc.tuple(hostileField, hostileField, hostileField).map(([name, cursor, more]) => Buffer.from(`{"data":[{"id":"a","name":${name},"created_at":"2026-01-01T00:00:00Z"},{"id":"b","name":"n","created_at":"2026-01-01T00:00:01Z"}],"has_more":${more},"next_cursor":${cursor}}`)),
  fc.tuple(hostileField, hostileField).map(([code, message]) => Buffer.from(`{"code":${code},"message":${message}}`)),
  hostileField.map((v) => Buffer.from(v)),
  // Bytes that are not UTF-8, inside a string and bare (Sinatra keeps the bytes it was sent).
  fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.concat([Buffer.from('{"id":"x","name":"'), Buffer.from([0xff, 0xfe]), Buffer.from(b), Buffer.from('"}')])),
  fc.uint8Array({ maxLength: 256 }).map((b) => Buffer.from(b)),
);

const dir = mkdtempSync(join(tmpdir(), 'hostile-readers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every reader path one answer goes through; returns what it wrote, so the test can assert it was written. */
function throughEveryReader(res: ApiResponse): void {
  // The first-contact record, written and read back as the rules read it.
  const text = firstContactText([{ account: 'primary', list: res, retrieve: res, remove: res }]);
  const [read] = parseFirstContact(text);
  expect((read?.list as FirstAnswer | undefined)?.status).toBe(res.status);
  // The profile: every fact, and the file a worker writes of the tally.
  for (const op of ['list', 'create', 'retrieve', 'delete'] as const) {
    const o: Observation = { op, situation: 'ok', status: res.status, headers: {}, json: res.json, ...(res.jsonError ? { jsonError: res.jsonError } : {}), exchange: res.exchange, id: 'x', sent: res.json };
    factsOf(o);
    const tally = new ProfileTally();
    tally.observe(o);
    JSON.stringify(tally.data);
  }
  // The messages checks build from a value, and the schema checks.
  const body = res.json as Record<string, unknown> | undefined;
  const fields = body !== null && typeof body === 'object' ? body : {};
  for (const v of [res.json, fields.id, fields.name, fields.data]) {
    expect(preview(v).length).toBeLessThan(1_000);
    asText(v);
    idText(v);
  }
  const want = { id: 'a', name: 'n', description: 'd', created_at: '2026-01-01T00:00:00Z' };
  const diff = describeDifferences(want, fields, 'created', 'retrieved', differingFields(want, fields));
  tagsIn(fields, 'wcs-marker');
  carriesMarker(fields, 'wcs-marker');
  const issues = [...checkSchema('widget', res.json, 5).issues, ...checkSchema('page', pageEnvelope(res.json), 5).issues, ...checkSchema('error', res.json, 5).issues];
  // A failure built from it: rendered, thrown as vitest would see it, and carried as evidence (JSON).
  const detail = { expected: 'a Widget', received: `${diff}; ${issues.map((i) => `${i.path} ${i.received}`).join('; ')}`, exchanges: [res.exchange] };
  const rule = ruleById('CRUD-4');
  renderFailure(rule, detail);
  expect(new ConformanceFailure(rule, detail, redactor).message).toContain('CRUD-4');
  JSON.stringify(evidenceOf(rule, detail, redactor));
  // The journal: what a retrieve or list showed at an id, and the id itself, written as they come.
  const journal = join(dir, 'journal.jsonl');
  const ownership = new Ownership((w) => carriesMarker(w, 'wcs-marker'), new Journal(journal, (x) => redactor.text(x)));
  const id = idText(fields.id) ?? 'x';
  ownership.setInventory('primary', [id], true);
  ownership.claim('primary', id);
  ownership.saw('primary', id, res.json);
  ownership.saw('primary', id, res.json, 'list');
  readJournal(journal);
}

describe('hostile answers through every reader', () => {
  it('no reader path throws on generated hostile bodies (deep nesting, huge strings, odd types, invalid UTF-8)', () => {
    fc.assert(fc.property(hostileBody, fc.constantFrom(200, 201, 404, 500), (bytes, status) => {
      throughEveryReader(answerOf(bytes, status));
    }), { numRuns: 25 });
  });

  it('recordFirstContact judges names nested 100,000 deep as sent, and keeps of them only the checks PAGE-6 and CRUD-5 read', async () => {
    const deepPage = Buffer.from(`{"data":[{"id":"a","name":${nested(DEEP)},"created_at":"2026-01-01T00:00:00Z"}],"has_more":false}`);
    const deepError = Buffer.from(`{"code":${nested(DEEP)},"message":"m"}`);
    const api = {
      account: 'primary',
      list: async () => answerOf(deepPage),
      retrieve: async () => answerOf(deepError, 404),
      remove: async () => answerOf(deepError, 404),
      ownership: { addMadeUp: () => undefined },
    } as unknown as WidgetApi;
    await recordFirstContact([api], dir, SeededRandom.of(1, 'first contact'));
    const { readFirstContact } = await import('../../../src/harness/first-contact.ts');
    const [c] = readFirstContact(dir) ?? [];
    const list = c?.list as FirstAnswer | undefined;
    expect(list?.checks.page?.total, 'the page\'s own fields are a page').toBe(0);
    // What PAGE-6 says of it, checked on the value as sent, is bounded.
    expect(list?.checks.widget?.index).toBe(0);
    expect(list?.checks.widget?.issues[0]?.received).toMatch(/nested more than \d+ levels deep/);
    const retrieve = c?.retrieve as FirstAnswer | undefined;
    expect(retrieve?.status).toBe(404);
    expect(retrieve?.checks.error?.issues[0]?.received).toMatch(/nested more than \d+ levels deep/);
    expect((c?.remove as FirstAnswer | undefined)?.status).toBe(404);
  });

  it('a first-contact body that was not JSON is read back as not JSON, with its reason', () => {
    const bad = answerOf(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    const [c] = parseFirstContact(firstContactText([{ account: 'second', list: bad, retrieve: bad }]));
    expect((c?.list as FirstAnswer | undefined)?.checks, 'no schema check of a body that is not JSON').toEqual({});
    expect((c?.list as FirstAnswer | undefined)?.jsonError).toMatch(/not valid UTF-8/);
    expect(c?.remove).toBeUndefined();
  });
});
