/**
 * PROP-1 generators: every branch shrinks towards the smallest input. A server that refuses
 * long names must be shown the shortest refused name (one past its limit), made of spaces, in
 * a few dozen steps at most, never a string kept long by a fixed minimum length.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COERCIBLE, hardDescription, hardString, LONG_STRING_MAX, LONGEST_ORDINARY_DESCRIPTION, LONGEST_ORDINARY_NAME, ordinaryDescription, ordinaryName } from '../../../src/harness/arbitraries.ts';

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

describe('ordinary input at its bounds', () => {
  const sample = (arb: fc.Arbitrary<string>) => fc.sample(arb, { seed: 7, numRuns: 2000 });

  it('PROP-2 names stay ordinary: 1 to 32 printable ASCII characters, no space at either end', () => {
    for (const name of sample(ordinaryName)) expect(name).toMatch(/^[\x21-\x7e]([\x20-\x7e]{0,30}[\x21-\x7e])?$/);
  });

  it('PROP-2 descriptions stay ordinary: 0 to 64 printable ASCII characters, no space at either end', () => {
    for (const description of sample(ordinaryDescription)) expect(description).toMatch(/^([\x21-\x7e]([\x20-\x7e]{0,62}[\x21-\x7e])?)?$/);
  });

  it('PROP-2 draws names near the upper bound often: over 24 characters in more than one in ten', () => {
    const names = sample(ordinaryName);
    // The fixed 32-character example meets a limit at 24 characters on every run
    // (property-power.test.ts); the random names meet it too, often, at any --runs.
    expect(names.filter((n) => n.length > 24).length / names.length).toBeGreaterThan(0.1);
    expect(names.some((n) => n.length === 32)).toBe(true);
    expect(names.some((n) => n.length === 1)).toBe(true);
  });

  it('PROP-2 draws descriptions at both bounds, 0 and 64', () => {
    const descriptions = sample(ordinaryDescription);
    expect(descriptions.some((d) => d.length === 64)).toBe(true);
    expect(descriptions.some((d) => d.length === 0)).toBe(true);
  });

  it('PROP-2 the fixed longest examples are exactly 32 and 64 printable characters, no space at the ends', () => {
    expect(LONGEST_ORDINARY_NAME).toMatch(/^[\x21-\x7e][\x20-\x7e]{30}[\x21-\x7e]$/);
    expect(LONGEST_ORDINARY_DESCRIPTION).toMatch(/^[\x21-\x7e][\x20-\x7e]{62}[\x21-\x7e]$/);
  });

  it('PROP-2 the coercible values are ordinary names, each once', () => {
    expect(new Set(COERCIBLE).size).toBe(COERCIBLE.length);
    for (const value of COERCIBLE) expect(value).toMatch(/^[\x21-\x7e]{1,32}$/);
  });
});
