/**
 * Last line of defence for "no token in any output": every write to stdout and stderr of
 * the runner process (which also carries what vitest relays from its workers) passes
 * through the redactor.
 */
import type { Redactor } from '../http/redact.ts';

/** Wraps process.stdout/stderr so every write is redacted. */
export function redactProcessOutput(redactor: Redactor, beforeWrite?: () => void): void {
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]): boolean => {
      // A worker may have renewed a token since the last write: the redactor learns it first.
      beforeWrite?.();
      const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) || chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : chunk;
      return write(typeof text === 'string' ? redactor.text(text) : text, ...rest);
    }) as typeof stream.write;
  }
}
