/**
 * No request of the suite asks the server to take it for another method (src/shared/method-override.ts):
 * a `_method` query parameter or body field, an X-HTTP-Method-Override header, in any spelling
 * frameworks fold to one, on any method. The client refuses such a request before anything leaves.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../../src/http/client.ts';
import { isOverrideName, methodOverride } from '../../../src/shared/method-override.ts';

const URL = 'http://127.0.0.1:9/v1/widgets';

describe('method override, in every spelling frameworks read', () => {
  it.each(['_method', 'method', '_METHOD', 'X-HTTP-Method-Override', 'x-http-method-override', 'X-HTTP-Method', 'X-Method-Override', 'x_http_method_override', '_method[]', '＿ｍｅｔｈｏｄ'])('%s asks for another method', (name) => {
    expect(isOverrideName(name)).toBe(true);
  });

  it.each(['name', 'description', 'limit', 'cursor', 'access_token', 'methods-allowed', 'authorization', 'content-type'])('%s does not', (name) => {
    expect(isOverrideName(name)).toBe(false);
  });

  it('is found in the query (encoded or not), in a header, in a JSON body\'s members and in a form body\'s fields', () => {
    expect(methodOverride({ url: `${URL}?_method=PUT` })).toBe('the query parameter "_method"');
    expect(methodOverride({ url: `${URL}?limit=1&%5Fmethod=DELETE` })).toBe('the query parameter "_method"');
    expect(methodOverride({ url: URL, headers: { 'X-HTTP-Method-Override': 'DELETE' } })).toBe('the header X-HTTP-Method-Override');
    expect(methodOverride({ url: URL, body: JSON.stringify({ name: 'n', _method: 'PUT' }) })).toBe('the body field "_method"');
    expect(methodOverride({ url: URL, body: Buffer.from('name=n&_method=PUT') })).toBe('the body field "_method"');
    expect(methodOverride({ url: URL, body: 'name=n&%5Fmethod=PUT' })).toBe('the body field "_method"');
  });

  it('an ordinary request asks for nothing: the suite\'s creates, lists and malformed bodies', () => {
    expect(methodOverride({ url: `${URL}?limit=5&cursor=abc`, headers: { authorization: 'Bearer t', accept: 'application/json' } })).toBeUndefined();
    expect(methodOverride({ url: URL, body: JSON.stringify({ name: 'wcs-abc CRUD-1 1', description: 'the method of it' }) })).toBeUndefined();
    for (const body of ['{"name":', 'name=wcs-x', '[{"name":"x"}]', 'null', '', '\uFEFF{"name":"x"}']) expect(methodOverride({ url: URL, body }), body).toBeUndefined();
  });
});

describe('the client refuses it on every request, reads included, before anything leaves', () => {
  const received: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    received.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[],"has_more":false}');
  });
  let http: HttpClient;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    http = new HttpClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, timeoutMs: 5_000, concurrency: 1, maxRetries: 0, maxRetryWaitMs: 0, secrets: [] });
  });
  afterAll(async () => {
    await http.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('MAL-5 a GET with ?_method=DELETE, with the query in its path or given apart, or an OPTIONS with X-HTTP-Method-Override, is not sent', async () => {
    await expect(http.request('GET', '/widgets?_method=DELETE')).rejects.toThrow(/asks for another method than its own \(the query parameter "_method"\)/);
    await expect(http.request('GET', '/widgets', { query: { _method: 'PUT' } })).rejects.toThrow(/another method/);
    await expect(http.request('OPTIONS', '/widgets', { headers: { 'X-HTTP-Method-Override': 'DELETE' } })).rejects.toThrow(/the header X-HTTP-Method-Override/);
    await expect(http.request('HEAD', '/widgets', { headers: { 'x-method-override': 'PUT' } })).rejects.toThrow(/another method/);
    expect(received).toEqual([]);
    // The same requests without it go out.
    expect((await http.request('GET', '/widgets?limit=1')).status).toBe(200);
    expect(received).toEqual(['GET /v1/widgets?limit=1']);
  });

  it('MAL-5 a header given for every request (--header) that asks for another method stops every request', async () => {
    const withHeader = new HttpClient({ baseUrl: http.url('').replace(/\/$/, ''), timeoutMs: 5_000, concurrency: 1, maxRetries: 0, maxRetryWaitMs: 0, secrets: [], headers: { 'X-HTTP-Method': 'DELETE' } });
    try {
      await expect(withHeader.request('GET', '/widgets')).rejects.toThrow(/the header X-HTTP-Method/);
    } finally {
      await withHeader.close();
    }
  });
});
