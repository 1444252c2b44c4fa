/**
 * Whole-account walks (src/client/walk-account.ts), in process against the reference service on
 * loopback: walks at several limits agree on a conformant server; a widget one limit's walks
 * always miss is a gap, named with the walks that showed it; a widget missed once (another
 * client's write, a blip) is a difference that the second walk clears, never a gap.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { openAccounts } from '../../../src/client/accounts.ts';
import type { WidgetApi } from '../../../src/client/api.ts';
import { Ownership } from '../../../src/client/ownership.ts';
import { SMALL_LIMIT_MAX_PAGES, walkAccount, walkOptions } from '../../../src/client/walk-account.ts';
import { HttpClient } from '../../../src/http/client.ts';
import { startServer, type RunningServer } from '../../../src/reference/server.ts';
import { DEFAULT_TOKENS, ReferenceService, type PageJson, type Reply } from '../../../src/reference/service.ts';

const TOKEN = Object.keys(DEFAULT_TOKENS)[0]!;
const LIMITS = [1, 2, 3, 10];
const WIDGETS = 7;

const running: RunningServer[] = [];
const clients: HttpClient[] = [];
afterEach(async () => {
  await Promise.all([...running.splice(0).map((s) => s.close()), ...clients.splice(0).map((c) => c.close())]);
});

/**
 * The reference service, whose list at limit 2 leaves out the widget `hiddenId` names; `afterList`
 * sees every list request and its answer (to change what comes next, as another client would).
 */
class HidingService extends ReferenceService {
  hiddenId: string | undefined;
  afterList: ((query: URLSearchParams, page: PageJson, service: HidingService, account: string) => void) | undefined;
  protected override list(account: string, query: URLSearchParams): Reply {
    const reply = super.list(account, query);
    const body = reply.body as PageJson;
    const page = query.get('limit') === '2' && this.hiddenId !== undefined ? { ...body, data: body.data.filter((w) => w.id !== this.hiddenId) } : body;
    this.afterList?.(query, page, this, account);
    return { ...reply, body: page };
  }

  /** Deletes a widget behind the suite's back, as another client of the account would. */
  deleteBehind(account: string, id: string): void {
    this.store.delete(account, id);
  }
}

/** Serves `service` holding WIDGETS widgets and returns the account's api and the ids created. */
async function accountOn(service: ReferenceService): Promise<{ api: WidgetApi; ids: string[] }> {
  const server = await startServer(service);
  running.push(server);
  const http = new HttpClient({ baseUrl: server.baseUrl, timeoutMs: 5_000, concurrency: 2, maxRetries: 1, maxRetryWaitMs: 1_000, secrets: [TOKEN] });
  clients.push(http);
  const api = openAccounts(http, new Ownership(() => false), [{ name: 'primary', token: TOKEN }])[0]!;
  const ids: string[] = [];
  for (let i = 0; i < WIDGETS; i += 1) ids.push(((await api.create({ name: `pre-existing ${i}` })).json as { id: string }).id);
  return { api, ids };
}

describe('walkAccount', () => {
  test('on a conformant server every limit shows the same set: no difference, no gap', async () => {
    const { api, ids } = await accountOn(new ReferenceService());
    const walks = await walkAccount(api, { limits: LIMITS, maxPages: 100 });
    for (const limit of LIMITS) {
      expect([...walks.byLimit.get(limit)!.widgets.keys()].sort(), `limit ${limit}`).toEqual([...ids].sort());
      expect(walks.comparisons.get(limit), `limit ${limit}`).toMatchObject({ differences: 0, gaps: [], stillMissing: 0 });
      expect(walks.comparisons.get(limit)?.rewalk, 'no second walk without a difference').toBeUndefined();
    }
  });

  test('a widget every walk at one limit misses, and a retrieve still shows, is a gap named with the walks that showed it', async () => {
    const service = new HidingService();
    const { api, ids } = await accountOn(service);
    service.hiddenId = ids[3];
    const walks = await walkAccount(api, { limits: LIMITS, maxPages: 100 });
    const atTwo = walks.comparisons.get(2)!;
    expect(atTwo.differences).toBe(1);
    expect(atTwo.rewalk, 'the walk at limit 2 is made again before anything is blamed').toBeDefined();
    expect(atTwo.gaps).toEqual([{ id: ids[3], seenIn: ['limit 1', 'limit 3', 'limit 10', 'reference'] }]);
    for (const limit of [1, 3, 10]) expect(walks.comparisons.get(limit), `limit ${limit}`).toMatchObject({ differences: 0, gaps: [] });
  });

  test('a widget missed by the first walk only (another client\'s write, a blip) is a difference, never a gap', async () => {
    const service = new HidingService();
    const { api, ids } = await accountOn(service);
    service.hiddenId = ids[5];
    // Hidden from the first walk at limit 2 only: its last page (no more to follow) ends the hiding.
    service.afterList = (query, page, s) => {
      if (query.get('limit') === '2' && !page.has_more) s.hiddenId = undefined;
    };
    const walks = await walkAccount(api, { limits: LIMITS, maxPages: 100 });
    const atTwo = walks.comparisons.get(2)!;
    expect(atTwo.differences).toBe(1);
    expect(atTwo.rewalk, 'the walk at limit 2 is made again').toBeDefined();
    expect(atTwo.gaps).toEqual([]);
    expect(atTwo.stillMissing).toBe(0);
  });

  test('a widget deleted between the first walks and the second is not a gap: the retrieve no longer shows it', async () => {
    const service = new HidingService();
    const { api, ids } = await accountOn(service);
    service.hiddenId = ids[1];
    // Once the walk at the largest page size (the last of the first walks) has run, another
    // client deletes the widget the walk at limit 2 missed.
    service.afterList = (query, _page, s, account) => {
      if (query.get('limit') === '100') s.deleteBehind(account, ids[1]!);
    };
    const walks = await walkAccount(api, { limits: LIMITS, maxPages: 100 });
    const atTwo = walks.comparisons.get(2)!;
    expect(atTwo.differences).toBe(1);
    expect(atTwo.stillMissing, 'the second walk misses it too').toBe(1);
    expect(atTwo.gaps, 'gone for everyone: not a gap of the walk at limit 2').toEqual([]);
  });

  test(`the walks below the largest limit stop after ${SMALL_LIMIT_MAX_PAGES} pages; the one at the largest covers the whole account`, () => {
    expect(walkOptions(1, 10_000, 10)).toEqual({ limit: 1, maxPages: 10_000, stopAfter: SMALL_LIMIT_MAX_PAGES });
    expect(walkOptions(3, 10_000, 10)).toEqual({ limit: 3, maxPages: 10_000, stopAfter: SMALL_LIMIT_MAX_PAGES });
    expect(walkOptions(10, 10_000, 10)).toEqual({ limit: 10, maxPages: 10_000 });
  });
});
