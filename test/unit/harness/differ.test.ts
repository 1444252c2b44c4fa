/** Failure messages name what differs, field by field (issue 11): the differ behind them. */
import { describe, expect, it } from 'vitest';
import { describeDifferences, differingFields } from '../../../src/harness/differ.ts';
import { pageEnvelope } from '../../../src/schema.ts';

const CREATED = { id: 'w1', name: 'a widget', description: 'blue', created_at: '2026-01-02T03:04:05Z' };

describe('describeDifferences', () => {
  it('names a dropped description, with the value on each side', () => {
    const { description: _gone, ...retrieved } = CREATED;
    expect(describeDifferences(CREATED, retrieved, 'created', 'retrieved')).toBe('description: created "blue", retrieved nothing (undefined)');
  });

  it('names every differing field, and the type of an id sent as a number', () => {
    const got = { ...CREATED, id: 1, name: 'other' };
    expect(differingFields(CREATED, got)).toEqual(['id', 'name']);
    expect(describeDifferences(CREATED, got, 'before', 'after')).toBe('id: before "w1", after 1; name: before "a widget", after "other"');
  });

  it('takes an id written as an integer JSON number for the same id (its type is FMT-3\'s), and no other value', () => {
    const numbered = { ...CREATED, id: '7' };
    expect(differingFields(numbered, { ...numbered, id: 7 })).toEqual([]);
    expect(differingFields({ ...numbered, id: 7 }, numbered)).toEqual([]);
    expect(differingFields(numbered, { ...numbered, id: 8 })).toEqual(['id']);
    expect(differingFields(numbered, { ...numbered, id: 7.5 })).toEqual(['id']);
    expect(differingFields(numbered, { ...numbered, id: { $oid: '7' } })).toEqual(['id']);
    expect(differingFields({ ...numbered, id: '07' }, { ...numbered, id: 7 })).toEqual(['id']);
  });

  it('is empty when only the notation of created_at differs', () => {
    expect(describeDifferences(CREATED, { ...CREATED, created_at: '2026-01-02T04:04:05+01:00' }, 'a', 'b')).toBe('');
  });
});

describe('pageEnvelope', () => {
  it("leaves a page's items out, so a Widget fault is not also a page fault", () => {
    expect(pageEnvelope({ data: [{ id: 1 }], has_more: false })).toEqual({ data: [], has_more: false });
  });

  it('keeps a data that is not an array, for the page schema to refuse', () => {
    expect(pageEnvelope({ data: 'x', has_more: false })).toEqual({ data: 'x', has_more: false });
  });
});

describe('fields that are not strings (FMT-3 judges their type; other rules compare them by value)', () => {
  const deep = (): unknown => JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);

  it('two answers holding the same non-string value do not differ, however deep', () => {
    expect(differingFields({ ...CREATED, name: deep() }, { ...CREATED, name: deep() })).toEqual([]);
    expect(differingFields({ ...CREATED, name: { a: [1, { b: null }] } }, { ...CREATED, name: { a: [1, { b: null }] } })).toEqual([]);
  });

  it('different non-string values differ', () => {
    expect(differingFields({ ...CREATED, name: [1] }, { ...CREATED, name: [2] })).toEqual(['name']);
    expect(differingFields({ ...CREATED, description: { a: 1 } }, { ...CREATED, description: { a: 1, b: 2 } })).toEqual(['description']);
    expect(differingFields({ ...CREATED, name: [] }, { ...CREATED, name: {} })).toEqual(['name']);
  });
});
