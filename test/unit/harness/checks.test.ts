/**
 * The comparisons behind "retrieve returns the widget exactly as create returned it": the
 * instant, not the notation, of created_at; an empty and an absent description as one.
 */
import { describe, expect, it } from 'vitest';
import { differingFields, sameDescription, sameInstant } from '../../../src/harness/checks.ts';

const CREATED = { id: 'w1', name: 'a widget', description: 'blue', created_at: '2026-01-02T03:04:05Z' };
/** The same instant as a number, as a server might (wrongly) send it. */
const CREATED_MS = Date.parse(CREATED.created_at);

describe('sameInstant', () => {
  it.each([
    ['a UTC offset', '2026-01-02T04:04:05+01:00'],
    ['a negative offset', '2026-01-01T22:04:05-05:00'],
    ['fractional seconds', '2026-01-02T03:04:05.000Z'],
    ['+00:00 for Z', '2026-01-02T03:04:05+00:00'],
    ['lowercase t and z', '2026-01-02t03:04:05z'],
  ])('takes the same instant written with %s as the same', (_, other) => {
    expect(sameInstant(CREATED.created_at, other)).toBe(true);
  });

  it('tells instants a millisecond apart', () => {
    expect(sameInstant('2026-01-02T03:04:05.000Z', '2026-01-02T03:04:05.001Z')).toBe(false);
  });

  it('compares strings that are not RFC 3339 as they are written', () => {
    expect(sameInstant('yesterday', 'yesterday')).toBe(true);
    expect(sameInstant('2026-01-02 03:04:05Z', '2026-01-02T03:04:05Z')).toBe(false);
  });

  it('compares values that are not strings with ===', () => {
    expect(sameInstant(undefined, undefined)).toBe(true);
    expect(sameInstant(CREATED_MS, CREATED_MS)).toBe(true);
    expect(sameInstant(undefined, CREATED.created_at)).toBe(false);
    expect(sameInstant(CREATED_MS, CREATED.created_at)).toBe(false);
  });
});

describe('sameDescription', () => {
  it('takes an empty and an absent description as the same, either way round', () => {
    expect(sameDescription('', undefined)).toBe(true);
    expect(sameDescription(undefined, '')).toBe(true);
    expect(sameDescription(undefined, undefined)).toBe(true);
  });

  it('does not take null as absent or empty', () => {
    expect(sameDescription(null, undefined)).toBe(false);
    expect(sameDescription(undefined, null)).toBe(false);
    expect(sameDescription(null, '')).toBe(false);
  });

  it('counts any other difference, whitespace included', () => {
    expect(sameDescription('blue', 'blue ')).toBe(false);
    expect(sameDescription('blue', undefined)).toBe(false);
    expect(sameDescription(' ', '')).toBe(false);
  });
});

describe('differingFields', () => {
  it('finds none when created_at comes back in another notation and extra fields are added', () => {
    expect(differingFields(CREATED, { ...CREATED, created_at: '2026-01-02T04:04:05.000+01:00', colour: 'red' })).toEqual([]);
  });

  it('finds none between a description sent empty and one left out', () => {
    const { description: _, ...without } = CREATED;
    expect(differingFields({ ...CREATED, description: '' }, without)).toEqual([]);
  });

  it('names description when it comes back null', () => {
    const { description: _, ...without } = CREATED;
    expect(differingFields(without, { ...without, description: null })).toEqual(['description']);
  });

  it('names every differing field, in the order id, name, description, created_at', () => {
    const got = { id: 'w2', name: 'A widget', description: 'green', created_at: '2026-01-02T03:04:06Z' };
    expect(differingFields(CREATED, got)).toEqual(['id', 'name', 'description', 'created_at']);
  });

  it('names a missing field', () => {
    const { name: _, ...without } = CREATED;
    expect(differingFields(CREATED, without)).toEqual(['name']);
  });

  it('reads an id written as an integer as its decimal text (its JSON type is FMT-3\'s to judge), and compares ids exactly otherwise', () => {
    expect(differingFields({ ...CREATED, id: '7' }, { ...CREATED, id: 7 })).toEqual([]);
    expect(differingFields({ ...CREATED, id: '07' }, { ...CREATED, id: 7 })).toEqual(['id']);
    expect(differingFields({ ...CREATED, id: '7' }, { ...CREATED, id: '7 ' })).toEqual(['id']);
  });
});
