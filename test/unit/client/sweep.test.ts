/** Sweeps against the real reference server: only widgets showing the marker as a whole word go, and a refused page size is worked around. */
import { afterEach, describe, expect, it } from 'vitest';
import type { WidgetApi } from '../../../src/client/api.ts';
import { openAccounts } from '../../../src/client/accounts.ts';
import { carriesAnyMarker, carriesMarker, newMarker } from '../../../src/harness/marker.ts';
import { Ownership } from '../../../src/client/ownership.ts';
import { HttpClient } from '../../../src/http/client.ts';
import { startReferenceServer, startServer, type RunningServer } from '../../../src/reference/server.ts';
import { HttpError, ReferenceService } from '../../../src/reference/service.ts';
import { sweep } from '../../../src/client/sweep.ts';
import { SWEEP_PAGE_LIMIT, walkAll } from '../../../src/client/walk.ts';

const MARKER = newMarker();
const OTHER_MARKER = newMarker();
const ours = (widget: unknown): boolean => carriesMarker(widget, MARKER);

const running: RunningServer[] = [];
const clients: HttpClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(running.splice(0).map((s) => s.close()));
});

function apiFor(baseUrl: string, token: string, account: string, isOurs: (widget: unknown) => boolean = ours): WidgetApi {
  const http = new HttpClient({ baseUrl, timeoutMs: 5_000, concurrency: 4, maxRetries: 0, maxRetryWaitMs: 0, secrets: [token] });
  clients.push(http);
  return openAccounts(http, new Ownership(isOurs), [{ name: account, token }])[0]!;
}

/** Creates a widget and returns its id. */
async function create(api: WidgetApi, body: { name: string; description?: string }): Promise<string> {
  const res = await api.create(body);
  expect(res.status).toBe(201);
  return (res.json as { id: string }).id;
}

/** Every id of the account, read through the reference service's own list. */
async function idsOf(api: WidgetApi): Promise<string[]> {
  const walk = await walkAll(api, 100);
  expect(walk.end.kind).toBe('complete');
  return [...walk.widgets.keys()];
}

describe('sweep against the reference server', () => {
  it('deletes exactly the widgets carrying the marker in name or description and touches no other', async () => {
    const server = await startReferenceServer();
    running.push(server);
    const alice = apiFor(server.baseUrl, server.tokens[0], 'primary');
    const bob = apiFor(server.baseUrl, server.tokens[1], 'second');

    const inName = await create(alice, { name: `widget ${MARKER}` });
    const inDescription = await create(alice, { name: 'plain name', description: `made by run ${MARKER} today` });
    const markerAlone = await create(alice, { name: MARKER, description: '' });
    const unmarked = await create(alice, { name: 'keep me', description: 'not from the suite' });
    const otherRun = await create(alice, { name: `widget ${OTHER_MARKER}` });
    // Lookalikes a user may well have: the marker's shape without its checksum, or the marker inside a word.
    const upperCased = await create(alice, { name: MARKER.toUpperCase(), description: 'the server upper-cased it' });
    const nearMisses = [
      await create(alice, { name: MARKER.slice(0, -1), description: 'shortened' }),
      await create(alice, { name: 'wcs-configurations', description: 'team wcs-integrations' }),
      await create(alice, { name: `x${MARKER}`, description: `${MARKER}.` }),
    ];
    const bobsMarked = await create(bob, { name: `bob ${MARKER}` });

    const result = await sweep(alice, 50);
    expect(result.account).toBe('primary');
    expect(result.problems).toEqual([]);
    expect([...result.deleted].sort()).toEqual([inName, inDescription, markerAlone, upperCased].sort());

    expect((await idsOf(alice)).sort()).toEqual([unmarked, otherRun, ...nearMisses].sort());
    expect(await idsOf(bob)).toEqual([bobsMarked]);
    expect((await alice.retrieve(inName)).status).toBe(404);
    expect((await alice.retrieve(unmarked)).status).toBe(200);
  });

  it('with the any-run pattern, deletes the widgets of every run and still keeps unmarked ones', async () => {
    const server = await startReferenceServer();
    running.push(server);
    const alice = apiFor(server.baseUrl, server.tokens[0], 'primary', carriesAnyMarker);
    const marked = [await create(alice, { name: `a ${MARKER}` }), await create(alice, { name: 'b', description: `x ${OTHER_MARKER} y` })];
    const unmarked = await create(alice, { name: 'wcs-notamarker' });
    const lookalike = await create(alice, { name: 'team wcs-integrations', description: 'wcs-configurations' });

    const result = await sweep(alice, 50);
    expect(result.problems).toEqual([]);
    expect([...result.deleted].sort()).toEqual([...marked].sort());
    expect((await idsOf(alice)).sort()).toEqual([unmarked, lookalike].sort());
  });

  it('an account with nothing marked is swept with nothing deleted and no problem', async () => {
    const server = await startReferenceServer();
    running.push(server);
    const alice = apiFor(server.baseUrl, server.tokens[0], 'primary');
    const kept = await create(alice, { name: 'mine' });
    expect(await sweep(alice, 50)).toEqual({ account: 'primary', deleted: [], found: 0, unjournalled: [], unretrievable: [], complete: true, problems: [] });
    expect(await idsOf(alice)).toEqual([kept]);
  });

  it('a widget listed with the marker that no create of the run answered is reported by id, never deleted', async () => {
    const server = await startReferenceServer();
    running.push(server);
    const alice = apiFor(server.baseUrl, server.tokens[0], 'primary');
    // Another ledger's create: this sweep's ledger never journalled it (a lost answer, or a list lying).
    const stranger = await create(apiFor(server.baseUrl, server.tokens[0], 'primary'), { name: `lookalike ${MARKER}` });
    const result = await sweep(alice, 50);
    expect(result).toMatchObject({ deleted: [], found: 0, unjournalled: [stranger] });
    expect(await idsOf(alice)).toEqual([stranger]);
  });

  it('an unreachable server is reported as a problem instead of thrown', async () => {
    const server = await startReferenceServer();
    const alice = apiFor(server.baseUrl, server.tokens[0], 'primary');
    await server.close();
    const result = await sweep(alice, 50);
    expect(result.deleted).toEqual([]);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toContain('connection refused');
  });
});

/** The reference service, except that it refuses any explicit limit with 400; records every limit asked for. */
class NoLimitService extends ReferenceService {
  readonly limitsAsked: Array<string | undefined> = [];

  protected override parseLimit(raw: string | undefined): number {
    this.limitsAsked.push(raw);
    if (raw !== undefined) throw new HttpError(400, 'invalid_limit', 'this server takes no limit parameter.');
    return super.parseLimit(raw);
  }
}

describe('sweep against a server that rejects limit=100', () => {
  async function setUp(): Promise<{ service: NoLimitService; alice: WidgetApi }> {
    const service = new NoLimitService({ defaultLimit: 5 });
    const server = await startServer(service);
    running.push(server);
    const token = Object.keys(service.tokens)[0] as string;
    return { service, alice: apiFor(server.baseUrl, token, 'primary') };
  }

  it('falls back to the default page size and still deletes every marked widget across pages', async () => {
    const { service, alice } = await setUp();
    const marked: string[] = [];
    const kept: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      if (i % 3 === 0) kept.push(await create(alice, { name: `keep ${i}` }));
      else marked.push(await create(alice, { name: `w${i}`, description: `run ${MARKER}` }));
    }

    const result = await sweep(alice, 50);
    expect(result.problems).toEqual([]);
    expect([...result.deleted].sort()).toEqual([...marked].sort());
    // One refused request with the sweep's page size, then 12 widgets in pages of 5 without a limit.
    expect(service.limitsAsked).toEqual([String(SWEEP_PAGE_LIMIT), undefined, undefined, undefined]);
    expect((await idsOf(alice)).sort()).toEqual([...kept].sort());
  });

  it('reports a walk cut short by the page budget as a problem, having deleted what it saw', async () => {
    const { alice } = await setUp();
    const ids: string[] = [];
    for (let i = 0; i < 8; i += 1) ids.push(await create(alice, { name: `w${i} ${MARKER}` }));

    const result = await sweep(alice, 1);
    expect([...result.deleted].sort()).toEqual(ids.slice(0, 5).sort());
    expect(result.problems).toEqual([
      'the list walk stopped on page 1 (no limit sent): reached the budget of pages for this account without has_more false; marked widgets beyond it were not seen',
    ]);
  });
});
