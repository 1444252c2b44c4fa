/**
 * The interoperability profile (docs/profile.md): what each answer shows of a choice the spec
 * leaves open (report/profile-facts.ts), the condition a request tests (client/situation.ts),
 * the summary per entry (report/profile.ts) and the compare rows (report/matrix-profile.ts).
 * Data, never a verdict: no body, however hostile, makes recording throw or grow unbounded.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Ownership } from '../../../src/client/ownership.ts';
import { createSituation, credentialSituation, EXTENSION_SEPARATORS, FOREIGN_ID_PREFIX, idSituation, listSituation } from '../../../src/client/situation.ts';
import type { Exchange } from '../../../src/shared/exchange.ts';
import type { RunReport } from '../../../src/report/model.ts';
import { profileRows, NO_PROFILE } from '../../../src/report/matrix-profile.ts';
import { buildProfile, NOT_OBSERVED, PROFILE_ENTRIES } from '../../../src/report/profile.ts';
import { alphabetOf, factsOf, idFormat, MAX_VALUES, OTHER_VALUES, pageOrder, ProfileTally, timestampStyle } from '../../../src/report/profile-facts.ts';
import type { Observation } from '../../../src/shared/observation.ts';
import { validateSchema } from '../../../src/schema.ts';
import { renderHar } from '../../../src/report/har.ts';
import { renderHtml } from '../../../src/report/html.ts';
import { renderJunit } from '../../../src/report/junit.ts';
import { renderMarkdown } from '../../../src/report/markdown.ts';
import { outcomesOf, reportOf, testOf } from '../support/report.ts';

const exchange = (body = ''): Exchange => ({ request: { method: 'GET', url: 'http://x/v1/widgets', headers: {} }, response: { status: 200, headers: {}, body }, durationMs: 1 });
const obs = (o: Partial<Observation> & Pick<Observation, 'op' | 'situation' | 'status'>): Observation => ({ headers: {}, json: undefined, exchange: exchange(o.json === undefined ? '' : JSON.stringify(o.json)), ...o });
const facts = (o: Observation): Record<string, string> => Object.fromEntries(factsOf(o));
const widget = (id: string, created_at = '2026-01-01T00:00:00.123Z') => ({ id, name: 'n', created_at });

describe('the condition a request tests', () => {
  it('tells the create bodies apart: valid, empty name, unknown field, Content-Type, malformed, byte-order mark', () => {
    expect(createSituation('{"name":"a"}', 'application/json').situation).toBe('valid');
    expect(createSituation('{"name":"a"}', 'application/json; charset=utf-8').situation).toBe('valid');
    expect(createSituation('{"name":""}', 'application/json').situation).toBe('empty-name');
    expect(createSituation('{"name":"a","colour":"red"}', 'application/json').situation).toBe('unknown-field');
    expect(createSituation('{"name":"a"}', null).situation).toBe('no-content-type');
    expect(createSituation('{"name":"a"}', 'text/plain').situation).toBe('other-content-type');
    expect(createSituation('{"name":1}', 'application/json').situation).toBe('malformed');
    expect(createSituation('{"name":', 'application/json').situation).toBe('malformed');
    expect(createSituation('\uFEFF{"name":"a"}', 'application/json').situation).toBe('byte-order-mark');
  });

  it('tells the lists apart: ordinary, limit=0, invalid limit, a cursor the account was not given', () => {
    expect(listSituation(undefined, undefined, new Set())).toBe('ok');
    expect(listSituation('10', undefined, new Set())).toBe('ok');
    expect(listSituation('0', undefined, new Set())).toBe('limit-0');
    expect(listSituation('1.5', undefined, new Set())).toBe('invalid-limit');
    expect(listSituation('1x', undefined, new Set())).toBe('invalid-limit');
    // Spellings a parser may read as a number: the server's choice, filed apart.
    for (const spelling of ['01', '+1', '1e3', '0x10', ' 1', 'NaN', '', '\uff11', '9'.repeat(400)]) expect(listSituation(spelling, undefined, new Set()), spelling).toBe('limit-spelling');
    expect(listSituation('2', 'c1', new Set(['c1']))).toBe('ok');
    expect(listSituation(undefined, 'forged', new Set(['c1']))).toBe('unknown-cursor');
  });

  it('tells the ids apart by the ledger: own, deleted, another account\'s, unknown, foreign', () => {
    const ledger = new Ownership(() => true);
    ledger.claim('primary', 'a');
    ledger.claim('primary', 'b');
    ledger.deleted('primary', 'b');
    ledger.claim('second', 'c');
    expect(idSituation(ledger, 'primary', 'a')).toBe('existing');
    expect(idSituation(ledger, 'primary', 'b')).toBe('after-delete');
    expect(idSituation(ledger, 'primary', 'c')).toBe('other-account');
    expect(idSituation(ledger, 'primary', 'z')).toBe('unknown-id');
    expect(idSituation(ledger, 'primary', `${FOREIGN_ID_PREFIX}00`)).toBe('foreign-id');
  });

  it("tells an own widget's id with the case of its letters changed apart from an unknown id", () => {
    const ledger = new Ownership(() => true);
    ledger.claim('primary', 'wgt_ab12');
    ledger.claim('primary', '12345');
    ledger.claim('second', 'wd_cd34');
    expect(idSituation(ledger, 'primary', 'WGT_AB12')).toBe('case-swapped');
    expect(idSituation(ledger, 'primary', 'wgt_Ab12')).toBe('case-swapped');
    // Another id, an id without letters, another account's id in another case: not a case variant of one of this account's.
    expect(idSituation(ledger, 'primary', 'WGT_AB13')).toBe('unknown-id');
    expect(idSituation(ledger, 'primary', '12346')).toBe('unknown-id');
    expect(idSituation(ledger, 'primary', 'WD_CD34')).toBe('unknown-id');
    // An id the run holds is its own widget, even when a case variant of it is held too.
    ledger.claim('primary', 'WGT_AB12');
    expect(idSituation(ledger, 'primary', 'WGT_AB12')).toBe('existing');
  });

  it("tells an own widget's id with characters added after it (DEL-4, CRUD-5) apart from an unknown id, a longer number among them", () => {
    const ledger = new Ownership(() => true);
    ledger.claim('primary', '31');
    ledger.claim('primary', 'wgt-');
    for (const separator of EXTENSION_SEPARATORS) expect(idSituation(ledger, 'primary', `31${separator}wcsabcde`), separator).toBe('extended-id');
    expect(idSituation(ledger, 'primary', 'wgt-wcsabcde')).toBe('extended-id');
    // Digits after an id are another id of a sequence; another account's id, or an ending not the suite's, is no extension of this account's.
    for (const id of ['310', '1000000031', '32-wcsabcde', '31-wcsabcd', '31-xyzabcde']) expect(idSituation(ledger, 'primary', id), id).toBe('unknown-id');
    expect(idSituation(ledger, 'second', '31-wcsabcde')).toBe('unknown-id');
  });

  it('tells the credentials apart: none, a bad one, a token in the query only', () => {
    expect(credentialSituation(undefined)).toBeUndefined();
    expect(credentialSituation({ authorization: null })).toBe('no-credential');
    expect(credentialSituation({ authorization: 'Basic x' })).toBe('bad-credential');
    expect(credentialSituation({ authorization: null, query: { access_token: 't' } })).toBe('token-in-query');
  });
});

describe('what an answer shows', () => {
  it('files the status under the operation and condition', () => {
    expect(facts(obs({ op: 'create', situation: 'valid', status: 201, json: widget('w1') }))['status.create.valid']).toBe('201');
    expect(facts(obs({ op: 'retrieve', situation: 'after-delete', status: 410 }))['status.retrieve.after-delete']).toBe('410');
    expect(facts(obs({ op: 'list', situation: 'ok', status: 400, limit: '10' }))).toMatchObject({ 'status.list.limit-refused': '400', 'list.above-max': 'refused (400)' });
  });

  it('says what a delete answers with: empty, the widget, another object', () => {
    const del = (json: unknown, body: string) => facts({ ...obs({ op: 'delete', situation: 'existing', status: 200, json }), exchange: exchange(body) })['delete.body'];
    expect(del(undefined, '')).toBe('empty');
    expect(del(widget('w1'), JSON.stringify(widget('w1')))).toBe('the deleted Widget');
    expect(del({ deleted: true }, '{"deleted":true}')).toBe('a JSON object (deleted)');
  });

  it('records the Error code per condition and whether request_id is there', () => {
    const f = facts(obs({ op: 'retrieve', situation: 'unknown-id', status: 404, json: { code: 'not_found', message: 'm' } }));
    expect(f).toMatchObject({ 'error.code.unknown-id': 'not_found', 'error.request_id': 'absent', 'response.extra-fields': 'none' });
    expect(facts(obs({ op: 'list', situation: 'no-credential', status: 401, json: { code: 'u', message: 'm', request_id: 'r', docs: 'x' } }))).toMatchObject({ 'error.request_id': 'present', 'response.extra-fields': 'Error: docs' });
  });

  it('recognises id formats and alphabets', () => {
    expect(idFormat('0f8fad5b-d9cb-469f-a165-70867728950e')).toBe('UUID v4');
    expect(idFormat('01ARZ3NDEKTSV4RRFFQ69G5FAV')).toBe('ULID');
    expect(idFormat('12345')).toBe('numeric');
    expect(idFormat('wgt_00ff')).toBe('prefixed (wgt_…)');
    expect(idFormat('a/b')).toBe('other');
    expect(alphabetOf('0f8fad5b-d9cb')).toBe('0-9 a-f -');
    expect(alphabetOf('01ARZ3')).toBe('0-9 A-Z');
  });

  it('reads created_at precision and offset style', () => {
    expect(timestampStyle('2026-01-01T00:00:00Z')).toEqual({ precision: 'seconds', offset: 'Z' });
    expect(timestampStyle('2026-01-01T00:00:00.123456+02:00')).toEqual({ precision: 'microseconds', offset: 'a local offset (±hh:mm)' });
    expect(timestampStyle('2026-01-01T00:00:00.12+00:00')).toEqual({ precision: 'milliseconds (2 digits)', offset: '+00:00' });
    expect(timestampStyle('not a time')).toBeUndefined();
  });

  it('reads a page: order, last-page style, default page size, limit=0', () => {
    expect(pageOrder([widget('b', '2026-01-01T00:00:01Z'), widget('a', '2026-01-01T00:00:02Z')])).toBe('oldest first');
    expect(pageOrder([widget('a', '2026-01-01T00:00:02Z'), widget('b', '2026-01-01T00:00:01Z')])).toBe('newest first');
    // Created in one tick: two items say nothing; four ordered ids do.
    expect(pageOrder([widget('a'), widget('b')])).toBeUndefined();
    expect(pageOrder([widget('4'), widget('3'), widget('2'), widget('1')])).toBe('by id, descending');
    const page = (body: unknown, o: Partial<Observation> = {}) => facts(obs({ op: 'list', situation: 'ok', status: 200, json: body, ...o }));
    expect(page({ data: [widget('a')], has_more: false })['list.last-page']).toBe('next_cursor absent');
    expect(page({ data: [widget('a')], has_more: false, next_cursor: null })['list.last-page']).toBe('next_cursor null');
    expect(page({ data: [widget('a')], has_more: false, next_cursor: '' })['list.last-page']).toBe('next_cursor ""');
    expect(page({ data: [widget('a'), widget('b')], has_more: true, next_cursor: 'abc' })['list.default-page-size']).toBe('exactly 2');
    expect(page({ data: [widget('a')], has_more: false })['list.default-page-size']).toBe('at least 1');
    expect(page({ data: [], has_more: false }, { situation: 'limit-0', limit: '0' })['list.limit-0']).toBe('an empty page (200)');
    expect(facts(obs({ op: 'list', situation: 'limit-0', status: 400, limit: '0' }))['list.limit-0']).toBe('refused (400)');
  });

  it('tells whether id lookups are case-sensitive from a retrieve of an own id in the other case', () => {
    const swapped = (status: number, json?: unknown) => facts(obs({ op: 'retrieve', situation: 'case-swapped', status, json, id: 'WGT_AB12' }));
    expect(swapped(404, { code: 'not_found', message: 'm' })).toMatchObject({ 'status.retrieve.case-swapped': '404', 'id.case-sensitive': 'case-sensitive' });
    expect(swapped(400)['id.case-sensitive']).toBe('case-sensitive');
    // The widget came back, under its own id or under the id as asked.
    expect(swapped(200, widget('wgt_ab12'))['id.case-sensitive']).toBe('case-insensitive');
    expect(swapped(200, widget('WGT_AB12'))['id.case-sensitive']).toBe('case-insensitive');
    expect(swapped(200, widget('wgt_ff00'))['id.case-sensitive']).toBe('neither: answered 200 without that widget');
    expect(swapped(200, [])['id.case-sensitive']).toBe('neither: answered 200 without that widget');
    expect(swapped(500)['id.case-sensitive']).toBe('neither: answered 500');
    // Only that lookup says anything of it.
    expect(facts(obs({ op: 'retrieve', situation: 'unknown-id', status: 404, id: 'WGT_AB12' }))['id.case-sensitive']).toBeUndefined();
    expect(facts(obs({ op: 'delete', situation: 'case-swapped', status: 404, id: 'WGT_AB12' }))['id.case-sensitive']).toBeUndefined();
  });

  it('says what create did with an empty name: accepted or refused, with the status', () => {
    expect(facts(obs({ op: 'create', situation: 'empty-name', status: 201, json: { ...widget('w'), name: '' }, sent: { name: '', description: 'tag' } }))).toMatchObject({ 'status.create.empty-name': '201', 'create.empty-name': 'accepted (201)' });
    expect(facts(obs({ op: 'create', situation: 'empty-name', status: 422, json: { code: 'c', message: 'm' }, sent: { name: '' } }))).toMatchObject({ 'status.create.empty-name': '422', 'create.empty-name': 'refused (422)' });
  });

  it('says what create did with an unknown field and an absent description', () => {
    const create = (sent: unknown, json: unknown, situation = 'valid', status = 201) => facts(obs({ op: 'create', situation, status, json, sent }));
    expect(create({ name: 'n', colour: 'red' }, { ...widget('w'), colour: 'red' }, 'unknown-field')['create.unknown-field']).toBe('accepted (201), the field echoed');
    expect(create({ name: 'n', colour: 'red' }, widget('w'), 'unknown-field')['create.unknown-field']).toBe('accepted (201), the field dropped');
    expect(create({ name: 'n' }, { ...widget('w'), description: '' })['create.absent-description']).toBe('""');
    expect(create({ name: 'n' }, widget('w'))['create.absent-description']).toBe('absent');
  });

  it('never throws and keeps every value bounded, whatever the body', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom('list', 'create', 'retrieve', 'delete' as const), fc.integer({ min: 100, max: 599 }), (json, op, status) => {
        const tally = new ProfileTally();
        tally.observe(obs({ op, situation: 'ok', status, json, sent: json }));
        for (const values of Object.values(tally.data)) for (const v of Object.keys(values)) expect(v.length).toBeLessThanOrEqual(400);
      }),
      { numRuns: 300 },
    );
  });

  it(`keeps at most ${MAX_VALUES} values per entry, counting the rest together`, () => {
    const tally = new ProfileTally();
    for (let i = 0; i < MAX_VALUES + 10; i += 1) tally.add('error.code.unknown-id', `code-${i}`);
    expect(Object.keys(tally.data['error.code.unknown-id']!)).toHaveLength(MAX_VALUES + 1);
    expect(tally.data['error.code.unknown-id']![OTHER_VALUES]!.count).toBe(10);
  });
});

describe('the profile', () => {
  it('lists every catalogue entry, "not observed" where nothing was seen, and numbers the evidence', () => {
    const tally = new ProfileTally();
    tally.add('status.create.valid', '201', exchange('{}'));
    tally.add('status.create.valid', '201', exchange('{}'));
    tally.add('id.length', '24', exchange());
    tally.add('id.length', '36', exchange());
    tally.add('error.code.unknown-id', 'not_found', exchange());
    const profile = buildProfile(tally.data, 0);
    expect(validateSchema('profile', profile)).toEqual([]);
    const byKey = Object.fromEntries(profile.entries.map((e) => [e.key, e]));
    expect(profile.entries.length).toBe(PROFILE_ENTRIES.length + 1);
    expect(byKey['status.create.valid']).toMatchObject({ observed: true, value: '201', values: [{ value: '201', count: 2, exchange: 'p1' }], exchanges: ['p1'] });
    expect(byKey['id.length']?.value).toBe('24–36 characters');
    expect(byKey['error.code.unknown-id']?.topic).toBe('Errors');
    expect(byKey['list.order']).toMatchObject({ observed: false, value: NOT_OBSERVED, values: [], exchanges: [] });
    expect(profile.evidence.map((e) => e.id)).toEqual(['p1', 'p2', 'p3', 'p4']);
  });

  it('says on an entry not observed why the suite did not send the request that would show it, and only there', () => {
    const tally = new ProfileTally();
    tally.unsent({ op: 'delete', situation: 'after-delete', reason: 'the account held widgets before the run' });
    tally.unsent({ op: 'delete', situation: 'after-delete', reason: 'the account held widgets before the run' });
    tally.unsent({ op: 'retrieve', situation: 'case-swapped', reason: "the server's ids have no letters" });
    tally.unsent({ op: 'create', situation: 'empty-name', reason: 'whatever' });
    tally.add('status.create.empty-name', '201', exchange());
    const profile = buildProfile(tally.data, 0);
    expect(validateSchema('profile', profile)).toEqual([]);
    // Notes are never entries of their own.
    expect(profile.entries.length).toBe(PROFILE_ENTRIES.length);
    const byKey = Object.fromEntries(profile.entries.map((e) => [e.key, e]));
    expect(byKey['status.delete.after-delete']).toMatchObject({ observed: false, value: NOT_OBSERVED, values: [], exchanges: [], note: 'not sent: the account held widgets before the run' });
    expect(byKey['status.retrieve.case-swapped']?.note).toBe("not sent: the server's ids have no letters");
    expect(byKey['id.case-sensitive']?.note).toBe("not sent: the server's ids have no letters");
    // An entry some request did show carries no note.
    expect(byKey['status.create.empty-name']).toMatchObject({ observed: true, value: '201' });
    expect(byKey['status.create.empty-name']?.note).toBeUndefined();
    expect(byKey['list.order']?.note).toBeUndefined();
    const r = reportOf(outcomesOf([testOf('DEL-3', 'pass')]), { profile });
    expect(renderMarkdown(r).split('\n').find((l) => l.includes('second delete of the same id'))).toContain('_not observed_ (not sent\\: the account held widgets before the run)');
    expect(renderHtml(r)).toMatch(/<tr data-profile-key="id.case-sensitive">.*not observed \(not sent: the server&#39;s ids have no letters\)/);
  });

  it('sums the lag up: immediate, late by the longest, or never', () => {
    const lag = (...values: string[]) => {
      const tally = new ProfileTally();
      for (const v of values) tally.add('list.lag.create', v);
      return buildProfile(tally.data, 0).entries.find((e) => e.key === 'list.lag.create')?.value;
    };
    expect(lag('immediate', 'immediate')).toBe('immediate');
    expect(lag('immediate', '310 ms', '120 ms')).toBe('late: up to 310 ms');
    expect(lag('310 ms', 'never within 5 s')).toBe('never within 5 s');
  });
});

describe('the profile rows of compare', () => {
  const report = (values: Record<string, string> | undefined): RunReport => {
    const tally = new ProfileTally();
    for (const [k, v] of Object.entries(values ?? {})) tally.add(k, v);
    return { ...(values ? { profile: buildProfile(tally.data, 0) } : {}) } as RunReport;
  };

  it('marks a value that differs from the majority of the runs that observed it, and no other', () => {
    const rows = profileRows([report({ 'status.create.valid': '201' }), report({ 'status.create.valid': '200' }), report({ 'status.create.valid': '201' }), report({})]);
    const row = rows.find((r) => r.key === 'status.create.valid')!;
    expect(row.majority).toBe('201');
    expect(row.cells.map((c) => [c.value, c.differs])).toEqual([['201', false], ['200', true], ['201', false], [NOT_OBSERVED, false]]);
  });

  it('marks nothing on a tie, and says when a report has no profile', () => {
    const rows = profileRows([report({ 'delete.body': 'empty' }), report({ 'delete.body': 'the deleted Widget' }), report(undefined)]);
    const row = rows.find((r) => r.key === 'delete.body')!;
    expect(row.majority).toBeUndefined();
    expect(row.cells.map((c) => [c.value, c.differs])).toEqual([['empty', false], ['the deleted Widget', false], [NO_PROFILE, false]]);
  });

  it('has no rows when no report has a profile', () => {
    expect(profileRows([report(undefined)])).toEqual([]);
  });
});

describe('the profile in the reports', () => {
  const HOSTILE = '<script>alert(1)</script> | `x` **y**';
  const report = (listSettleMs = 0): RunReport => {
    const tally = new ProfileTally();
    tally.add('error.code.unknown-id', HOSTILE, exchange(HOSTILE));
    tally.add('status.create.valid', '201', exchange());
    return reportOf(outcomesOf([testOf('CRUD-1', 'pass')]), { profile: buildProfile(tally.data, listSettleMs) });
  };

  it('validates against the report schema, and exchanges.har carries each evidence exchange under its _id', () => {
    const r = report();
    expect(validateSchema('conformance-report', r)).toEqual([]);
    const har = JSON.parse(renderHar(r)) as { log: { entries: Array<{ _id?: string; comment: string }> } };
    expect(validateSchema('har', har)).toEqual([]);
    expect(har.log.entries.map((e) => [e._id, e.comment])).toEqual([['p1', 'profile: status.create.valid'], ['p2', 'profile: error.code.unknown-id']]);
  });

  it('shows a server-given value as text in conformance.html and conformance.md, never as markup', () => {
    const html = renderHtml(report());
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<tr data-profile-key="error.code.unknown-id">');
    const md = renderMarkdown(report());
    const row = md.split('\n').find((l) => l.startsWith('| Errors |') && l.includes('an unknown id'))!;
    // The server's text stands in an inert code span (markdown-text.ts), never as markup.
    expect(row).toMatch(/ (`+)<script>alert\(1\)<\/script>.*\1 /);
    expect(row.split(' | ')).toHaveLength(4);
  });

  it('states the settle window in conformance.md, conformance.html and junit.xml only when one was set', () => {
    const line = 'lists judged with a settle window of 750 ms';
    for (const render of [renderMarkdown, renderHtml, renderJunit]) {
      expect(render(report(750)).toLowerCase()).toContain(line);
      expect(render(report(0)).toLowerCase()).not.toContain('settle window');
    }
  });
});
