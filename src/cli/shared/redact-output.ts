/**
 * Last line of defence for "no token in any output" on the console: every write to stdout and
 * stderr of the runner process (which also carries what vitest relays from its workers) is
 * searched for the secrets long enough to be told from chance text (8 characters or more),
 * which are hidden. Secrets left the data before this (shared/redact.ts): a shorter token is
 * not looked for here, since its letters are the suite's own words and numbers
 * ("Requests: 10" with the token `1`).
 */
import type { Redactor } from '../../shared/redact.ts';

/** Wraps process.stdout/stderr so every write is redacted. */
export function redactProcessOutput(redactor: Redactor, beforeWrite?: () => void): void {
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]): boolean => {
      // A worker may have renewed a token since the last write: the redactor learns it first.
      beforeWrite?.();
      const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) || chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : chunk;
      return write(typeof text === 'string' ? redactor.longSecretsText(text) : text, ...rest);
    }) as typeof stream.write;
  }
}
