/**
 * The bench's plain sequential checker (tools/sequential.ts) is only a fair baseline if it does
 * the work the recorded run did: the same requests, answered the same way by a fresh server,
 * ids and cursors re-pointed to what that server gave.
 */
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/reference/server.ts';
import { DEFAULT_TOKENS, ReferenceService } from '../../../src/reference/service.ts';
import { recordingHandler, type LoggedRequest } from '../../../tools/request-log.ts';
import { replaySequentially, repoint } from '../../../tools/sequential.ts';

const token = Object.keys(DEFAULT_TOKENS)[0]!;
const auth = { authorization: `Bearer ${token}` };
const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('repoint', () => {
  it('re-points a path segment naming a recorded id, and a recorded cursor', () => {
    const ids = new Map([['a/b', 'x y']]);
    const cursors = new Map([['c1', 'c+2']]);
    expect(repoint('/v1/widgets/a%2Fb', ids, cursors)).toBe('/v1/widgets/x%20y');
    expect(repoint('/v1/widgets?limit=2&cursor=c1', ids, cursors)).toBe('/v1/widgets?limit=2&cursor=c%2B2');
  });

  it('leaves every other target as it was, byte for byte', () => {
    expect(repoint('/v1/widgets/unknown?limit=1x&cursor=zz', new Map(), new Map())).toBe('/v1/widgets/unknown?limit=1x&cursor=zz');
    expect(repoint('/v1/widgets/%E0%A4', new Map(), new Map())).toBe('/v1/widgets/%E0%A4');
  });
});

describe('record and replay', () => {
  it('replays a recorded sequence against a fresh server with every answer as recorded', async () => {
    const log: LoggedRequest[] = [];
    const recorded = await startServer(recordingHandler(new ReferenceService(), log));
    servers.push(recorded);
    const send = async (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<Record<string, unknown>> => {
      const res = await request(`${recorded.url}${path}`, {
        method,
        headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.body.text();
      return text ? (JSON.parse(text) as Record<string, unknown>) : {};
    };
    const first = await send('POST', '/v1/widgets', { name: 'one' });
    await send('POST', '/v1/widgets', { name: 'two' });
    await send('GET', `/v1/widgets/${String(first.id)}`);
    const page = await send('GET', '/v1/widgets?limit=1');
    await send('GET', `/v1/widgets?limit=1&cursor=${encodeURIComponent(String(page.next_cursor))}`);
    await send('DELETE', `/v1/widgets/${String(first.id)}`);
    await send('GET', `/v1/widgets/${String(first.id)}`);
    expect(log.map((e) => e.status)).toEqual([201, 201, 200, 200, 200, 204, 404]);

    const fresh = await startServer(new ReferenceService());
    servers.push(fresh);
    const result = await replaySequentially(fresh.url, log);
    // Had the id or the cursor not been re-pointed, the retrieve, the second page and the delete would answer otherwise.
    expect(result).toMatchObject({ requests: 7, sameStatus: 7 });
  });
});
