/** A transport failure in words (src/http/transport-errors.ts): each class of failure names its cause, and hints where one is known. */
import { describe, expect, it } from 'vitest';
import { describeTransportError, type FailureContext } from '../../../src/http/transport-errors.ts';
import { NoResponse, OverCap } from '../../../src/http/transport.ts';

const SECRET = 'secret-token-1234';
const CONTEXT: FailureContext = { byDeadline: false, timeoutMs: 1_500, maxResponseBytes: 1_024, redact: (text) => text.replaceAll(SECRET, '[REDACTED]') };
const describeIt = (thrown: unknown, context: Partial<FailureContext> = {}): string => describeTransportError(thrown, { ...CONTEXT, ...context });
const timeout = Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' });

describe('describeTransportError', () => {
  it('a timeout names --timeout, or the run budget when the deadline shortened it', () => {
    expect(describeIt(timeout)).toBe('no complete response within --timeout 1500 ms');
    expect(describeIt(timeout, { byDeadline: true })).toBe("no complete response before the run's time budget ran out");
    for (const code of ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']) {
      expect(describeIt(new NoResponse({ code })), code).toBe('no complete response within --timeout 1500 ms');
    }
  });

  it('a body over the cap names the cap', () => {
    expect(describeIt(new OverCap('response body over the cap'))).toBe('response body larger than 1024 bytes');
  });

  it('a refused connection and a name not found say so, the code on the error or its cause', () => {
    expect(describeIt(new NoResponse({ code: 'ECONNREFUSED' }))).toBe('connection refused');
    expect(describeIt(new NoResponse({ cause: { code: 'ENOTFOUND' } }))).toBe('host name not found (DNS)');
    expect(describeIt({ code: 'EAI_AGAIN' })).toBe('host name not found (DNS)');
  });

  it('a lost connection carries the note of what the client did about it', () => {
    expect(describeIt(new NoResponse({ code: 'ECONNRESET' }))).toBe('connection reset or closed before a complete response');
    expect(describeIt(new NoResponse({ code: 'UND_ERR_SOCKET' }, 'also on a retry over a fresh connection'))).toBe(
      'connection reset or closed before a complete response (also on a retry over a fresh connection)',
    );
  });

  it('an untrusted certificate points at --ca-file; a plain-HTTP answer to TLS asks for an http:// URL; others give the code alone', () => {
    expect(describeIt({ code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' })).toBe('TLS failure (UNABLE_TO_VERIFY_LEAF_SIGNATURE): a certificate from a private CA is trusted with --ca-file or NODE_EXTRA_CA_CERTS');
    expect(describeIt({ code: 'EPROTO', message: 'ssl3_get_record:wrong version number' })).toBe(
      'TLS failure (EPROTO): the server did not answer in TLS; does it speak plain HTTP (an http:// base URL)?',
    );
    expect(describeIt({ code: 'CERT_HAS_EXPIRED' })).toBe('TLS failure (CERT_HAS_EXPIRED)');
  });

  it('anything else keeps its code (or name) and message, redacted', () => {
    expect(describeIt(new NoResponse({ code: 'EWEIRD', message: `failed for ${SECRET}` }))).toBe('EWEIRD: failed for [REDACTED]');
    expect(describeIt(new TypeError('bad thing'))).toBe('TypeError: bad thing');
  });
});
