/**
 * PROP-1 generators: every branch shrinks towards the smallest input. A server that refuses
 * long names must be shown the shortest refused name (one past its limit), made of spaces, in
 * a few dozen steps at most, never a string kept long by a fixed minimum length.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hardDescription, hardString, LONG_STRING_MAX } from '../../src/harness/arbitraries.ts';

const SEEDS = [1, 2, 3, 42, 20261121, -7, 2147483647];
/** Limits a server may set on long input, in code points: the shrunk counterexample is one past each. */
const LIMITS = [64, 255, 1000];
/** Most shrink steps a long string may take to reach the boundary (log2 of its length, and some). */
const MAX_SHRINKS = 40;
const SAMPLE = 2000;
/** Long strings keep their share of the draws: at least this many in SAMPLE over 300 code points. */
const MIN_LONG = 100;

const points = (s: string): number => [...s].length;

describe('hardString', () => {
  it('PROP-1 still draws long strings, up to LONG_STRING_MAX code points', () => {
    const lengths = fc.sample(hardString, { numRuns: SAMPLE, seed: 1 }).map(points);
    expect(lengths.filter((n) => n > 300).length).toBeGreaterThanOrEqual(MIN_LONG);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(LONG_STRING_MAX);
    expect(Math.min(...lengths)).toBeGreaterThanOrEqual(1);
  });

  for (const limit of LIMITS) {
    it(`PROP-1 shrinks a name over a limit of ${limit} to ${limit + 1} spaces, from every seed`, () => {
      for (const seed of SEEDS) {
        const details = fc.check(fc.property(fc.array(hardString, { minLength: 1, maxLength: 4 }), (values) => values.every((v) => points(v) <= limit)), { seed, numRuns: 200 });
        expect(details.failed, `seed ${seed}`).toBe(true);
        // fast-check's array shrinker keeps the tail of the array: a value after the failing one may stay, as a single space.
        const [values] = details.counterexample!;
        expect(values.filter((v) => points(v) > limit), `seed ${seed}`).toEqual([' '.repeat(limit + 1)]);
        expect(values.filter((v) => points(v) <= limit).every((v) => v === ' '), `seed ${seed}: ${JSON.stringify(values)}`).toBe(true);
        expect(details.numShrinks, `seed ${seed}`).toBeLessThanOrEqual(MAX_SHRINKS);
      }
    });
  }

  it('PROP-1 shrinks a name with a control character to that character, with at most the two edge spaces of its branch', () => {
    for (const seed of SEEDS) {
      const details = fc.check(fc.property(hardString, (v) => !/[\u0000-\u001f]/.test(v)), { seed, numRuns: 200 });
      expect(details.failed, `seed ${seed}`).toBe(true);
      expect(points(details.counterexample![0]), `seed ${seed}: ${JSON.stringify(details.counterexample![0])}`).toBeLessThanOrEqual(3);
    }
  });
});

describe('hardDescription', () => {
  it('PROP-1 shrinks a description over a limit to the boundary too', () => {
    for (const seed of SEEDS) {
      const details = fc.check(fc.property(hardDescription, (v) => points(v) <= 64), { seed, numRuns: 200 });
      expect(details.failed, `seed ${seed}`).toBe(true);
      expect(details.counterexample![0], `seed ${seed}`).toBe(' '.repeat(65));
    }
  });
});
