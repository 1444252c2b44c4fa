/**
 * The random choices a test makes (a made-up cursor, an unknown token, an id no widget has, a
 * description), drawn from the run seed (--seed) and the test's own title: a rerun or replay with
 * the printed seed sends the same requests, whichever other tests run beside it and in whatever
 * order. Each test has its own stream, so one test's draws never shift another's. Not for
 * secrets: SHA-256 in counter mode, chosen for being the same on every platform, not for
 * being unpredictable (nothing here needs to be).
 *
 * What stays random per run, on purpose: the run marker (harness/marker.ts), which must differ
 * between runs so that one run's cleanup never takes another run's widgets for its own; it is no
 * choice of a test, and the replay compares requests with it masked.
 */
import { createHash } from 'node:crypto';

/** A deterministic stream of bytes and numbers from a seed and a key. */
export class SeededRandom {
  private block = Buffer.alloc(0);
  private used = 0;
  private counter = 0;

  private constructor(private readonly root: Buffer) {}

  /** The stream of `key` (a test title, "first contact") under the run seed. */
  static of(seed: number, key: string): SeededRandom {
    return new SeededRandom(createHash('sha256').update(`widget-conformance random v1:${seed}:${key}`).digest());
  }

  /** The next `n` bytes. */
  bytes(n: number): Buffer {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i += 1) {
      if (this.used >= this.block.length) {
        this.block = createHash('sha256').update(this.root).update(String(this.counter)).digest();
        this.counter += 1;
        this.used = 0;
      }
      out[i] = this.block[this.used] as number;
      this.used += 1;
    }
    return out;
  }

  /** An integer in [0, max): `max` at most 2^32, drawn without modulo bias. */
  int(max: number): number {
    if (!Number.isInteger(max) || max < 1 || max > 2 ** 32) throw new RangeError(`int(${max}): max must be an integer from 1 to 2^32`);
    // Rejection sampling: values in the last partial range of 2^32 would favour small results.
    const limit = 2 ** 32 - (2 ** 32 % max);
    for (;;) {
      const value = this.bytes(4).readUInt32BE(0);
      if (value < limit) return value % max;
    }
  }

  /** `n` bytes as lower-case hex. */
  hex(n: number): string {
    return this.bytes(n).toString('hex');
  }
}
