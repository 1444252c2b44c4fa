/** From raw bytes to the answer a check sees (src/http/answer.ts): decoded, parsed, recorded redacted; a prefix when cut at the cap. */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { prefixAnswer, wholeAnswer, type ApiResponse, type Recording } from '../../../src/http/answer.ts';
import { Redactor } from '../../../src/shared/redact.ts';
import type { RawResponse } from '../../../src/http/transport.ts';

const SECRET = 'secret-token-1234';
const CAP = 64;
const recording: Recording = {
  request: { method: 'GET', url: 'http://127.0.0.1:1/v1/widgets', headers: {} },
  startedAt: '2025-01-01T00:00:00.000Z',
  elapsed: () => 7,
  redactor: new Redactor([SECRET]),
  maxResponseBytes: CAP,
};
const raw = (bytes: Buffer, headers: Record<string, string> = {}, truncated = false): RawResponse => ({ status: 200, headers, bytes, truncated });

function answer(result: ReturnType<typeof wholeAnswer>): ApiResponse {
  if ('tooLargeAfter' in result) throw new Error(`expected an answer, got too large after ${result.tooLargeAfter}`);
  return result;
}

describe('wholeAnswer', () => {
  it('parses JSON and records the body with the secret hidden, the text as it came', () => {
    const res = answer(wholeAnswer(raw(Buffer.from(`{"name":"${SECRET}"}`)), recording));
    expect(res.json).toEqual({ name: SECRET });
    expect(res.exchange.response?.body).not.toContain(SECRET);
    expect([res.exchange.durationMs, res.exchange.startedAt]).toEqual([7, recording.startedAt]);
  });

  it('decodes a gzip body the server sent anyway', () => {
    const res = answer(wholeAnswer(raw(gzipSync('[1,2]'), { 'content-encoding': 'gzip' }), recording));
    expect([res.json, res.jsonError]).toEqual([[1, 2], undefined]);
  });

  it('a coding it cannot decode is the server\'s fault: jsonError names it, the recording shows no bytes', () => {
    const res = answer(wholeAnswer(raw(Buffer.from('xyz'), { 'content-encoding': 'zstd' }), recording));
    expect(res.json).toBeUndefined();
    expect(res.jsonError).toContain('"zstd"');
    expect(res.exchange.response?.body).toMatch(/^\(3 bytes not shown: /);
  });

  it('a body that decodes past the cap is not an answer: it names the coding', () => {
    expect(wholeAnswer(raw(gzipSync(Buffer.alloc(CAP * 4)), { 'content-encoding': 'gzip' }), recording)).toEqual({ tooLargeAfter: 'gzip' });
  });
});

describe('prefixAnswer', () => {
  it('an answer cut at the cap: the prefix as text, no JSON, the reason, flagged truncated', () => {
    const res = prefixAnswer(raw(Buffer.from('{"items":[1,2'), {}, true), recording);
    expect([res.text, res.json, res.truncated]).toEqual(['{"items":[1,2', undefined, true]);
    expect(res.jsonError).toBe(`the body is larger than the cap of ${CAP} bytes: only its first ${CAP} bytes were read`);
  });

  it('a prefix still encoded gives no text (it is not the body\'s text) and says how it is encoded', () => {
    const res = prefixAnswer(raw(gzipSync('[1]').subarray(0, 8), { 'content-encoding': 'gzip' }, true), recording);
    expect(res.text).toBe('');
    expect(res.jsonError).toMatch(/\(still encoded as gzip\)$/);
  });
});
