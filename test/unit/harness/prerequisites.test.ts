/**
 * Prerequisites about the JSON types the Widget schema gives (FMT-3): a check that would conclude
 * from a field of the wrong type (a list id written as a number, a name that is not a string)
 * records FMT-3's evidence and ends inconclusive naming it, instead of failing its own rule.
 */
import { describe, expect, it } from 'vitest';
import { InconclusiveError } from '../../../src/errors.ts';
import { ConformanceFailure } from '../../../src/harness/failure.ts';
import { requireStringField, requireStringIds } from '../../../src/harness/prerequisites.ts';
import { contextOf, exchangeOf, walkOf } from '../support/walks.ts';

const widget = (id: unknown, name: unknown = 'a widget'): Record<string, unknown> => ({ id, name, created_at: '2026-01-02T03:04:05Z' });

describe('requireStringIds', () => {
  it('holds for a walk whose every id is a string', () => {
    const { t, evidence } = contextOf('PAGE-3');
    expect(() => requireStringIds(t, walkOf([{ json: { data: [widget('w1'), widget('w2')], has_more: false } }]), 'find w3')).not.toThrow();
    expect(evidence).toEqual([]);
  });

  it('ends the check inconclusive on FMT-3, with the page that shows it as FMT-3\'s evidence, when an id is not a string', () => {
    const { t, evidence } = contextOf('PAGE-3');
    const walk = walkOf([
      { json: { data: [widget('w1')], has_more: true, next_cursor: 'c' } },
      { json: { data: [widget(2), widget({ $oid: '3' })], has_more: false } },
    ], { kind: 'complete' }, 1);
    const error = (() => { try { requireStringIds(t, walk, 'tell whether w3 is missing'); } catch (e) { return e; } })();
    expect(error).toBeInstanceOf(InconclusiveError);
    expect((error as InconclusiveError).dependsOn).toEqual(['FMT-3']);
    expect(evidence).toHaveLength(1);
    expect(evidence[0]).toMatchObject({ rule: 'FMT-3', exchanges: [exchangeOf(2)] });
    // The ids as the server sent them: no page printed as [] while it held widgets.
    expect(evidence[0]!.received).toBe('2 widget(s) whose id is not a string, on page(s) 2: 1:[w1] 2:[2 (number), {"$oid":"3"} (object)]');
    expect(evidence[0]!.expected).toContain('to tell whether w3 is missing');
  });

  it('fails FMT-3\'s own check instead (a rule never depends on itself)', () => {
    const { t } = contextOf('FMT-3');
    expect(() => requireStringIds(t, walkOf([{ json: { data: [widget(7)], has_more: false } }]), 'find w3')).toThrow(ConformanceFailure);
  });
});

describe('requireStringField', () => {
  const res = { exchange: exchangeOf(1) };

  it('holds for a string name, and for a description that is a string or absent', () => {
    const { t } = contextOf('PROP-1');
    expect(() => requireStringField(t, widget('w1', 'n'), 'name', res, 'the widget')).not.toThrow();
    expect(() => requireStringField(t, { ...widget('w1'), description: '' }, 'description', res, 'the widget')).not.toThrow();
    expect(() => requireStringField(t, widget('w1'), 'description', res, 'the widget')).not.toThrow();
  });

  it.each([
    ['a name written as a number', 'name', 123, 'name 123 (number)'],
    ['an absent name', 'name', undefined, 'no name'],
    ['a description that is null', 'description', null, 'description null (null)'],
  ] as const)('ends the check inconclusive on FMT-3 for %s, the type being FMT-3\'s to judge', (_, field, value, received) => {
    const { t, evidence } = contextOf('PROP-1');
    const item = { ...widget('w1'), [field]: value };
    const error = (() => { try { requireStringField(t, item, field, res, 'widget w1 in the list'); } catch (e) { return e; } })();
    expect(error).toBeInstanceOf(InconclusiveError);
    expect((error as InconclusiveError).dependsOn).toEqual(['FMT-3']);
    expect(evidence).toEqual([{ rule: 'FMT-3', expected: `widget w1 in the list with its ${field} a string (the Widget schema)`, received, exchanges: [exchangeOf(1)] }]);
  });
});
