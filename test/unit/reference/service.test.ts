/**
 * The reference server over real HTTP: authentication, routing, create, retrieve, delete and
 * list, each with its failures. Every test gets a fresh server, so no test sees another's widgets.
 */
import { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReferenceServer, startServer, type RunningReferenceServer } from '../../../src/reference/server.ts';
import { DEFAULT_TOKENS, ReferenceService, type PageJson, type WidgetJson } from '../../../src/reference/service.ts';
import { WidgetStore } from '../../../src/reference/store.ts';

// Small limits keep the paging and size cases quick.
const OPTIONS = { defaultLimit: 2, maxLimit: 5, maxBodyBytes: 1024 };
const JSON_TYPE = 'application/json; charset=utf-8';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

interface CallOptions {
  /** The raw Authorization header; null sends none; by default the first account's bearer token. */
  authorization?: string | null;
  headers?: Record<string, string>;
  body?: string | Buffer | Readable;
}

let server: RunningReferenceServer;
let alice: string;
let bob: string;

beforeEach(async () => {
  server = await startReferenceServer(OPTIONS);
  [alice, bob] = server.tokens;
});

afterEach(async () => {
  await server.close();
});

async function call(method: Dispatcher.HttpMethod, path: string, options: CallOptions = {}): Promise<Answer> {
  const { authorization = `Bearer ${alice}`, headers = {}, body } = options;
  const res = await request(`${server.url}${path}`, {
    method,
    headers: authorization === null ? headers : { ...headers, authorization },
    body,
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, json: text === '' ? undefined : JSON.parse(text) };
}

function post(body: string | Buffer | Readable, options: CallOptions = {}): Promise<Answer> {
  return call('POST', '/v1/widgets', { ...options, headers: { 'content-type': 'application/json', ...options.headers }, body });
}

async function create(fields: Record<string, unknown>, token = alice): Promise<WidgetJson> {
  const answer = await post(JSON.stringify(fields), { authorization: `Bearer ${token}` });
  expect(answer.status, 'create status').toBe(201);
  return answer.json as WidgetJson;
}

async function createMany(count: number, token = alice): Promise<WidgetJson[]> {
  const widgets: WidgetJson[] = [];
  for (let i = 0; i < count; i += 1) widgets.push(await create({ name: `widget ${i}` }, token));
  return widgets;
}

async function listIds(token = alice): Promise<string[]> {
  const answer = await call('GET', `/v1/widgets?limit=${OPTIONS.maxLimit}`, { authorization: `Bearer ${token}` });
  return walkFrom(answer, token);
}

/** Follows next_cursor from a first page to the end, returning every id in order. */
async function walkFrom(first: Answer, token: string, limit = OPTIONS.maxLimit): Promise<string[]> {
  const ids: string[] = [];
  let page = first.json as PageJson;
  for (;;) {
    const known = new Set(ids);
    ids.push(...page.data.map((w) => w.id));
    if (!page.has_more) return ids;
    // A page that brings no new widget would be fetched again and again.
    if (page.data.every((w) => known.has(w.id))) throw new Error('the walk is stuck: a page brought no new widget');
    const next = await call('GET', `/v1/widgets?limit=${limit}&cursor=${page.next_cursor}`, { authorization: `Bearer ${token}` });
    page = next.json as PageJson;
  }
}

function expectError(answer: Answer, status: number, code: string): void {
  expect(answer.status, 'status').toBe(status);
  expect(answer.headers['content-type'], 'content type').toBe(JSON_TYPE);
  expect(answer.json, 'Error object').toEqual({ code, message: expect.any(String), request_id: answer.headers['x-request-id'] });
}

describe('authentication', () => {
  it('a request without Authorization is refused with a bare Bearer challenge', async () => {
    for (const answer of [await call('GET', '/v1/widgets', { authorization: null }), await post('{"name":"x"}', { authorization: null })]) {
      expectError(answer, 401, 'unauthorized');
      expect(answer.headers['www-authenticate'], 'challenge').toBe('Bearer realm="widgets"');
    }
  });

  const invalid: Array<[string, () => string]> = [
    ['an unknown token', () => 'Bearer ref-token-nobody'],
    ['the Basic scheme', () => `Basic ${alice}`],
    ['an empty bearer', () => 'Bearer'],
    ['a bearer of spaces only', () => 'Bearer    '],
    ['a valid token with a character appended', () => `Bearer ${alice}x`],
    ['a valid token with trailing junk after a space', () => `Bearer ${alice} junk`],
    ['a prefix of a valid token', () => `Bearer ${alice.slice(0, -1)}`],
    ['a token glued to the scheme', () => `Bearer${alice}`],
    ['a tab instead of a space', () => `Bearer\t${alice}`],
    ['an empty header', () => ''],
  ];
  it.each(invalid)('%s is refused with an invalid_token challenge, never echoed', async (_case, header) => {
    const presented = header();
    const answer = await call('GET', '/v1/widgets', { authorization: presented });
    expectError(answer, 401, 'unauthorized');
    expect(answer.headers['www-authenticate'], 'challenge').toBe('Bearer realm="widgets", error="invalid_token"');
    const credentials = presented.replace(/^\S+\s*/, '');
    if (credentials.trim() !== '') expect(answer.text, 'body').not.toContain(credentials.trim());
  });

  it('the scheme is case-insensitive and may be followed by several spaces', async () => {
    for (const authorization of [`bearer ${alice}`, `BEARER ${alice}`, `Bearer   ${alice}`]) {
      expect((await call('GET', '/v1/widgets', { authorization })).status, authorization.replace(alice, '<token>')).toBe(200);
    }
  });

  it('a token in the query string does not authenticate', async () => {
    const answer = await call('GET', `/v1/widgets?access_token=${alice}`, { authorization: null });
    expectError(answer, 401, 'unauthorized');
    expect(answer.text, 'body').not.toContain(alice);
  });

  it('authentication comes before routing, on every path and method', async () => {
    const widget = await create({ name: 'kept' });
    for (const [method, path] of [
      ['GET', `/v1/widgets/${widget.id}`],
      ['DELETE', `/v1/widgets/${widget.id}`],
      ['PUT', '/v1/widgets'],
      ['GET', '/nowhere'],
    ] as const) {
      expectError(await call(method, path, { authorization: 'Bearer wrong' }), 401, 'unauthorized');
    }
    expect((await call('GET', `/v1/widgets/${widget.id}`)).json, 'widget after refused delete').toEqual(widget);
  });

  it('a create refused for authentication stores nothing', async () => {
    await post('{"name":"refused"}', { authorization: 'Bearer wrong' });
    expect(await listIds(), 'widgets').toEqual([]);
  });
});

describe('routing and the Error object', () => {
  it.each(['/', '/widgets', '/v1', '/v1/widgets/', '/v1/widgets/a/b', '/v2/widgets', '/v1/widgets/%E0%A4%A'])(
    'path %s answers 404 not_found',
    async (path) => {
      expectError(await call('GET', path), 404, 'not_found');
    },
  );

  it.each([
    ['PUT', '/v1/widgets', 'GET, POST'],
    ['DELETE', '/v1/widgets', 'GET, POST'],
    ['POST', '/v1/widgets/wgt_x', 'GET, DELETE'],
    ['PATCH', '/v1/widgets/wgt_x', 'GET, DELETE'],
  ] as const)('%s %s answers 405 with Allow: %s', async (method, path, allow) => {
    const answer = await call(method, path);
    expectError(answer, 405, 'method_not_allowed');
    expect(answer.headers.allow, 'Allow').toBe(allow);
  });

  it('each response has its own X-Request-Id', async () => {
    const first = await call('GET', '/v1/widgets');
    const second = await call('GET', '/v1/widgets');
    expect(first.headers['x-request-id'], 'first').toMatch(/^req_[0-9a-f]{16}$/);
    expect(second.headers['x-request-id'], 'second').not.toBe(first.headers['x-request-id']);
  });

  it('an unexpected exception becomes a 500 internal_error Error object', async () => {
    const reported: unknown[] = [];
    const failing = await startServer(
      new (class extends ReferenceService {
        protected override list(): never {
          throw new Error('boom');
        }
        protected override onUnexpectedError(error: unknown): void {
          reported.push(error);
        }
      })(),
    );
    try {
      const res = await request(`${failing.baseUrl}/widgets`, { headers: { authorization: `Bearer ${alice}` } });
      const answer = { status: res.statusCode, headers: res.headers, text: '', json: await res.body.json() };
      expectError(answer, 500, 'internal_error');
      expect(JSON.stringify(answer.json), 'body').not.toContain('boom');
      expect(reported, 'reported errors').toHaveLength(1);
    } finally {
      await failing.close();
    }
  });
});

describe('create', () => {
  it('answers 201 with Location and the widget, description included', async () => {
    const before = Date.now();
    const answer = await post(JSON.stringify({ name: 'gear', description: 'a small gear' }));
    expect(answer.status, 'status').toBe(201);
    expect(answer.headers['content-type'], 'content type').toBe(JSON_TYPE);
    expect(answer.json, 'widget').toEqual({ id: expect.stringMatching(/^wgt_[0-9a-f]{20}$/), name: 'gear', description: 'a small gear', created_at: expect.any(String) });
    expect(answer.headers.location, 'Location').toBe(`/v1/widgets/${answer.json.id}`);
    const createdAt = Date.parse(answer.json.created_at);
    expect(createdAt, 'created_at').toBeGreaterThanOrEqual(before - 1);
    expect(createdAt, 'created_at').toBeLessThanOrEqual(Date.now());
  });

  it('omits description when none was sent', async () => {
    const widget = await create({ name: 'plain' });
    expect(Object.keys(widget).sort(), 'fields').toEqual(['created_at', 'id', 'name']);
  });

  it.each([
    ['an empty name', { name: '' }],
    ['whitespace at the edges', { name: '  spaced\t', description: '\n both \n' }],
    ['astral, combining and right-to-left text', { name: '👩‍🔧 e\u0301 שלום', description: '"quotes" \\ <b>markup</b>' }],
    ['an empty description', { name: 'x', description: '' }],
    ['a lone surrogate', { name: '\ud800' }],
  ])('stores %s exactly as sent', async (_case, fields) => {
    const widget = await create(fields);
    expect(widget, 'create response').toMatchObject(fields);
    expect((await call('GET', `/v1/widgets/${widget.id}`)).json, 'retrieved').toEqual(widget);
  });

  it('ignores fields it does not know', async () => {
    const widget = await create({ name: 'x', id: 'wgt_mine', created_at: '2000-01-01T00:00:00Z', colour: 'red' });
    expect(widget.id, 'id').not.toBe('wgt_mine');
    expect(widget.created_at, 'created_at').not.toBe('2000-01-01T00:00:00Z');
    expect(widget, 'widget').not.toHaveProperty('colour');
  });

  it.each(['application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8'])(
    'accepts Content-Type %s',
    async (type) => {
      expect((await post('{"name":"x"}', { headers: { 'content-type': type } })).status).toBe(201);
    },
  );

  it.each(['text/plain', 'application/jsonx', 'application/x-www-form-urlencoded'])(
    'refuses Content-Type %s with 415',
    async (type) => {
      expectError(await post('{"name":"x"}', { headers: { 'content-type': type } }), 415, 'unsupported_media_type');
    },
  );

  it('refuses a body without Content-Type with 415', async () => {
    expectError(await call('POST', '/v1/widgets', { body: '{"name":"x"}' }), 415, 'unsupported_media_type');
  });

  it('refuses a body over the size limit with 413, whether its length is declared or streamed', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(OPTIONS.maxBodyBytes) });
    expectError(await post(big), 413, 'payload_too_large');
    expectError(await post(Readable.from([Buffer.from(big.slice(0, 600)), Buffer.from(big.slice(600))])), 413, 'payload_too_large');
    expect((await post('{"name":"after"}')).status, 'next request on the server').toBe(201);
    expect(await listIds(), 'widgets').toHaveLength(1);
  });

  it('accepts a body of exactly the size limit', async () => {
    const name = 'x'.repeat(OPTIONS.maxBodyBytes - '{"name":""}'.length);
    expect((await post(JSON.stringify({ name }))).status).toBe(201);
  });

  const invalidJson: Array<[string, string | Buffer]> = [
    ['an empty body', ''],
    ['whitespace only', '  \n'],
    ['text that is not JSON', 'name=gear'],
    ['truncated JSON', '{"name":"gear"'],
    ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])],
  ];
  it.each(invalidJson)('%s is refused with 400 invalid_json and stores nothing', async (_case, body) => {
    const answer = await post(body);
    expectError(answer, 400, 'invalid_json');
    expect(await listIds(), 'widgets').toEqual([]);
  });

  const invalidShape: Array<[string, string]> = [
    ['an array', '[{"name":"x"}]'],
    ['a string', '"x"'],
    ['a number', '1'],
    ['null', 'null'],
    ['an object without name', '{"description":"x"}'],
    ['a numeric name', '{"name":1}'],
    ['a boolean name', '{"name":true}'],
    ['a null name', '{"name":null}'],
    ['an array name', '{"name":["x"]}'],
    ['an object name', '{"name":{"x":1}}'],
    ['a null description', '{"name":"x","description":null}'],
    ['a numeric description', '{"name":"x","description":1}'],
    ['a boolean description', '{"name":"x","description":false}'],
    ['an array description', '{"name":"x","description":[]}'],
    ['an object description', '{"name":"x","description":{}}'],
  ];
  it.each(invalidShape)('%s is refused with 400 invalid_request and stores nothing', async (_case, body) => {
    expectError(await post(body), 400, 'invalid_request');
    expect(await listIds(), 'widgets').toEqual([]);
  });

  it('an error message does not echo a large input', async () => {
    const answer = await post(`{"name": ${'9'.repeat(500)}`);
    expectError(answer, 400, 'invalid_json');
    expect(answer.text.length, 'body length').toBeLessThan(300);
  });
});

describe('retrieve', () => {
  it('returns the widget exactly as create returned it', async () => {
    const widget = await create({ name: 'gear', description: 'd' });
    const answer = await call('GET', `/v1/widgets/${widget.id}`);
    expect(answer.status, 'status').toBe(200);
    expect(answer.headers['content-type'], 'content type').toBe(JSON_TYPE);
    expect(answer.json, 'widget').toEqual(widget);
  });

  it('percent-decodes the id', async () => {
    const widget = await create({ name: 'gear' });
    expect((await call('GET', `/v1/widgets/%77${widget.id.slice(1)}`)).json, 'widget').toEqual(widget);
  });

  it("answers an unknown id and another account's widget with the same 404", async () => {
    const widget = await create({ name: 'alice only' });
    const foreign = await call('GET', `/v1/widgets/${widget.id}`, { authorization: `Bearer ${bob}` });
    const unknown = await call('GET', '/v1/widgets/wgt_00000000000000000000', { authorization: `Bearer ${bob}` });
    expectError(foreign, 404, 'not_found');
    expectError(unknown, 404, 'not_found');
    expect(foreign.json.message, 'message').toBe(unknown.json.message);
    expect(foreign.text, 'body').not.toContain('alice only');
  });
});

describe('delete', () => {
  it('answers 204 with no body, after which the widget is gone', async () => {
    const [gone, kept] = await createMany(2);
    const answer = await call('DELETE', `/v1/widgets/${gone!.id}`);
    expect(answer.status, 'status').toBe(204);
    expect(answer.text, 'body').toBe('');
    expect(answer.headers['content-type'], 'content type').toBeUndefined();
    expectError(await call('GET', `/v1/widgets/${gone!.id}`), 404, 'not_found');
    expectError(await call('DELETE', `/v1/widgets/${gone!.id}`), 404, 'not_found');
    expect(await listIds(), 'list').toEqual([kept!.id]);
  });

  it("refuses another account's widget with the unknown-id 404 and leaves it alone", async () => {
    const widget = await create({ name: 'alice only' });
    const foreign = await call('DELETE', `/v1/widgets/${widget.id}`, { authorization: `Bearer ${bob}` });
    const unknown = await call('DELETE', '/v1/widgets/wgt_00000000000000000000', { authorization: `Bearer ${bob}` });
    expectError(foreign, 404, 'not_found');
    expect(foreign.json.message, 'message').toBe(unknown.json.message);
    expect((await call('GET', `/v1/widgets/${widget.id}`)).json, 'widget').toEqual(widget);
  });

  it('never hands out a deleted id again', async () => {
    const first = await createMany(3);
    for (const widget of first) await call('DELETE', `/v1/widgets/${widget.id}`);
    const second = await createMany(3);
    expect(new Set([...first, ...second].map((w) => w.id)).size, 'distinct ids').toBe(6);
  });
});

describe('list', () => {
  it('an empty account has one empty last page without next_cursor', async () => {
    const answer = await call('GET', '/v1/widgets');
    expect(answer.status, 'status').toBe(200);
    expect(answer.headers['content-type'], 'content type').toBe(JSON_TYPE);
    expect(answer.json, 'page').toStrictEqual({ data: [], has_more: false });
  });

  it('without limit, pages hold the default number of widgets', async () => {
    const widgets = await createMany(OPTIONS.defaultLimit + 1);
    const page = (await call('GET', '/v1/widgets')).json as PageJson;
    expect(page.data, 'data').toEqual(widgets.slice(0, OPTIONS.defaultLimit));
    expect(page.has_more, 'has_more').toBe(true);
    expect(page.next_cursor, 'next_cursor').toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it.each([1, 2, 3])('a walk with limit %i returns every widget once, in creation order', async (limit) => {
    const widgets = await createMany(7);
    const pages: PageJson[] = [];
    let cursor: string | undefined;
    do {
      const query = cursor === undefined ? `limit=${limit}` : `limit=${limit}&cursor=${cursor}`;
      const page = (await call('GET', `/v1/widgets?${query}`)).json as PageJson;
      pages.push(page);
      expect(pages.length, 'pages so far').toBeLessThanOrEqual(widgets.length);
      cursor = page.next_cursor;
      expect(page.data.length, 'page size').toBeLessThanOrEqual(limit);
      expect(page.has_more, 'has_more matches next_cursor').toBe(cursor !== undefined);
    } while (cursor !== undefined);
    expect(pages.flatMap((p) => p.data), 'widgets').toEqual(widgets);
    expect(pages, 'pages').toHaveLength(Math.ceil(widgets.length / limit));
    expect(pages.at(-1), 'last page').not.toHaveProperty('next_cursor');
  });

  it.each(['6', '100', '99999999999999999999999'])('limit %s is clamped to the maximum', async (limit) => {
    await createMany(OPTIONS.maxLimit + 1);
    const page = (await call('GET', `/v1/widgets?limit=${limit}`)).json as PageJson;
    expect(page.data, 'data').toHaveLength(OPTIONS.maxLimit);
    expect(page.has_more, 'has_more').toBe(true);
  });

  it.each(['limit=0', 'limit=-1', 'limit=abc', 'limit=1.5', 'limit=01', 'limit=', 'limit=%201', 'limit=1e3', 'limit=%2B1', 'limit=1&limit=2'])(
    '%s is refused with 400 invalid_limit',
    async (query) => {
      expectError(await call('GET', `/v1/widgets?${query}`), 400, 'invalid_limit');
    },
  );

  describe('cursors', () => {
    async function firstCursor(token = alice): Promise<string> {
      await createMany(3, token);
      const page = (await call('GET', '/v1/widgets?limit=1', { authorization: `Bearer ${token}` })).json as PageJson;
      return page.next_cursor!;
    }

    const flip = (c: string, i: number): string => c.slice(0, i) + (c[i] === 'A' ? 'B' : 'A') + c.slice(i + 1);
    const tampered: Array<[string, (cursor: string) => string]> = [
      ['garbage', () => 'not-a-cursor'],
      ['empty', () => ''],
      ['with its signature altered', (c) => flip(c, 3)],
      ['with its position altered', (c) => flip(c, c.length - 3)],
      ['truncated', (c) => c.slice(0, -4)],
      ['extended', (c) => `${c}AAAA`],
      ['padded', (c) => `${c}=`],
      ['in standard base64', (c) => c.replaceAll('-', '+').replaceAll('_', '/') + '+'],
    ];
    it.each(tampered)('a cursor %s is refused with 400 invalid_cursor', async (_case, mutate) => {
      const cursor = mutate(await firstCursor());
      expectError(await call('GET', `/v1/widgets?cursor=${encodeURIComponent(cursor)}`), 400, 'invalid_cursor');
    });

    it("another account's cursor is refused with 400 invalid_cursor", async () => {
      await createMany(3, bob);
      const cursor = await firstCursor(alice);
      const answer = await call('GET', `/v1/widgets?cursor=${cursor}`, { authorization: `Bearer ${bob}` });
      expectError(answer, 400, 'invalid_cursor');
    });

    it('a repeated cursor parameter is refused with 400 invalid_cursor', async () => {
      const cursor = await firstCursor();
      expectError(await call('GET', `/v1/widgets?cursor=${cursor}&cursor=${cursor}`), 400, 'invalid_cursor');
    });

    it('a walk is stable while widgets are created and deleted between pages', async () => {
      const [w1, w2, w3, w4] = await createMany(4);
      const first = await call('GET', '/v1/widgets?limit=2');
      // Delete the widget the cursor points after and one not yet seen, then add one.
      await call('DELETE', `/v1/widgets/${w2!.id}`);
      await call('DELETE', `/v1/widgets/${w3!.id}`);
      const w5 = await create({ name: 'late' });
      expect(await walkFrom(first, alice, 2), 'ids').toEqual([w1!.id, w2!.id, w4!.id, w5.id]);
    });
  });

  it("an account never sees another account's widgets", async () => {
    await createMany(3, alice);
    const bobs = await createMany(2, bob);
    expect(await listIds(bob), "bob's walk").toEqual(bobs.map((w) => w.id));
  });
});

describe('WidgetStore', () => {
  it('skips a random id that was ever issued, even after its widget was deleted', () => {
    const store = new (class extends WidgetStore {
      readonly candidates = ['wgt_a', 'wgt_a', 'wgt_b'];
      protected override randomId(): string {
        return this.candidates.shift()!;
      }
    })();
    const first = store.create('alice', { name: 'one' });
    expect(store.delete('alice', first.id), 'deleted').toBe(true);
    expect(store.create('alice', { name: 'two' }).id, 'second id').toBe('wgt_b');
  });

  it('keeps each account to itself', () => {
    const store = new WidgetStore();
    const widget = store.create('alice', { name: 'x' });
    expect(store.get('bob', widget.id), 'get').toBeUndefined();
    expect(store.delete('bob', widget.id), 'delete').toBe(false);
    expect([store.count('alice'), store.count('bob')], 'counts').toEqual([1, 0]);
  });
});

describe('configuration and lifecycle', () => {
  it('defaults to two fixed accounts, pages of 20, at most 100, and 1 MiB bodies', () => {
    const service = new ReferenceService();
    expect(Object.values(service.tokens), 'accounts').toEqual(['alice', 'bob']);
    expect(service.tokens, 'tokens').toEqual(DEFAULT_TOKENS);
    expect([service.defaultLimit, service.maxLimit, service.maxBodyBytes], 'limits').toEqual([20, 100, 1024 * 1024]);
  });

  it('rejects inconsistent limits', () => {
    expect(() => new ReferenceService({ defaultLimit: 10, maxLimit: 5 })).toThrow(RangeError);
    expect(() => new ReferenceService({ maxLimit: 0 })).toThrow(RangeError);
  });

  it('startReferenceServer needs tokens of two different accounts', async () => {
    await expect(startReferenceServer({ tokens: { a: 'alice', b: 'alice' } })).rejects.toThrow(RangeError);
  });

  it('close() returns promptly with a keep-alive connection open', { timeout: 1_000 }, async () => {
    const other = await startReferenceServer();
    await request(`${other.baseUrl}/widgets`, { headers: { authorization: `Bearer ${other.tokens[0]}` } }).then((r) => r.body.text());
    await other.close();
    await expect(request(`${other.baseUrl}/widgets`)).rejects.toThrow();
  });
});
