/** One exchange's transport (src/http/transport.ts): the body read up to the cap, connection loss told apart, headers normalised, connections numbered. */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { isConnectionLost, normaliseHeaders, openWire, readCapped, type LargeBodyGate, type WireConnection } from '../../../src/http/transport.ts';

/** A body stream of the given chunks that records whether it was dropped and how many chunks were taken from it. */
function body(chunks: readonly string[]) {
  const stream = {
    destroyed: false,
    pulled: 0,
    destroy(): void {
      stream.destroyed = true;
    },
    async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
      for (const c of chunks) {
        stream.pulled += 1;
        yield Buffer.from(c);
      }
    },
  };
  return stream;
}

/** A gate past `afterBytes` that opens when the test says so, counting the times it was asked. */
function gate(afterBytes: number): LargeBodyGate & { asked: number; open: () => void } {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const g = {
    afterBytes,
    asked: 0,
    open: () => open(),
    enter: (): Promise<void> => {
      g.asked += 1;
      return opened;
    },
  };
  return g;
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

  it('a body within the large threshold never asks for a pass', async () => {
    const g = gate(6);
    const read = await readCapped(body(['abc', 'def']), 100, g);
    expect([read.bytes.toString(), g.asked]).toEqual(['abcdef', 0]);
  });

  it('a body growing past the large threshold asks for a pass once, and reads nothing more until it has it', async () => {
    const g = gate(5);
    const stream = body(['abcd', 'efgh', 'ijkl', 'mnop']);
    const reading = readCapped(stream, 100, g);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(g.asked, 'asked once, at the chunk that makes the body large').toBe(1);
    expect(stream.pulled, 'the chunks after it wait in the stream').toBe(2);
    g.open();
    const read = await reading;
    expect([read.bytes.toString(), read.truncated, g.asked]).toEqual(['abcdefghijklmnop', false, 1]);
  });

  it('a large body with a declared length is read into one buffer of it: the same bytes, whole, cut at the cap, or past the length declared', async () => {
    const open = (): LargeBodyGate => ({ afterBytes: 2, enter: async () => undefined });
    const whole = await readCapped(body(['ab', 'cd', 'ef']), 100, open(), 6);
    expect([whole.bytes.toString(), whole.truncated]).toEqual(['abcdef', false]);
    const cut = await readCapped(body(['ab', 'cd', 'ef', 'gh']), 5, open(), 8);
    expect([cut.bytes.toString(), cut.truncated], 'a declared length past the cap is not reserved').toEqual(['abcde', true]);
    const atCap = await readCapped(body(['ab', 'cd', 'ef', 'gh']), 7, open(), 7);
    expect([atCap.bytes.toString(), atCap.truncated], 'more than declared, at the cap: the prefix').toEqual(['abcdefg', true]);
    const longer = await readCapped(body(['ab', 'cd', 'ef', 'gh']), 100, open(), 5);
    expect([longer.bytes.toString(), longer.truncated], 'more than declared: every byte kept').toEqual(['abcdefgh', false]);
    const shorter = await readCapped(body(['ab', 'cd']), 100, open(), 9);
    expect([shorter.bytes.toString(), shorter.truncated], 'less than declared: only the bytes sent').toEqual(['abcd', false]);
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

describe('the wire numbers its connections in the order they open (WireConnection)', () => {
  it('one exchange at a time keeps its connection\'s number; exchanges at once open the next ones; a connection closed while idle, or lost with an aborted exchange, has a new number when it opens again; the repeat over a fresh connection has none', async () => {
    const server = createServer((req, res) => {
      if (req.url === '/hang') server.emit('hung');
      else res.end('{}');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { wire } = openWire({ timeoutMs: 5_000, connections: 4, idleMs: 10_000, hintMarginMs: 1_000 });
    /** The number the exchange was told, read when it ended (an aborted one fails, and is numbered all the same). */
    const read = async (path: string, signal = AbortSignal.timeout(5_000), fresh = false, connection: WireConnection = { id: undefined }): Promise<number | undefined> => {
      await wire.read({ method: 'GET', url: base + path, headers: {}, body: undefined, signal, connection }, { maxBytes: 1_000, prefixOverCap: false }, fresh).catch(() => undefined);
      return connection.id;
    };
    try {
      expect([await read('/a'), await read('/b')]).toEqual([1, 1]);
      expect((await Promise.all([read('/c'), read('/d'), read('/e')])).sort()).toEqual([1, 2, 3]);
      wire.closeIdle();
      expect(await read('/f')).toBe(4);
      const abort = new AbortController();
      const hung = read('/hang', abort.signal);
      await once(server, 'hung');
      abort.abort();
      expect(await hung).toBe(4);
      expect(await read('/g')).toBe(5);
      expect(await read('/h', undefined, true, { id: 5 })).toBeUndefined();
    } finally {
      await wire.close();
      server.closeAllConnections();
      server.close();
    }
  });

  it('after a connection ends other than by idling out (an aborted exchange, a body past the cap left unread, the server\'s Connection: close), the next exchanges share one new connection again, not one each', async () => {
    // undici 7's Agent of one connection opens a socket for every request after such an end, and
    // closes it after the answer: the wire replaces that agent before its next exchange.
    let sockets = 0;
    const server = createServer((req, res) => {
      if (req.url === '/hang') return void server.emit('hung');
      if (req.url === '/big') return void res.write(Buffer.alloc(64 * 1024));
      if (req.url === '/close') res.setHeader('connection', 'close');
      res.end('{}');
    });
    server.on('connection', () => (sockets += 1));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { wire } = openWire({ timeoutMs: 5_000, connections: 1, idleMs: 10_000, hintMarginMs: 1_000 });
    const read = (path: string, signal = AbortSignal.timeout(5_000)) =>
      wire.read({ method: 'GET', url: base + path, headers: {}, body: undefined, signal }, { maxBytes: 1_000, prefixOverCap: true }).catch(() => undefined);
    /** Sockets the server saw open for five exchanges one after another. */
    const socketsForFive = async (): Promise<number> => {
      const before = sockets;
      for (let i = 0; i < 5; i += 1) await read('/a');
      return sockets - before;
    };
    try {
      expect(await socketsForFive()).toBe(1);
      const abort = new AbortController();
      const hung = read('/hang', abort.signal);
      await once(server, 'hung');
      abort.abort();
      await hung;
      expect(await socketsForFive(), 'after an aborted exchange').toBe(1);
      await read('/big');
      expect(await socketsForFive(), 'after a body past the cap').toBe(1);
      await read('/close');
      expect(await socketsForFive(), "after the server's Connection: close").toBe(1);
    } finally {
      await wire.close();
      server.closeAllConnections();
      server.close();
    }
  });
});
