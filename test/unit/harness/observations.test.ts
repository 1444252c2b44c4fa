/**
 * No rule passes having checked nothing (issue 35 item 6): rule()'s test context counts the checks
 * of its rule evaluated against an answer, and a test that ends with none is inconclusive
 * (NothingObservedError), never passed. Shown on the context rule() builds (makeRuleContext), and on
 * each shared helper: it counts exactly when it evaluated something of the calling rule, never for
 * a precondition, a refusal, evidence of another rule, or a probe that could not run.
 */
import { describe, expect, it } from 'vitest';
import type { WidgetApi } from '../../../src/client/api.ts';
import { InconclusiveError, NothingObservedError } from '../../../src/errors.ts';
import type { ApiResponse } from '../../../src/http/client.ts';
import { createdWidget, expect2xx, expectErrorObject, expectSchema, jsonObject, refusalShapeEvidence } from '../../../src/harness/checks.ts';
import type { RunContext } from '../../../src/harness/context.ts';
import { ConformanceFailure } from '../../../src/harness/failure.ts';
import { prerequisite, requireRetrievable, retrieveLosesWidgets } from '../../../src/harness/prerequisites.ts';
import { concludeObserved, makeRuleContext, NOTHING_OBSERVED, type Observed } from '../../../src/harness/rule.ts';
import { requireComplete } from '../../../src/harness/snapshots.ts';
import { ruleById } from '../../../src/rules.ts';
import type { Exchange } from '../../../src/shared/exchange.ts';
import { Redactor } from '../../../src/shared/redact.ts';
import { contextOf, walkOf } from '../support/walks.ts';
import { thrown } from '../support/thrown.ts';

const exchange: Exchange = { request: { method: 'GET', url: 'http://x/v1/widgets', headers: {} }, response: { status: 200, headers: {}, body: '' }, durationMs: 1 };
const answer = (status: number, json?: unknown): ApiResponse => ({ status, headers: {}, text: '', json, exchange } as ApiResponse);
const ERROR = { code: 'not_found', message: 'no such widget' };
const WIDGET = { id: 'w1', name: 'n', created_at: '2026-01-01T00:00:00Z' };

/** The context rule() gives a test of `rule`, on a run with no account behind it (nothing here sends a request). */
function realContext(rule: string): { t: ReturnType<typeof makeRuleContext>; observed: Observed } {
  const redactor = new Redactor([]);
  const run = { settings: { marker: 'wcs-x', keepFailing: false, seed: 1 }, primary: { http: { redactor } }, http: { redactor } } as unknown as RunContext;
  const observed: Observed = { checks: 0 };
  const skip = async (): Promise<never> => { throw new Error('skipped'); };
  const t = makeRuleContext(ruleById(rule), run, { skip, annotate: async () => undefined as never, seen: [], used: new Set(), title: `${rule} a test`, slot: 0, observed });
  return { t, observed };
}

describe('the test context counts the checks of its rule', () => {
  it('a check that holds is one observation; one that fails is too, and fails', async () => {
    const { t, observed } = realContext('CRUD-5');
    t.check(true, () => ({ expected: 'a', received: 'b' }));
    expect(observed.checks).toBe(1);
    expect(await thrown(() => t.check(false, () => ({ expected: 'a', received: 'b' })))).toBeInstanceOf(ConformanceFailure);
    expect(observed.checks).toBeGreaterThan(1);
  });

  it('a failure, and evidence of the rule itself (a failure), are observations', async () => {
    const { t, observed } = realContext('CRUD-5');
    await thrown(() => t.fail({ expected: 'a', received: 'b' }));
    expect(observed.checks).toBe(1);
    await thrown(() => t.evidence('CRUD-5', { expected: 'a', received: 'b' }));
    expect(observed.checks).toBe(2);
  });

  it('evidence of another rule, a name and a skip are not observations of this rule', async () => {
    const { t, observed } = realContext('CRUD-5');
    t.evidence('FMT-2', { expected: 'an Error object', received: 'none' });
    t.name();
    await thrown(() => t.skip('the server chose otherwise'));
    expect(observed.checks).toBe(0);
  });

  it('a test that ends with none is inconclusive, saying so, on no rule of the catalogue; one with any is not', async () => {
    const error = await thrown(() => concludeObserved({ checks: 0 }));
    expect(error).toBeInstanceOf(NothingObservedError);
    expect(error).toBeInstanceOf(InconclusiveError);
    expect((error as NothingObservedError).dependsOn).toEqual([]);
    expect((error as NothingObservedError).observedNothing).toBe(true);
    expect((error as Error).message).toBe(NOTHING_OBSERVED);
    expect(() => concludeObserved({ checks: 1 })).not.toThrow();
  });
});

describe('the shared checks count exactly what they evaluated', () => {
  it('status, body and schema checks of an answer count', () => {
    const { t, observed } = contextOf('CRUD-5');
    expect2xx(t, answer(200), 'a list');
    jsonObject(t, answer(200, {}), 'a page');
    expectSchema(t, 'widget', WIDGET, answer(200, WIDGET), 'a Widget');
    expect(observed.checks).toBeGreaterThanOrEqual(3);
  });

  it('expectErrorObject counts: a 4xx with an Error object judged', () => {
    const { t, observed } = contextOf('CRUD-5');
    expectErrorObject(t, answer(404, ERROR), 'a retrieve of an unknown id');
    expect(observed.checks).toBeGreaterThan(0);
  });

  it('refusalShapeEvidence is evidence of FMT-1 and FMT-2 only: no observation of the calling rule', () => {
    const { t, observed, evidence } = contextOf('MAL-4');
    refusalShapeEvidence(t, answer(400, { nope: 1 }), 'a create with an extra member');
    refusalShapeEvidence(t, answer(201, WIDGET), 'a create with an extra member');
    expect(evidence.map((e) => e.rule)).toEqual(['FMT-2']);
    expect(observed.checks).toBe(0);
  });

  it('a create as setup (createdWidget) is no observation of the rule under test; for CRUD-1, whose statement it is, it is', () => {
    const api = { repeatOf: () => undefined, account: 'primary' } as unknown as WidgetApi;
    const setup = contextOf('DEL-3');
    createdWidget(setup.t, answer(201, WIDGET), 'a create', api);
    expect(setup.observed.checks).toBe(0);
    const own = contextOf('CRUD-1');
    createdWidget(own.t, answer(201, WIDGET), 'a create', api);
    expect(own.observed.checks).toBeGreaterThan(0);
  });

  it('a prerequisite that holds is no observation, unless it is the calling rule\'s own statement', () => {
    const other = contextOf('DEL-3');
    prerequisite(other.t, 'CRUD-3', true, () => ({ expected: 'a', received: 'b' }));
    expect(other.observed.checks).toBe(0);
    const own = contextOf('CRUD-3');
    prerequisite(own.t, 'CRUD-3', true, () => ({ expected: 'a', received: 'b' }));
    expect(own.observed.checks).toBe(1);
  });

  it('requireRetrievable: a refusal, or a widget the records do not hold, is never evaluated; a found widget is an observation for CRUD-4 only', () => {
    const kept = { account: 'primary', ownership: { get: () => ({ creates: 1, deleted: false }) } } as unknown as WidgetApi;
    const unknown = { account: 'primary', ownership: { get: () => undefined } } as unknown as WidgetApi;
    const own = contextOf('CRUD-4');
    requireRetrievable(own.t, kept, 'w-refused', answer(503), 'a retrieve');
    requireRetrievable(own.t, unknown, 'w-unknown', answer(200, WIDGET), 'a retrieve');
    expect(own.observed.checks).toBe(0);
    requireRetrievable(own.t, kept, 'w-found', answer(200, WIDGET), 'a retrieve');
    expect(own.observed.checks).toBe(1);
    const other = contextOf('ISO-2');
    requireRetrievable(other.t, kept, 'w-found', answer(200, WIDGET), 'a retrieve');
    expect(other.observed.checks).toBe(0);
  });

  it('the loss probe says how many answers it judged: none when its create failed, so its test observes nothing', async () => {
    const { t } = contextOf('CRUD-4');
    const named = { ...t, name: () => 'wcs-x CRUD-4 1', settings: { marker: 'wcs-x' } } as typeof t;
    const refused = { account: 'primary', create: async () => answer(500), retrieve: async () => answer(200, WIDGET), remove: async () => answer(204), ownership: { get: () => undefined } } as unknown as WidgetApi;
    expect(await retrieveLosesWidgets(named, refused)).toEqual({ judged: 0 });
  });

  it('a complete walk is a precondition of the check that needs it, not an observation', () => {
    const { t, observed } = contextOf('ISO-1');
    requireComplete(t, walkOf([]), 'confirm that nothing is listed');
    expect(observed.checks).toBe(0);
  });
});
