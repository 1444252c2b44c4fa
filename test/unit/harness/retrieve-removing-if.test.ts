/**
 * retrieveRemovingIf: the owner's retrieve a test judges is the proof its widget's delete is sent
 * on, only when the test is done with it and no test that shares the widget kept it
 * (--keep-failing: it failed on it).
 */
import { describe, expect, it } from 'vitest';
import type { WidgetApi } from '../../../src/client/api.ts';
import type { ApiResponse } from '../../../src/http/answer.ts';
import { retrieveRemovingIf } from '../../../src/harness/checks.ts';

const shown: ApiResponse = { status: 200, headers: {}, text: '', json: { id: 'w1' }, exchange: { request: { method: 'GET', url: 'http://x/v1/widgets/w1', headers: {} }, response: { status: 200, headers: {}, body: '' }, durationMs: 1 } };

/** An account whose retrieve shows the widget, and whose delete (sent only when the judge lets it) is counted. */
function accountOf(kept?: string): WidgetApi & { deletes: number } {
  const api = {
    account: 'primary',
    deletes: 0,
    ownership: { get: (_account: string, id: string) => (id === 'w1' ? { creates: 1, deleted: false, ...(kept === undefined ? {} : { kept }) } : undefined) },
    retrieveThenRemove: async (_id: string, judge: (res: ApiResponse) => void) => {
      judge(shown);
      api.deletes += 1;
      return { retrieved: shown, removed: { ...shown, status: 204 } };
    },
  };
  return api as unknown as WidgetApi & { deletes: number };
}

describe('retrieveRemovingIf', () => {
  it('deletes the widget on the retrieve it returns when the test is done with it', async () => {
    const api = accountOf();
    expect(await retrieveRemovingIf(api, 'w1', () => true)).toBe(shown);
    expect(api.deletes).toBe(1);
  });

  it('deletes nothing when the test is not done with it', async () => {
    const api = accountOf();
    expect(await retrieveRemovingIf(api, 'w1', () => false)).toBe(shown);
    expect(api.deletes).toBe(0);
  });

  it('deletes nothing that another test sharing the widget kept under --keep-failing', async () => {
    const api = accountOf('kept by --keep-failing: a widget of the failing test "MAL-5 POST on a widget answers 405 with an Allow header"');
    expect(await retrieveRemovingIf(api, 'w1', () => true)).toBe(shown);
    expect(api.deletes).toBe(0);
  });
});
