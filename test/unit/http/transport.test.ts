/** One exchange's transport (src/http/transport.ts): the body read up to the cap, connection loss told apart, headers normalised. */
import { describe, expect, it } from 'vitest';
import { isConnectionLost, normaliseHeaders, readCapped } from '../../../src/http/transport.ts';

/** A body stream of the given chunks that records whether it was dropped. */
function body(chunks: readonly string[]) {
  const stream = {
    destroyed: false,
    destroy(): void {
      stream.destroyed = true;
    },
    async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
      for (const c of chunks) yield Buffer.from(c);
    },
  };
  return stream;
}

describe('readCapped', () => {
  it('a body within the cap is read whole, and the stream is left to end by itself', async () => {
    const stream = body(['abc', 'def']);
    const read = await readCapped(stream, 6);
    expect([read.bytes.toString(), read.truncated, stream.destroyed]).toEqual(['abcdef', false, false]);
  });

  it('a body past the cap keeps exactly the cap as its prefix, says so, and drops the stream', async () => {
    const stream = body(['abc', 'def', 'ghi']);
    const read = await readCapped(stream, 5);
    expect([read.bytes.toString(), read.truncated, stream.destroyed]).toEqual(['abcde', true, true]);
  });

  it('an empty body is an empty buffer, not truncated', async () => {
    const read = await readCapped(body([]), 0);
    expect([read.bytes.length, read.truncated]).toEqual([0, false]);
  });
});

describe('isConnectionLost', () => {
  it('a reset, a broken pipe or undici socket error, on the error or its cause, is a lost connection', () => {
    for (const code of ['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']) {
      expect(isConnectionLost({ code }), code).toBe(true);
      expect(isConnectionLost({ cause: { code } }), `cause ${code}`).toBe(true);
    }
  });

  it('a refusal, a timeout, an over-cap body or nothing at all is not', () => {
    for (const error of [{ code: 'ECONNREFUSED' }, { code: 'UND_ERR_HEADERS_TIMEOUT' }, { code: 'UND_ERR_RES_EXCEEDED_MAX_SIZE' }, {}, undefined]) {
      expect(isConnectionLost(error), JSON.stringify(error)).toBe(false);
    }
  });
});

describe('normaliseHeaders', () => {
  it('lower-cases names, joins repeated values with ", " and drops absent ones', () => {
    expect(normaliseHeaders({ 'Content-Type': 'application/json', 'set-cookie': ['a=1', 'b=2'], 'x-none': undefined })).toEqual({
      'content-type': 'application/json',
      'set-cookie': 'a=1, b=2',
    });
  });
});
