/** Redaction of secrets, and the recording and rendering of exchanges. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutBody, formatExchange, RECORDED_BODY_LIMIT, recordBody, type Exchange } from '../../../src/shared/exchange.ts';
import { redactBounded, REDACTED, Redactor, redactUrlCredentials, urlPassword } from '../../../src/shared/redact.ts';
import { TEXT_SPELLINGS, variantsOf } from '../../support/credential-forms.ts';

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
      expect(recordBody((x) => r.text(x), body, total, r.maxMatchLength)).toBe(cutBody(r.text(body), total));
      expect(recordBody((x) => x, body, total)).toBe(cutBody(body, total));
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

/** Windows this long of a credential must not survive redaction anywhere. */
const LEAK_WINDOW = 4;

function windows(text: string): string[] {
  const chars = [...text];
  return chars.slice(0, chars.length - LEAK_WINDOW + 1).map((_, i) => chars.slice(i, i + LEAK_WINDOW).join(''));
}

const ALIGNMENT_FILLER = Buffer.from([0x9c, 0x41, 0xe7, 0x0b, 0xd2]);

/** The base64 characters that carry only the credential's bits, where it sits in the blob. */
function base64Inside(blob: Buffer, start: number, length: number, alphabet: 'base64' | 'base64url'): { encoded: string; core: string } {
  const [bitsPerByte, bitsPerChar] = [8, 6];
  const encoded = blob.toString(alphabet);
  const first = Math.ceil((start * bitsPerByte) / bitsPerChar);
  const end = Math.floor(((start + length) * bitsPerByte) / bitsPerChar);
  return { encoded, core: encoded.slice(first, end) };
}

const LONG_TOKEN = 'ref-token_Alice/5f+2c';
const SHORT_TOKEN = 'k_y/7';

describe('Redactor.text finds every variant the suite sends in every spelling', () => {
  for (const [token, long] of [[LONG_TOKEN, true], [SHORT_TOKEN, false]] as const) {
    const r = new Redactor([token]);
    for (const v of variantsOf(token, long)) {
      const { credential } = v;
      for (const [spelling, spell] of TEXT_SPELLINGS) {
        it(`${spelling}: ${v.name} (${long ? 'long' : 'short'} token)`, () => {
          const [head, tail] = [`echo <${spell(v.before)}`, `${spell(v.after)}> end`];
          const out = r.text(head + spell(credential) + tail);
          // What surrounds the credential stays; the credential becomes one marker, whole.
          expect(out.startsWith(head) && out.endsWith(tail), out).toBe(true);
          expect(out.slice(head.length, out.length - tail.length)).toBe(REDACTED);
        });
      }
      for (const alphabet of ['base64', 'base64url'] as const) {
        for (const offset of [0, 1, 2]) {
          it(`${alphabet} at byte offset ${offset}: ${v.name} (${long ? 'long' : 'short'} token)`, () => {
            const head = Buffer.concat([ALIGNMENT_FILLER.subarray(0, 3 + offset), Buffer.from(v.before)]);
            const blob = Buffer.concat([head, Buffer.from(credential + v.after), ALIGNMENT_FILLER]);
            const { encoded, core } = base64Inside(blob, head.length, Buffer.byteLength(credential), alphabet);
            const out = r.text(`blob ${encoded} end`);
            expect(out).toContain(REDACTED);
            for (const w of windows(core)) expect(out, `window ${w}`).not.toContain(w);
          });
        }
      }
    }
  }

  it('as Basic credentials: base64 of "token:" and ":token", both alphabets', () => {
    const r = new Redactor([LONG_TOKEN]);
    for (const pair of [`${LONG_TOKEN}:`, `:${LONG_TOKEN}`, `alice:${LONG_TOKEN}`]) {
      for (const alphabet of ['base64', 'base64url'] as const) {
        const encoded = Buffer.from(pair).toString(alphabet);
        expect(r.text(`Basic ${encoded}`), `${pair} in ${alphabet}`).not.toMatch(new RegExp(encoded.slice(4, 12).replace(/[+/]/g, '\\$&')));
      }
    }
  });

  it('matches a short secret exactly: its other case and its prefix are ordinary text', () => {
    // A case-insensitive 4-character prefix of a 5-character secret would hide common words.
    const r = new Redactor([SHORT_TOKEN]);
    expect(r.text('K_Y/7 k_y/ k_y/7')).toBe('K_Y/7 k_y/ [REDACTED]');
  });

  it('leaves ordinary text without secrets unchanged', () => {
    const r = new Redactor([LONG_TOKEN, SHORT_TOKEN, 'p%ss&w\\rd-long-one']);
    const texts = [
      'Lorem ipsum dolor sit amet, consectetur adipiscing elit.',
      '{"id":"w1","name":"ref-widget_Alice\\/5","tags":["a&amp;b","100%"],"note":"\\u00e9t\\u00e9"}',
      'https://widgets.example/v1/widgets?limit=10&cursor=abc%2Fdef',
      'http://user@host:8080/v1 mailto:bob@example.com urn:isbn:0451450523',
      'Basic dXNlcjpwYXNz Bearer wcs-unknown-0123456789abcdef',
      '<p class="meta">Target &lt;x&gt; &#95; &#x5f;</p> a \\_ b \\\\ c',
      Buffer.from('an ordinary blob of bytes, nothing secret in it at all').toString('base64'),
    ];
    for (const text of texts) expect(r.text(text)).toBe(text);
  });

  it('finds secrets holding characters that start escapes (\\ % &), raw or escaped', () => {
    const secret = 'p%25ss&amp;w\\rd-long';
    const r = new Redactor([secret]);
    for (const [spelling, spell] of TEXT_SPELLINGS) {
      const out = r.text(`<${spell(secret)}>`);
      expect(out, spelling).toBe(`<${REDACTED}>`);
    }
  });

  // Every character's spellings are prefix-free except for \ % &, which are matched atomically,
  // so a hostile text can make a match attempt cost O(secret length), never exponential.
  // Timings for ordinary input are in src/shared/redact.ts; the bound here is only generous.
  it('stays fast on text built to make a backtracking matcher explode', () => {
    const secret = `${'\\'.repeat(12)}%&%&zz`;
    const r = new Redactor([secret]);
    const hostile = `${'\\\\'.repeat(20_000)}${'%25&amp;'.repeat(20_000)}y`;
    const started = performance.now();
    expect(r.text(hostile)).toBe(hostile);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('URL credentials', () => {
  it.each([
    ['https://alice:s3cret@widgets.example/v1', `https://alice:${REDACTED}@widgets.example/v1`],
    ['ftp://u:p@h/file', `ftp://u:${REDACTED}@h/file`],
    ['see postgres://app:pa%40ss@db:5432/main now', `see postgres://app:${REDACTED}@db:5432/main now`],
    ['redis://:only-password@cache', `redis://:${REDACTED}@cache`],
    ['http://a@b:p@ss@host/v1', `http://a@b:${REDACTED}@host/v1`],
    ['{"url":"https:\\/\\/u:p@h\\/v1"}', `{"url":"https:\\/\\/u:${REDACTED}@h\\/v1"}`],
    ['HTTPS://U:P@H', `HTTPS://U:${REDACTED}@H`],
    ['a http://x:1@h and b git+ssh://git:tok@host', `a http://x:${REDACTED}@h and b git+ssh://git:${REDACTED}@host`],
  ])('hides the password in %s', (text, expected) => {
    expect(redactUrlCredentials(text)).toBe(expected);
    expect(new Redactor([]).text(text)).toBe(expected);
  });

  it.each([
    'https://user@host/v1',
    'http://host:8080/path',
    'mailto:bob@example.com',
    'https://host/v1?next=http%3A%2F%2Fx%3A1%40h',
    'plain text: with @ signs',
  ])('leaves %s alone', (text) => {
    expect(redactUrlCredentials(text)).toBe(text);
  });

  it.each([
    ['https://user:pass@host/v1', 'pass'],
    ['ftp://u:p@h', 'p'],
    ['http://u:p a@ss@host/v1', 'p a@ss'],
    ['http://u:p:q@host', 'p:q'],
    [' https://u:x@h ', 'x'],
    ['https://host/v1', undefined],
    ['https://user@host/v1', undefined],
    ['https://u:@host', undefined],
    ['https://host/a:b@c', undefined],
    ['not a url', undefined],
    ['u:p@host', undefined],
  ])('urlPassword(%s) is %s', (raw, expected) => {
    expect(urlPassword(raw)).toBe(expected);
  });
});

describe('redactBounded', () => {
  const r = new Redactor([LONG_TOKEN]);

  it('redacts a text shorter than the limit whole', () => {
    expect(redactBounded(r, `a ${LONG_TOKEN} b`, 100)).toEqual({ text: `a ${REDACTED} b`, cut: false });
  });

  it('replaces a credential that straddles the cut whole', () => {
    const text = `${'.'.repeat(10)}${LONG_TOKEN}${'.'.repeat(100)}`;
    expect(redactBounded(r, text, 15)).toEqual({ text: `${'.'.repeat(10)}${REDACTED}`, cut: true });
    expect(redactBounded(r, text, 10)).toEqual({ text: '.'.repeat(10), cut: true });
  });

  it('never splits a surrogate pair', () => {
    expect(redactBounded(r, '😀😀😀', 3)).toEqual({ text: '😀', cut: true });
  });

  it('reads only a window of a huge text', () => {
    const huge = `${'.'.repeat(RECORDED_BODY_LIMIT - 5)}${LONG_TOKEN}${'x'.repeat(8 * 1024 * 1024)}`;
    const { text, cut } = redactBounded(r, huge, RECORDED_BODY_LIMIT);
    expect(cut).toBe(true);
    expect(text).toBe(`${'.'.repeat(RECORDED_BODY_LIMIT - 5)}${REDACTED}`);
  });

  it('is a prefix of the whole text redacted, and never shows part of a credential, wherever it cuts', () => {
    const spellings = TEXT_SPELLINGS.map(([, spell]) => spell(LONG_TOKEN));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat({ max: 40 }), fc.nat({ max: spellings.length - 1 })), { maxLength: 4 }),
        fc.nat({ max: 400 }),
        (pieces, limit) => {
          const text = pieces.map(([gap, i]) => `${'.'.repeat(gap)}${spellings[i]}`).join('') + '.';
          const out = redactBounded(r, text, limit);
          expect(out.cut).toBe(text.length > limit);
          expect(r.text(text).startsWith(out.text)).toBe(true);
          // Only filler and whole markers remain.
          expect(out.text.split(REDACTED).join('')).toMatch(/^\.*$/);
          expect(out.text.length).toBeLessThanOrEqual(limit + REDACTED.length);
        },
      ),
      { seed: 20_261_121, numRuns: 300 },
    );
  });
});
