/** Redaction of secrets, and the recording and rendering of exchanges. */
import { describe, expect, it } from 'vitest';
import { cutBody, formatExchange, RECORDED_BODY_LIMIT, recordBody, type Exchange } from '../../src/http/exchange.ts';
import { REDACTED, Redactor } from '../../src/http/redact.ts';

describe('Redactor.text', () => {
  it('replaces every occurrence of every secret with [REDACTED]', () => {
    const r = new Redactor(['tok-one', 'tok-two']);
    expect(r.text('a tok-one b tok-two c tok-one')).toBe('a [REDACTED] b [REDACTED] c [REDACTED]');
    expect(REDACTED).toBe('[REDACTED]');
  });

  it('replaces a secret that contains another secret whole, whatever the order given', () => {
    for (const secrets of [['abc', 'abcdef'], ['abcdef', 'abc']]) {
      const r = new Redactor(secrets);
      expect(r.text('xabcdefx abc')).toBe('x[REDACTED]x [REDACTED]');
    }
  });

  it('treats secrets as literal text, not as patterns', () => {
    const r = new Redactor(['a.b*c$1']);
    expect(r.text('a.b*c$1 axbbc$1')).toBe('[REDACTED] axbbc$1');
  });

  it('ignores empty secrets and leaves text without secrets unchanged', () => {
    const r = new Redactor(['', 'secret-value', 'secret-value']);
    expect(r.text('nothing here')).toBe('nothing here');
    expect(r.text('')).toBe('');
    expect(r.text('secret-value')).toBe('[REDACTED]');
    expect(new Redactor([]).text('plain')).toBe('plain');
  });

  it('accepts any iterable of secrets', () => {
    const r = new Redactor(new Set(['s3cr3t']));
    expect(r.text('s3cr3ts3cr3t')).toBe('[REDACTED][REDACTED]');
  });
});

describe('Redactor.authorization', () => {
  const r = new Redactor(['known-token']);

  it('keeps the scheme and hides the credentials, known or not', () => {
    expect(r.authorization('Bearer known-token')).toBe('Bearer [REDACTED]');
    expect(r.authorization('Bearer some-other-token')).toBe('Bearer [REDACTED]');
    expect(r.authorization('bearer   spaced')).toBe('bearer [REDACTED]');
    expect(r.authorization('Basic dXNlcjpwYXNz')).toBe('Basic [REDACTED]');
    expect(r.authorization('Bearer a b\nc')).toBe('Bearer [REDACTED]');
  });

  it('shows a scheme with empty credentials as it was sent', () => {
    expect(r.authorization('Bearer ')).toBe('Bearer ');
    expect(r.authorization('Bearer')).toBe('Bearer');
  });

  it('redacts a bare known token sent without a scheme', () => {
    expect(r.authorization('known-token')).toBe('[REDACTED]');
    expect(r.authorization('xknown-tokenx')).toBe('x[REDACTED]x');
  });
});

describe('Redactor.headers', () => {
  it('hides Authorization credentials whatever the name case, and replaces secrets in other headers', () => {
    const r = new Redactor(['k-123']);
    const original = { Authorization: 'Bearer anything', 'x-api-key': 'k-123', cookie: 'a=k-123; b=2', accept: 'application/json' };
    expect(r.headers(original)).toEqual({
      Authorization: 'Bearer [REDACTED]',
      'x-api-key': '[REDACTED]',
      cookie: 'a=[REDACTED]; b=2',
      accept: 'application/json',
    });
    expect(r.headers({ authorization: 'Bearer k-123' })).toEqual({ authorization: 'Bearer [REDACTED]' });
    // The input is left alone.
    expect(original['x-api-key']).toBe('k-123');
  });
});

describe('cutBody', () => {
  it('leaves a body of at most 4096 bytes as it is', () => {
    expect(RECORDED_BODY_LIMIT).toBe(4096);
    expect(cutBody('', 0)).toBe('');
    expect(cutBody('{"a":1}', 7)).toBe('{"a":1}');
    const exact = 'x'.repeat(4096);
    expect(cutBody(exact, 4096)).toBe(exact);
    // 2048 two-byte characters are exactly 4096 bytes.
    const exactMultiByte = 'é'.repeat(2048);
    expect(cutBody(exactMultiByte, 4096)).toBe(exactMultiByte);
  });

  it('cuts a longer body at 4096 bytes and notes the total size given', () => {
    const text = 'x'.repeat(4097);
    expect(cutBody(text, 4097)).toBe(`${'x'.repeat(4096)}\n… [body cut at 4096 bytes of 4097]`);
    expect(cutBody('y'.repeat(10_000), 12_345)).toBe(`${'y'.repeat(4096)}\n… [body cut at 4096 bytes of 12345]`);
  });

  it('never splits a multi-byte UTF-8 character into a replacement character', () => {
    // A character of `width` bytes starting `inside` bytes before the limit, so the cut falls inside it.
    const cases: Array<[string, number, number]> = [
      ['é', 2, 1],
      ['€', 3, 1],
      ['€', 3, 2],
      ['😀', 4, 1],
      ['😀', 4, 2],
      ['😀', 4, 3],
    ];
    for (const [char, width, inside] of cases) {
      const prefix = 'a'.repeat(RECORDED_BODY_LIMIT - inside);
      const text = `${prefix}${char}tail`;
      const total = Buffer.byteLength(text);
      expect(total).toBe(RECORDED_BODY_LIMIT - inside + width + 4);
      const cut = cutBody(text, total);
      expect(cut, `${char} cut after ${inside} byte(s)`).toBe(`${prefix}\n… [body cut at 4096 bytes of ${total}]`);
      expect(cut).not.toContain('\uFFFD');
    }
  });

  it('keeps a multi-byte character that ends exactly at the limit', () => {
    const text = `${'a'.repeat(4092)}😀more`;
    expect(cutBody(text, Buffer.byteLength(text))).toBe(`${'a'.repeat(4092)}😀\n… [body cut at 4096 bytes of 4100]`);
  });

  it('cuts a body made only of multi-byte characters on a character boundary', () => {
    const text = '€'.repeat(2000); // 6000 bytes; 4096 = 1365 × 3 + 1
    const cut = cutBody(text, 6000);
    expect(cut).toBe(`${'€'.repeat(1365)}\n… [body cut at 4096 bytes of 6000]`);
  });
});

describe('recordBody', () => {
  it('records exactly what redacting the whole body and cutting it would, wherever the secrets sit', () => {
    const secret = 'tok-0123456789abcdefghijklmnopqrstuvwxyz';
    const r = new Redactor([secret, 'short']);
    // Secrets packed at the front shrink it most; others straddle every place the front might end.
    const bodies = [
      secret.repeat(2000),
      `${'x'.repeat(RECORDED_BODY_LIMIT - 5)}${secret}${'y'.repeat(50_000)}`,
      ...Array.from({ length: 60 }, (_, i) => `${'€'.repeat(i * 37)}${secret.repeat(i)}${'a'.repeat(i * 311)}${secret}short${'z'.repeat(20_000)}`),
      'small body with a short secret',
      'x'.repeat(RECORDED_BODY_LIMIT + 1),
    ];
    for (const body of bodies) {
      const total = Buffer.byteLength(body);
      expect(recordBody(body, total, r)).toBe(cutBody(r.text(body), total));
      expect(recordBody(body, total, new Redactor([]))).toBe(cutBody(body, total));
    }
  });
});

describe('formatExchange', () => {
  const exchange: Exchange = {
    request: {
      method: 'POST',
      url: 'https://api.example/v1/widgets',
      headers: { authorization: 'Bearer [REDACTED]', 'content-type': 'application/json' },
      body: '{\n"name":"w"\n}',
    },
    response: {
      status: 201,
      headers: { 'content-type': 'application/json', location: '/v1/widgets/w1' },
      body: '{"id":"w1"}',
    },
    durationMs: 12,
  };

  it('renders request and response as an indented HTTP transcript', () => {
    expect(formatExchange(exchange)).toBe(
      [
        '  > POST https://api.example/v1/widgets',
        '  > authorization: Bearer [REDACTED]',
        '  > content-type: application/json',
        '  >',
        '  > {',
        '  > "name":"w"',
        '  > }',
        '  < HTTP 201 (12 ms)',
        '  < content-type: application/json',
        '  < location: /v1/widgets/w1',
        '  <',
        '  < {"id":"w1"}',
      ].join('\n'),
    );
  });

  it('uses the indent given', () => {
    const text = formatExchange(exchange, '');
    expect(text.split('\n')[0]).toBe('> POST https://api.example/v1/widgets');
    expect(formatExchange(exchange, '    ').split('\n').every((l) => l.startsWith('    '))).toBe(true);
  });

  it('omits the request body section when there is none and marks an empty response body', () => {
    const text = formatExchange({
      request: { method: 'DELETE', url: 'https://api.example/v1/widgets/w1', headers: {} },
      response: { status: 204, headers: {}, body: '' },
      durationMs: 3,
    });
    expect(text).toBe(['  > DELETE https://api.example/v1/widgets/w1', '  < HTTP 204 (3 ms)', '  <', '  < (empty body)'].join('\n'));
  });

  it('shows the error when no response arrived, or "unknown error" when none was recorded', () => {
    const request = { method: 'GET', url: 'https://api.example/v1/widgets', headers: { accept: 'application/json' } };
    expect(formatExchange({ request, error: 'connection refused', durationMs: 1 })).toBe(
      ['  > GET https://api.example/v1/widgets', '  > accept: application/json', '  < no response: connection refused'].join('\n'),
    );
    expect(formatExchange({ request, durationMs: 1 }).split('\n').at(-1)).toBe('  < no response: unknown error');
  });
});

describe('secrets inside URLs', () => {
  it('are redacted in their percent-encoded and form-encoded spellings too', () => {
    const secret = 'tok+abc/def== x';
    const redactor = new Redactor([secret]);
    const url = `http://h/v1/widgets?a=${encodeURIComponent(secret)}&${new URLSearchParams({ b: secret }).toString()}`;
    const out = redactor.text(url);
    expect(out).toBe('http://h/v1/widgets?a=[REDACTED]&b=[REDACTED]');
  });
});
