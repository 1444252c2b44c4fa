/**
 * recordBody: a recorded body is redacted over a bounded window only, yet no secret leaks
 * at the cut, and the note of the total size stays.
 */
import { describe, expect, it } from 'vitest';
import { RECORDED_BODY_LIMIT, REDACTION_MARGIN_CHARS, recordBody } from '../../../src/shared/exchange.ts';
import { Redactor } from '../../../src/shared/redact.ts';

const SECRET = 'sk-live-7f3a9c0e51b24d86';
const redactor = new Redactor([SECRET]);
const redact = (s: string): string => redactor.text(s);

/** A redact function that records the length of every string it is given. */
function measuring(): { fn: (s: string) => string; seen: number[] } {
  const seen: number[] = [];
  return { fn: (s) => (seen.push(s.length), redact(s)), seen };
}

describe('recordBody', () => {
  it('returns a short body redacted and uncut', () => {
    expect(recordBody(redact, `{"token":"${SECRET}"}`, 30)).toBe('{"token":"[REDACTED]"}');
  });

  it('redacts only a window of a megabyte body, and cuts it with the note', () => {
    const text = 'a'.repeat(1024 * 1024);
    const { fn, seen } = measuring();
    const recorded = recordBody(fn, text, text.length);
    expect(seen).toEqual([RECORDED_BODY_LIMIT + REDACTION_MARGIN_CHARS]);
    expect(recorded).toBe(`${'a'.repeat(RECORDED_BODY_LIMIT)}\n… [body cut at ${RECORDED_BODY_LIMIT} bytes of ${text.length}]`);
  });

  it('redacts a secret that straddles the cut: no prefix of it is recorded', () => {
    const text = `${'a'.repeat(RECORDED_BODY_LIMIT - 5)}${SECRET}${'b'.repeat(10_000)}`;
    const recorded = recordBody(redact, text, text.length);
    expect(recorded).not.toContain(SECRET.slice(0, 5));
    expect(recorded.startsWith('a'.repeat(RECORDED_BODY_LIMIT - 5))).toBe(true);
  });

  it('widens the window when redaction shrinks it, so a secret cut by the window never reaches the recording', () => {
    // Long secrets back to back: redacted, the first window is far shorter than the limit.
    const long = `tok-${'x'.repeat(200)}`;
    const r = new Redactor([long]);
    const text = long.repeat(1_000);
    const recorded = recordBody((s) => r.text(s), text, text.length);
    expect(recorded).not.toContain('tok-x');
    // Only redaction marks are kept (the last one may be cut short by the byte limit).
    expect(recorded).toMatch(/^(\[REDACTED\])+\[?[A-Z]*\n… \[body cut at 4096 bytes of \d+\]$/);
  });

  it('notes the cut for a body that is cut, even when what is kept is all redactions', () => {
    const text = `${SECRET} `.repeat(2_000);
    const recorded = recordBody(redact, text, text.length);
    expect(recorded).toContain(`… [body cut at ${RECORDED_BODY_LIMIT} bytes of ${text.length}]`);
    expect(recorded).not.toContain(SECRET);
  });
});
