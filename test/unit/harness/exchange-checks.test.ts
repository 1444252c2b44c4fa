/**
 * The format rules' checks registered once (harness/exchange-checks.ts): each documented answer the
 * run observes is judged whichever test got it, the violation given to that test as evidence of
 * the rule it breaks (never to a test of that rule itself, which judges its own), and the first
 * answers of each situation kept for the format rules' tests; a situation nobody exercised is sent
 * once for every test that asks.
 */
import { describe, expect, it } from 'vitest';
import { acceptOf, documentedOf, ExchangeRegistry, registeredFindings, type Recorded } from '../../../src/harness/exchange-checks.ts';
import type { FailureDetail } from '../../../src/harness/failure.ts';
import { TestScopes } from '../../../src/harness/test-scope.ts';
import type { Exchange } from '../../../src/shared/exchange.ts';
import type { Observation } from '../../../src/shared/observation.ts';

const JSON_TYPE = { 'content-type': 'application/json' };
const WIDGET = { id: 'w1', name: 'n', created_at: '2026-01-01T00:00:00Z' };
const ERROR = { code: 'not_found', message: 'no such widget' };

function exchange(requestHeaders: Record<string, string> = { accept: 'application/json' }): Exchange {
  return { request: { method: 'GET', url: 'http://x/v1/widgets', headers: requestHeaders }, response: { status: 200, headers: {}, body: '' }, durationMs: 1 };
}

function observation(o: Partial<Observation> & Pick<Observation, 'op' | 'situation' | 'status'>): Observation {
  return { headers: JSON_TYPE, json: undefined, exchange: exchange(), ...o };
}

describe('the documented situations', () => {
  it('are told from the observation: the request, its credential, and for a retrieve of an own widget the answer', () => {
    expect(documentedOf(observation({ op: 'create', situation: 'valid', status: 201 }))).toBe('created');
    expect(documentedOf(observation({ op: 'create', situation: 'no-credential', status: 401 }))).toBe('create-no-credential');
    const sentAsJson = exchange({ accept: 'application/json', 'content-type': 'application/json' });
    expect(documentedOf(observation({ op: 'create', situation: 'malformed', status: 400, sent: { description: 'x' }, exchange: sentAsJson }))).toBe('missing-name');
    // A name of the wrong type is MAL-2's, not the spec's example; a member a lenient decoder reads as
    // name is MAL-1's own question; a body without name sent as text is MAL-4's.
    expect(documentedOf(observation({ op: 'create', situation: 'malformed', status: 201, sent: { Name: 'x' }, exchange: sentAsJson }))).toBeUndefined();
    expect(documentedOf(observation({ op: 'create', situation: 'malformed', status: 201, sent: { 'ｎａｍｅ': 'x' }, exchange: sentAsJson }))).toBeUndefined();
    expect(documentedOf(observation({ op: 'create', situation: 'malformed', status: 400, sent: { name: 1 }, exchange: sentAsJson }))).toBeUndefined();
    expect(documentedOf(observation({ op: 'create', situation: 'malformed', status: 400, sent: { description: 'x' }, exchange: exchange({ 'content-type': 'text/plain' }) }))).toBeUndefined();
    expect(documentedOf(observation({ op: 'retrieve', situation: 'foreign-id', status: 404 }))).toBe('foreign-id');
    expect(documentedOf(observation({ op: 'retrieve', situation: 'existing', status: 200 }))).toBe('retrieved');
    expect(documentedOf(observation({ op: 'retrieve', situation: 'existing', status: 404 }))).toBeUndefined();
    expect(documentedOf(observation({ op: 'retrieve', situation: 'unknown-id', status: 404 }))).toBeUndefined();
    expect(documentedOf(observation({ op: 'list', situation: 'ok', status: 200 }))).toBe('page');
    expect(documentedOf(observation({ op: 'list', situation: 'ok', status: 200, limit: '1' }))).toBe('page-limit-1');
    expect(documentedOf(observation({ op: 'list', situation: 'ok', status: 200, limit: '3', paged: true }))).toBe('later-page');
    expect(documentedOf(observation({ op: 'list', situation: 'ok', status: 200, limit: '3' }))).toBeUndefined();
    expect(documentedOf(observation({ op: 'list', situation: 'invalid-limit', status: 200 }))).toBeUndefined();
    expect(documentedOf(observation({ op: 'list', situation: 'no-credential', status: 401 }))).toBe('list-no-credential');
    expect(documentedOf(observation({ op: 'delete', situation: 'existing', status: 204 }))).toBeUndefined();
  });

  it("read the request's Accept header in any case: the client's application/json, */*, none", () => {
    expect(acceptOf(exchange({ Accept: 'application/json' }))).toBe('json');
    expect(acceptOf(exchange({ accept: '*/*' }))).toBe('any');
    expect(acceptOf(exchange({}))).toBe('none');
    expect(acceptOf(exchange({ accept: 'text/html' }))).toBe('other');
  });
});

const recorded = (r: Partial<Recorded> & Pick<Recorded, 'documented' | 'status'>): Recorded => ({ accept: 'json', headers: JSON_TYPE, json: undefined, exchange: exchange(), ...r });
const rulesOf = (r: Recorded): string[] => registeredFindings(r).map((f) => f.rule);

describe('the registered checks', () => {
  it('a documented failure: JSON as application/json (FMT-1), a 4xx with an Error object (FMT-2)', () => {
    expect(rulesOf(recorded({ documented: 'foreign-id', status: 404, json: ERROR }))).toEqual([]);
    expect(rulesOf(recorded({ documented: 'foreign-id', status: 200, json: ERROR }))).toEqual(['FMT-2']);
    expect(rulesOf(recorded({ documented: 'foreign-id', status: 404, json: { code: 'x' } }))).toEqual(['FMT-2']);
    // Not JSON is FMT-1's alone: what an Error object looks like cannot be judged in an HTML page.
    expect(rulesOf(recorded({ documented: 'list-no-credential', status: 401, headers: { 'content-type': 'text/html' }, jsonError: 'not JSON' }))).toEqual(['FMT-1']);
    expect(rulesOf(recorded({ documented: 'missing-name', status: 400, headers: { 'content-type': 'text/plain' }, json: ERROR }))).toEqual(['FMT-1']);
  });

  it('a documented success once it is one: JSON (FMT-1), and every Widget in it matches the schema (FMT-3)', () => {
    expect(rulesOf(recorded({ documented: 'created', status: 201, json: WIDGET }))).toEqual([]);
    expect(rulesOf(recorded({ documented: 'created', status: 201, json: { ...WIDGET, id: 7 } }))).toEqual(['FMT-3']);
    expect(rulesOf(recorded({ documented: 'retrieved', status: 200, headers: {}, json: WIDGET }))).toEqual(['FMT-1']);
    expect(rulesOf(recorded({ documented: 'page', status: 200, json: { data: [WIDGET, { ...WIDGET, created_at: 'yesterday' }], has_more: false } }))).toEqual(['FMT-3']);
    // A refusal, a page cut at the cap, and a page that is none are other rules' to judge.
    expect(rulesOf(recorded({ documented: 'created', status: 400, headers: {}, json: ERROR }))).toEqual([]);
    expect(rulesOf(recorded({ documented: 'later-page', status: 200, truncated: true, jsonError: 'cut' }))).toEqual([]);
    expect(rulesOf(recorded({ documented: 'page', status: 200, json: { data: 'none' } }))).toEqual([]);
  });
});

/** A registry over its own scopes, and the evidence each test was given. */
function registry(): { registry: ExchangeRegistry; as: (title: string, body: () => Promise<void>) => Promise<void>; given: Array<{ test: string; rule: string; detail: FailureDetail }> } {
  const scopes = new TestScopes();
  const given: Array<{ test: string; rule: string; detail: FailureDetail }> = [];
  const as = (title: string, body: () => Promise<void>): Promise<void> => scopes.run({ title, rule: title.split(' ')[0]!, evidence: (rule, detail) => void given.push({ test: title, rule, detail }) }, body);
  return { registry: new ExchangeRegistry(scopes), as, given };
}

describe('the registry', () => {
  it('gives each violation to the test that got the answer, whatever its rule, never to a test of the rule broken', async () => {
    const { registry: r, as, given } = registry();
    const html = observation({ op: 'retrieve', situation: 'foreign-id', status: 404, headers: { 'content-type': 'text/html' }, jsonError: 'not JSON' });
    await as('CRUD-5 a test', async () => r.observe(html));
    await as('FMT-1 its own', async () => r.observe(html));
    r.observe(html);
    expect(given.map((g) => [g.test, g.rule])).toEqual([['CRUD-5 a test', 'FMT-1']]);
    expect(given[0]!.detail.received).toBe('Content-Type: text/html');
  });

  it('keeps the first answers of each situation as asked, bounded, for the format rules\' tests', async () => {
    const { registry: r } = registry();
    for (let i = 0; i < 5; i++) r.observe(observation({ op: 'list', situation: 'ok', status: 200 + i }));
    r.observe(observation({ op: 'list', situation: 'ok', status: 200, limit: '1', paged: true }));
    r.observe(observation({ op: 'list', situation: 'no-credential', status: 401, exchange: exchange({ accept: '*/*' }) }));
    expect(r.recorded('page').map((x) => x.status)).toEqual([200, 201, 202]);
    expect(r.recorded('later-page', 'json', '1')).toHaveLength(1);
    expect(r.recorded('later-page', 'json', '2')).toHaveLength(0);
    expect(r.recorded('list-no-credential')).toHaveLength(0);
    expect(r.recorded('list-no-credential', 'any')).toHaveLength(1);
    // A body cut at the cap is only its first part: neither kept nor judged.
    r.observe(observation({ op: 'list', situation: 'ok', status: 200, limit: '1', truncated: true, jsonError: 'cut at the cap' }));
    expect(r.recorded('page-limit-1')).toHaveLength(0);
  });

  it('keeps a page with Widgets once one comes, in place of the last page without any: FMT-3 needs Widgets to judge', async () => {
    const { registry: r } = registry();
    for (let i = 0; i < 4; i++) r.observe(observation({ op: 'list', situation: 'ok', status: 200, json: { data: [], has_more: false } }));
    r.observe(observation({ op: 'list', situation: 'ok', status: 200, json: { data: [WIDGET], has_more: false } }));
    r.observe(observation({ op: 'list', situation: 'ok', status: 200, json: { data: [WIDGET, WIDGET], has_more: false } }));
    expect(r.recorded('page').map((p) => (p.json as { data: unknown[] }).data.length)).toEqual([0, 0, 1]);
  });

  it('sends the request of a situation once for every test that asks, giving no evidence from it', async () => {
    const { registry: r, as, given } = registry();
    let sent = 0;
    const send = async (): Promise<number> => {
      sent += 1;
      r.observe(observation({ op: 'list', situation: 'no-credential', status: 200, json: ERROR }));
      return sent;
    };
    const answers: number[] = [];
    await Promise.all([as('FMT-1 a', async () => void answers.push(await r.exercise('k', send))), as('FMT-2 b', async () => void answers.push(await r.exercise('k', send)))]);
    expect(sent).toBe(1);
    expect(answers).toEqual([1, 1]);
    expect(given).toEqual([]);
  });
});
