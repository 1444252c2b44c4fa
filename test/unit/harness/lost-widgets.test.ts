/**
 * A widget its owner can no longer retrieve is CRUD-4's (issue 30): each sentence the suite says
 * of it is made from what the run recorded, and shown both ways: the fact (a widget a create of
 * this run made, no delete sent for it, not found) and its look-alike (a widget some request did
 * delete, a refusal, an id the run never created, a widget another account really deleted).
 */
import { describe, expect, it } from 'vitest';
import type { WidgetApi } from '../../../src/client/api.ts';
import { InconclusiveError } from '../../../src/errors.ts';
import type { ApiResponse } from '../../../src/http/answer.ts';
import type { Exchange } from '../../../src/shared/exchange.ts';
import { ConformanceFailure } from '../../../src/harness/failure.ts';
import { keptByRecord, noteDeleteSent, requireKept, requireRetrievable, retrieveLosesWidgets, unprovenBecauseLost } from '../../../src/harness/prerequisites.ts';
import type { RuleContext } from '../../../src/harness/rule.ts';
import { voidOnFoundations } from '../../../src/cli/run/outcomes.ts';
import { newMarker } from '../../../src/harness/marker.ts';
import { contextOf } from '../support/walks.ts';
import { outcomesOf, testOf } from '../support/report.ts';
import { thrown } from '../support/thrown.ts';

const MARKER = newMarker();
let n = 0;
const exchange = (status: number): Exchange => ({ request: { method: 'GET', url: `http://x/v1/widgets/${(n += 1)}`, headers: {} }, response: { status, headers: {}, body: '' }, durationMs: 1 });
const answer = (status: number, json?: unknown): ApiResponse => ({ status, headers: {}, text: '', json, exchange: exchange(status) });
const widget = (id: string) => ({ id, name: `${MARKER} ISO-3 1`, created_at: '2026-01-01T00:00:00Z' });

/** An account whose claims and retrieve answers the test scripts: `answers` are served in turn, the last one repeated. */
function accountOf(claims: Record<string, { creates?: number; deleted?: boolean }>, answers: Array<(id: string) => ApiResponse>): WidgetApi & { retrieved: number } {
  let i = 0;
  const api = {
    account: 'primary',
    retrieved: 0,
    ownership: { get: (_account: string, id: string) => (claims[id] ? { creates: 1, deleted: false, ...claims[id] } : undefined) },
    retrieve: async (id: string) => {
      api.retrieved += 1;
      return answers[Math.min(i++, answers.length - 1)]!(id);
    },
    create: async () => {
      const id = `probe-${(n += 1)}`;
      claims[id] = {};
      return answer(201, widget(id));
    },
    remove: async () => answer(204),
  };
  return api as unknown as WidgetApi & { retrieved: number };
}

function ruleContext(rule: string): { t: RuleContext; evidence: Array<Record<string, unknown>> } {
  const { t, evidence } = contextOf(rule);
  return { t: { ...t, settings: { marker: MARKER }, name: () => `${MARKER} ${rule} probe` } as unknown as RuleContext, evidence: evidence as unknown as Array<Record<string, unknown>> };
}

describe('requireRetrievable', () => {
  it('ISO-3 a widget of this run with no delete sent, not found by its owner, is CRUD-4\'s evidence (lost), the check inconclusive', async () => {
    const { t, evidence } = ruleContext('ISO-3');
    const api = accountOf({ w1: {} }, []);
    const res = answer(404, { code: 'not_found', message: 'm' });
    const error = await thrown(() => requireRetrievable(t, api, 'w1', res, 'the owner\'s retrieve of the widget it just created'));
    expect(error).toBeInstanceOf(InconclusiveError);
    expect((error as InconclusiveError).dependsOn).toEqual(['CRUD-4']);
    expect(evidence).toEqual([{
      rule: 'CRUD-4',
      expected: 'the widget a create of this run made at the id "w1" in the primary account (no delete was sent for it), retrieved as create returned it',
      received: '404 (code "not_found") to the owner\'s retrieve of the widget it just created',
      exchanges: [res.exchange],
      lost: true,
    }]);
  });

  it('FMT-3 a retrieve that found nothing is no Widget to judge: inconclusive under CRUD-4, never FMT-3\'s failure', async () => {
    const { t } = ruleContext('FMT-3');
    const error = await thrown(() => requireRetrievable(t, accountOf({ w1: {} }, []), 'w1', answer(404), 'a retrieve of a widget just created'));
    expect(error).toBeInstanceOf(InconclusiveError);
  });

  it('CRUD-4 fails its own check with the same evidence', async () => {
    const { t } = ruleContext('CRUD-4');
    const error = await thrown(() => requireRetrievable(t, accountOf({ w1: {} }, []), 'w1', answer(500), 'a retrieve'));
    expect(error).toBeInstanceOf(ConformanceFailure);
    expect((error as ConformanceFailure).detail.lost).toBe(true);
  });

  it.each([
    ['a DELETE was sent for the id', 'w-deleted', {}, 404],
    ['the run deleted it (2xx)', 'w2', { deleted: true }, 404],
    ['a create answered the id twice (CRUD-3 territory)', 'w3', { creates: 2 }, 404],
    ['the run never created the id', 'w-unknown', undefined, 404],
    ['the answer is a refusal (503)', 'w4', {}, 503],
    ['the answer is a refusal (429)', 'w5', {}, 429],
    ['the widget was found', 'w6', {}, 200],
  ] as const)('says nothing when %s', async (_, id, claim, status) => {
    noteDeleteSent({ op: 'delete', id: 'w-deleted' });
    const { t, evidence } = ruleContext('ISO-3');
    const api = accountOf(claim === undefined ? {} : { [id]: claim, 'w-deleted': {} }, []);
    expect(await thrown(() => requireRetrievable(t, api, id, answer(status), 'a retrieve'))).toBeUndefined();
    expect(evidence).toEqual([]);
  });

  it('keptByRecord reads only the records: created once, not deleted, no DELETE sent', () => {
    noteDeleteSent({ op: 'delete', id: 'sent' });
    noteDeleteSent({ op: 'retrieve', id: 'only-retrieved' });
    const api = accountOf({ kept: {}, sent: {}, 'only-retrieved': {} }, []);
    expect(keptByRecord(api, 'kept')).toBe(true);
    expect(keptByRecord(api, 'only-retrieved')).toBe(true);
    expect(keptByRecord(api, 'sent')).toBe(false);
  });
});

describe('requireKept', () => {
  it('ISO-3 a widget not found after another account\'s delete, found by the next retrieve, was never gone: CRUD-4, with both answers', async () => {
    const { t, evidence } = ruleContext('ISO-3');
    const api = accountOf({ w1: {} }, [(id) => answer(200, widget(id))]);
    const after = answer(404);
    const error = await thrown(() => requireKept(t, api, 'w1', after, 'the owner\'s retrieve after another account tried to delete it'));
    expect((error as InconclusiveError).dependsOn).toEqual(['CRUD-4']);
    expect(evidence[0]).toMatchObject({ rule: 'CRUD-4', lost: true, note: 'a retrieve of it right after answered 200 with the widget: it was there all along' });
    expect((evidence[0]!.exchanges as Exchange[])[0]).toBe(after.exchange);
  });

  it('ISO-3 a widget the other account really deleted (gone at every retrieve, and the store keeps other widgets): the check judges', async () => {
    const { t, evidence } = ruleContext('ISO-3');
    // The widget under test answers 404 every time; the probe's widget is found at every retrieve.
    const api = accountOf({ w1: {} }, [(id) => (id === 'w1' ? answer(404) : answer(200, widget(id)))]);
    expect(await thrown(() => requireKept(t, api, 'w1', answer(404), 'the owner\'s retrieve'))).toBeUndefined();
    expect(evidence).toEqual([]);
  });

  it('AUTH-4 a store that loses a widget nothing acted on (the probe) makes the loss CRUD-4\'s, the check inconclusive', async () => {
    const { t, evidence } = ruleContext('AUTH-4');
    let i = 0;
    // Found every other time: two workers, two stores.
    const api = accountOf({ w1: {} }, [(id) => (id === 'w1' ? answer(404) : (i += 1) % 2 === 0 ? answer(404) : answer(200, widget(id)))]);
    const error = await thrown(() => requireKept(t, api, 'w1', answer(404), 'the owner\'s retrieve'));
    expect((error as InconclusiveError).dependsOn).toEqual(['CRUD-4']);
    expect(evidence[0]).toMatchObject({ rule: 'CRUD-4', lost: true });
    expect(String(evidence[0]!.received)).toMatch(/^404 to retrieve 2 of 8 of 4 widgets just created, in turn \(this one retrieved 0 time\(s\) before it/);
  });

  it('CRUD-4 the loss probe looks at several widgets: a gateway hiding one id in four is met when it hides any of them, not only the first', async () => {
    const { t } = ruleContext('CRUD-4');
    let created = 0;
    const ids: string[] = [];
    // Only the third widget created is hidden.
    const api = accountOf({}, [(id) => (id === ids[2] ? answer(404) : answer(200, widget(id)))]);
    const create = api.create.bind(api);
    api.create = async (body) => {
      const res = await create(body);
      created += 1;
      ids.push(String((res.json as { id: unknown }).id));
      return res;
    };
    const probe = await retrieveLosesWidgets(t, api);
    expect(created).toBe(4);
    expect(String(probe.lost?.received)).toMatch(/^404 to retrieve 3 of 8 of 4 widgets just created/);
  });

  it('the loss probe is asked once per account', async () => {
    const { t } = ruleContext('CRUD-4');
    const api = accountOf({}, [(id) => answer(200, widget(id))]);
    expect(await retrieveLosesWidgets(t, api)).toEqual({ judged: 8 });
    expect(await retrieveLosesWidgets(t, api)).toEqual({ judged: 8 });
    expect(api.retrieved).toBe(8);
  });
});

describe('unprovenBecauseLost', () => {
  const error = (id: string) => ({ reason: 'a retrieve finds nothing at this id: nothing to delete', at: { id, account: 'primary' } });

  it('DEL-1 a delete not sent because the owner\'s own widget is not found is CRUD-4\'s (lost), not a suite error', async () => {
    const { t, evidence } = ruleContext('DEL-1');
    const api = accountOf({ w1: {} }, [() => answer(404)]);
    const e = await thrown(() => unprovenBecauseLost(t, [api], error('w1')));
    expect((e as InconclusiveError).dependsOn).toEqual(['CRUD-4']);
    expect(evidence[0]).toMatchObject({ rule: 'CRUD-4', lost: true, received: '404 to a retrieve of it by its owner', note: 'the delete this check needs was not sent: a retrieve finds nothing at this id: nothing to delete' });
  });

  it('DEL-1 found at the next retrieve: the owner\'s retrieve finds it only some of the time', async () => {
    const { t, evidence } = ruleContext('DEL-1');
    const api = accountOf({ w1: {} }, [(id) => answer(200, widget(id))]);
    expect(await thrown(() => unprovenBecauseLost(t, [api], error('w1')))).toBeInstanceOf(InconclusiveError);
    expect(evidence[0]!.received).toMatch(/^200 with the widget, though the retrieve just before the delete did not show it/);
  });

  it.each([
    ['a refusal', {}, 503],
    ['a widget without the run marker (another rule\'s question)', {}, 200],
  ] as const)('DEL-1 leaves the error as it was for %s', async (_, claim, status) => {
    const { t, evidence } = ruleContext('DEL-1');
    const api = accountOf({ w1: claim }, [() => answer(status, status === 200 ? { id: 'w1', name: 'not ours' } : undefined)]);
    expect(await thrown(() => unprovenBecauseLost(t, [api], error('w1')))).toBeUndefined();
    expect(evidence).toEqual([]);
  });

  it('DEL-1 leaves the error as it was for an id a DELETE was sent for, or with no id named', async () => {
    noteDeleteSent({ op: 'delete', id: 'gone' });
    const { t, evidence } = ruleContext('DEL-1');
    const api = accountOf({ gone: {} }, [() => answer(404)]);
    expect(await thrown(() => unprovenBecauseLost(t, [api], error('gone')))).toBeUndefined();
    expect(await thrown(() => unprovenBecauseLost(t, [api], { reason: 'r' }))).toBeUndefined();
    expect(evidence).toEqual([]);
    expect(api.retrieved).toBe(0);
  });
});

describe('voidOnFoundations on a lost widget', () => {
  it('CRUD-4 failed on a lost widget voids the rules that find widgets by id, saying so; failed on a changed field, it voids nothing', () => {
    const outcomes = outcomesOf([testOf('CRUD-4', 'fail'), testOf('ISO-3', 'fail'), testOf('DEL-1', 'pass'), testOf('AUTH-1', 'pass')]);
    const lost = voidOnFoundations(outcomes, new Set(['CRUD-4']));
    const by = Object.fromEntries(lost.rules.map((r) => [r.rule.id, r.outcome]));
    expect(by).toEqual({ 'CRUD-4': 'fail', 'ISO-3': 'inconclusive', 'DEL-1': 'inconclusive', 'AUTH-1': 'pass' });
    expect(lost.tests.find((x) => x.rule === 'ISO-3')?.messages[0]).toBe("no verdict: this check finds widgets by id, and CRUD-4 failed in this run on a widget its owner could no longer retrieve though no delete was sent for it, so what it saw at an id may not be the widget's state");
    expect(voidOnFoundations(outcomes)).toBe(outcomes);
  });
});
