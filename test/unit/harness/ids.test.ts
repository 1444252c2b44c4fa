/**
 * Unknown ids: shaped like the server's own (so a server that validates its id format judges
 * them as well-formed), and recorded as the suite's to delete only when the server said so.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { openAccounts } from '../../../src/client/accounts.ts';
import type { WidgetApi } from '../../../src/client/api.ts';
import { Ownership } from '../../../src/client/ownership.ts';
import { CANDIDATES, extendedIds, freshUnknownId, NUMERIC_OFFSET, NUMERIC_SPREAD, unknownIdLike } from '../../../src/harness/ids.ts';
import { MAX_ID_LENGTH } from '../../../src/client/safe-ids.ts';
import { SeededRandom } from '../../../src/harness/random.ts';
import { HttpClient } from '../../../src/http/client.ts';
import { startServer, type RunningServer } from '../../../src/reference/server.ts';

/** Each shape is drawn this many times: the mutation is random, the promises hold for every draw. */
const DRAWS = 200;

const MODELS = {
  uuid: 'f47ac10b-58cc-4372-a567-0e02b2c3d479',
  ulid: '01ARZ3NDEKTSV4RRFFQ69G5FAV',
  prefixed: 'wdg_2Zk9QmXw7LpRt4Vb',
  hex: '5f2b9c0e8d7a4b1c',
};

const classOf = (ch: string): string => (/[0-9]/.test(ch) ? 'digit' : /[a-z]/.test(ch) ? 'lower' : /[A-Z]/.test(ch) ? 'upper' : ch);

/** One stream for every draw of a model: each draw goes on where the last stopped, as a test's draws do. */
const draws = (model: string): string[] => {
  const random = SeededRandom.of(7, model);
  return Array.from({ length: DRAWS }, () => unknownIdLike(model, random));
};

describe('unknownIdLike', () => {
  it.each(Object.entries(MODELS))('keeps the length, separators and character class of each position of a %s id', (_, model) => {
    for (const id of draws(model)) {
      expect(id).toHaveLength(model.length);
      expect([...id].map(classOf)).toEqual([...model].map(classOf));
    }
  });

  it.each(Object.entries(MODELS))('draws only characters a %s id already uses, and never returns the id itself', (_, model) => {
    const alphabet = new Set(model);
    for (const id of draws(model)) {
      expect([...id].filter((c) => !alphabet.has(c))).toEqual([]);
      expect(id).not.toBe(model);
    }
  });

  it('keeps a UUID lowercase hex', () => {
    for (const id of draws(MODELS.uuid)) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('keeps a ULID valid Crockford base32 (no I, L, O or U)', () => {
    for (const id of draws(MODELS.ulid)) expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('keeps the type prefix of a prefixed id', () => {
    for (const id of draws(MODELS.prefixed)) expect(id.startsWith('wdg_')).toBe(true);
  });

  it('turns an all-digit id into a far larger number', () => {
    for (const model of ['1', '42', '999999999999999']) {
      for (const id of draws(model)) {
        expect(id).toMatch(/^\d+$/);
        const gap = Number(id) - Number(model);
        expect(gap).toBeGreaterThanOrEqual(NUMERIC_OFFSET);
        expect(gap).toBeLessThan(NUMERIC_OFFSET + NUMERIC_SPREAD);
      }
    }
  });
});

const TOKEN = 'ids-token';

interface Retrieves {
  readonly api: WidgetApi;
  /** The ids retrieved, in order. */
  readonly asked: string[];
}

const running: Array<{ close(): Promise<void> }> = [];

afterEach(async () => {
  for (const r of running.splice(0)) await r.close();
});

/** A server answering the n-th retrieve with `statuses[n]`. */
async function retrievesAnswering(...statuses: number[]): Promise<Retrieves> {
  const asked: string[] = [];
  const server: RunningServer = await startServer({
    handle(req: IncomingMessage, res: ServerResponse) {
      const id = decodeURIComponent((req.url ?? '').replace(/^\/v1\/widgets\//, ''));
      const status = statuses[asked.length] ?? 404;
      asked.push(id);
      const body = status < 300 ? { id, name: 'someone else\'s widget', created_at: '2026-01-02T03:04:05Z' } : { error: { code: 'x', message: `answered ${status}` } };
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    },
  });
  const http = new HttpClient({ baseUrl: server.baseUrl, timeoutMs: 5_000, concurrency: 1, maxRetries: 0, maxRetryWaitMs: 0, secrets: [TOKEN] });
  running.push(http, server);
  return { api: openAccounts(http, new Ownership(() => false), [{ name: 'primary', token: TOKEN }])[0]!, asked };
}

describe('extendedIds', () => {
  it('begins each id with the model and adds a separator or a letter, never a digit, then random letters: one per separator, from the test\'s stream', () => {
    for (const model of ['31', ...Object.values(MODELS)]) {
      const ids = extendedIds(model, SeededRandom.of(7, model));
      expect(ids).toHaveLength(4);
      for (const id of ids) expect(id.slice(model.length), id).toMatch(/^[-_~]?wcs[a-z]{5}$/);
      expect(ids.map((id) => id.slice(model.length, model.length + 1))).toEqual(['w', '-', '_', '~']);
      expect(extendedIds(model, SeededRandom.of(7, model))).toEqual(ids);
    }
    expect(extendedIds('31', SeededRandom.of(7, '31'), ['-'])).toHaveLength(1);
  });

  it('leaves out an id the suite will not put in a path', () => {
    expect(extendedIds('x'.repeat(MAX_ID_LENGTH - 3), SeededRandom.of(1, 'long'))).toEqual([]);
  });
});

describe('seeded draws', () => {
  it('the same seed and key draw the same unknown ids; another seed or key draws others', () => {
    const of = (seed: number, key: string): string[] => {
      const random = SeededRandom.of(seed, key);
      return Object.values(MODELS).map((m) => unknownIdLike(m, random));
    };
    expect(of(5, 'CRUD-5 x')).toEqual(of(5, 'CRUD-5 x'));
    expect(of(5, 'CRUD-5 x')).not.toEqual(of(6, 'CRUD-5 x'));
    expect(of(5, 'CRUD-5 x')).not.toEqual(of(5, 'CRUD-5 y'));
  });

  it('int() stays below its bound and reaches every value', () => {
    const random = SeededRandom.of(3, 'bound');
    const seen = new Set(Array.from({ length: 600 }, () => random.int(6)));
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(() => random.int(0)).toThrow(RangeError);
  });
});

describe('freshUnknownId', () => {
  it('returns the first candidate the server answers 4xx, and records only that one as made up', async () => {
    const { api, asked } = await retrievesAnswering(200, 500, 404);
    const id = await freshUnknownId(api, MODELS.uuid, SeededRandom.of(1, 'test'));
    expect(asked).toHaveLength(3);
    expect(id).toBe(asked[2]);
    expect(asked.map((a) => api.ownership.isMadeUp(a))).toEqual([false, false, true]);
  });

  it('takes a 400 as absent too', async () => {
    const { api, asked } = await retrievesAnswering(400);
    const id = await freshUnknownId(api, MODELS.ulid, SeededRandom.of(1, 'test'));
    expect(asked).toEqual([id]);
    expect(api.ownership.isMadeUp(id)).toBe(true);
  });

  it('sends candidates shaped like the model', async () => {
    const { api, asked } = await retrievesAnswering(200, 200, 200);
    await freshUnknownId(api, MODELS.ulid, SeededRandom.of(1, 'test'));
    for (const id of asked) expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it(`falls back to an id in a foreign format after ${CANDIDATES} candidates the server did not answer 4xx`, async () => {
    const { api, asked } = await retrievesAnswering(...Array<number>(CANDIDATES).fill(200));
    const id = await freshUnknownId(api, MODELS.uuid, SeededRandom.of(1, 'test'));
    expect(asked).toHaveLength(CANDIDATES);
    expect(id).toMatch(/^wcs-unknown-[0-9a-f]{16}$/);
    expect(asked.some((a) => api.ownership.isMadeUp(a))).toBe(false);
  });

  // Safe without a retrieve of its own here: a delete of a made-up id still needs a retrieve answered 4xx (api.ts).
  it('records the foreign fallback as made up', async () => {
    const { api } = await retrievesAnswering(...Array<number>(CANDIDATES).fill(500));
    const id = await freshUnknownId(api, MODELS.uuid, SeededRandom.of(1, 'test'));
    expect(api.ownership.isMadeUp(id)).toBe(true);
  });
});
