/**
 * PAGE-1 on an over-cap page: the client keeps the prefix of a list answer larger than the cap
 * (flagged truncated) instead of failing the request, and json-prefix.ts counts the items
 * that prefix shows complete.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { TransportError } from '../../../src/errors.ts';
import { HttpClient } from '../../../src/http/client.ts';
import { countPrefixItems } from '../../../src/http/json-prefix.ts';

describe('PAGE-1 countPrefixItems', () => {
  const page = JSON.stringify({ data: [{ id: 'a', name: 'x', tags: ['}', ']'] }, { id: 'b', name: 'y,"z"' }, { id: 'c', name: 'w' }], has_more: false });

  it('counts every item of a whole page', () => {
    expect(countPrefixItems(page)).toEqual({ completeItems: 3, sawData: true });
  });

  it('counts only the items closed within a prefix, whatever brackets or quotes their strings hold', () => {
    const cut = page.slice(0, page.indexOf('{"id":"c"') + 5);
    expect(countPrefixItems(cut)).toEqual({ completeItems: 2, sawData: true });
  });

  it('counts scalar items, and ignores arrays of other members and nested "data" members', () => {
    const text = '{"meta":{"data":[1,2,3,4]},"other":[5,6],"d\\u0061ta":[1, "s", null, {"data":[9]}';
    expect(countPrefixItems(text)).toEqual({ completeItems: 4, sawData: true });
  });

  it('says when the prefix never reached the data array', () => {
    expect(countPrefixItems('{"has_more":true,"padding":"xxxxxxxx')).toEqual({ completeItems: 0, sawData: false });
    expect(countPrefixItems('[{"id":"a"},{"id":"b"}')).toEqual({ completeItems: 0, sawData: false });
  });
});

describe('PAGE-1 an answer over the body cap', () => {
  async function server(body: Buffer): Promise<{ url: string; close: () => Promise<void> }> {
    const srv = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) }).end(body));
    await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`, close: () => new Promise((resolve) => srv.close(() => resolve())) };
  }
  const item = { id: 'w', name: 'n', created_at: '2024-01-01T00:00:00Z', padding: 'p'.repeat(100) };
  const big = Buffer.from(JSON.stringify({ data: Array.from({ length: 100 }, () => item), has_more: false }));

  it('is answered with its prefix, flagged truncated, when the request asks for it', async () => {
    const srv = await server(big);
    const http = new HttpClient({ baseUrl: srv.url, timeoutMs: 2_000, concurrency: 1, maxRetries: 0, maxRetryWaitMs: 0, secrets: [], maxResponseBytes: 1024 });
    try {
      const res = await http.request('GET', '/widgets', { prefixOverCap: true });
      expect(res.truncated).toBe(true);
      expect(res.json).toBeUndefined();
      expect(res.jsonError).toContain('larger than the cap of 1024 bytes');
      expect(Buffer.byteLength(res.text)).toBe(1024);
      // `{"data":[` then items of equal length joined by commas: item k closes at byte 9 + k(L+1) - 2.
      const L = JSON.stringify(item).length;
      expect(countPrefixItems(res.text)).toEqual({ completeItems: Math.floor((1024 - 9 + 1) / (L + 1)), sawData: true });
    } finally {
      await http.close();
      await srv.close();
    }
  });

  it('is still a TransportError naming the size for every other request', async () => {
    const srv = await server(big);
    const http = new HttpClient({ baseUrl: srv.url, timeoutMs: 2_000, concurrency: 1, maxRetries: 0, maxRetryWaitMs: 0, secrets: [], maxResponseBytes: 1024 });
    try {
      const error = await http.request('GET', '/widgets').then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(TransportError);
      expect((error as Error).message).toContain('response body larger than 1024 bytes');
    } finally {
      await http.close();
      await srv.close();
    }
  });
});
