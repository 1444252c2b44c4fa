/**
 * SharedWidget: a widget several tests read is made once, by whichever asks first, and deleted by
 * the last of its declared users to end, on its own retrieve, which tells CRUD-4 whether its owner
 * still finds it; a user that failed, or never ran, leaves it to the file's cleanup.
 */
import { describe, expect, it } from 'vitest';
import type { WidgetApi } from '../../../src/client/api.ts';
import type { ApiResponse } from '../../../src/http/answer.ts';
import type { RuleContext } from '../../../src/harness/rule.ts';
import { SharedWidget } from '../../../src/harness/shared-widget.ts';
import { deferred } from '../support/deferred.ts';

const exchange = { request: { method: 'GET', url: 'http://x/v1/widgets/w1', headers: {} }, response: { status: 200, headers: {}, body: '' }, durationMs: 1 };
const answer = (status: number, json?: unknown): ApiResponse => ({ status, headers: {}, text: '', json, exchange });

/** An account holding widget w1 (created once by this run, no delete sent), whose retrieve answers `shown`; counts creates and deletes. */
function accountOf(shown: ApiResponse = answer(200, { id: 'w1' })): WidgetApi & { creates: number; deletes: number } {
  const api = {
    account: 'primary',
    creates: 0,
    deletes: 0,
    ownership: { get: (_account: string, id: string) => (id === 'w1' ? { creates: 1, deleted: false } : undefined) },
    create: async () => {
      api.creates += 1;
      return answer(201, { id: 'w1', name: 'n', created_at: '2026-01-01T00:00:00Z' });
    },
    retrieveThenRemove: async (_id: string, judge: (res: ApiResponse) => void) => {
      judge(shown);
      api.deletes += 1;
      return { retrieved: shown, removed: answer(204) };
    },
  };
  return api as unknown as WidgetApi & { creates: number; deletes: number };
}

/** A test's context on that account, keeping the evidence it records for other rules. */
function contextOf(api: WidgetApi): { t: RuleContext; evidence: Array<{ rule: string; received: string }> } {
  const evidence: Array<{ rule: string; received: string }> = [];
  const t = { api, rule: { id: 'ISO-1' }, evidence: (rule: string, detail: { received: string }) => evidence.push({ rule, received: detail.received }) };
  return { t: t as unknown as RuleContext, evidence };
}

describe('SharedWidget', () => {
  it('is made once, and deleted by the last of its users to end, on its own retrieve', async () => {
    const api = accountOf();
    const { t } = contextOf(api);
    const shared = new SharedWidget((x) => x.api, async (x) => ({ res: await x.api.create({ name: 'n' }) }));
    const held = deferred();
    const first = SharedWidget.using([shared], async (x) => {
      await shared.made(x);
      await held.promise;
    });
    const second = SharedWidget.using([shared], async (x) => void (await shared.made(x)));
    const firstDone = first(t);
    await second(t);
    expect([api.creates, api.deletes]).toEqual([1, 0]);
    held.resolve();
    await firstDone;
    expect([api.creates, api.deletes]).toEqual([1, 1]);
  });

  it('is left to the cleanup when a user did not pass, or never ran', async () => {
    const api = accountOf();
    const { t } = contextOf(api);
    const failing = new SharedWidget((x) => x.api, async (x) => ({ res: await x.api.create({ name: 'n' }) }));
    const fails = SharedWidget.using([failing], async (x) => {
      await failing.made(x);
      throw new Error('the check failed');
    });
    const passes = SharedWidget.using([failing], async (x) => void (await failing.made(x)));
    await expect(fails(t)).rejects.toThrow('the check failed');
    await passes(t);
    expect(api.deletes).toBe(0);

    const unrun = new SharedWidget((x) => x.api, async (x) => ({ res: await x.api.create({ name: 'n' }) }));
    const runs = SharedWidget.using([unrun], async (x) => void (await unrun.made(x)));
    SharedWidget.using([unrun], async () => undefined);
    await runs(t);
    expect(api.deletes).toBe(0);
  });

  it('leaves a widget whose create answered an id that is not a string (FMT-3\'s failure, which may not address it) to the cleanup, and tells CRUD-4 nothing', async () => {
    const api = accountOf(answer(404, { code: 'not_found', message: 'no widget 27' }));
    const { t, evidence } = contextOf(api);
    const shared = new SharedWidget((x) => x.api, async () => ({ res: answer(201, { id: 27, name: 'n' }) }));
    await SharedWidget.using([shared], async (x) => void (await shared.made(x)))(t);
    expect([api.deletes, evidence]).toEqual([0, []]);
  });

  it('tells CRUD-4 of a widget its owner no longer finds, and the verdict of the test that retrieved it stands', async () => {
    const api = accountOf(answer(404, { code: 'not_found', message: 'gone' }));
    const { t, evidence } = contextOf(api);
    const shared = new SharedWidget((x) => x.api, async (x) => ({ res: await x.api.create({ name: 'n' }) }));
    await SharedWidget.using([shared], async (x) => void (await shared.made(x)))(t);
    expect(evidence).toEqual([{ rule: 'CRUD-4', received: '404 (code "not_found") to the owner\'s retrieve of a widget of this run its tests are done with, before its delete' }]);
  });
});
