/**
 * --only: rule ids and families, refused with a message naming the entry when unknown, and the
 * test-name pattern that picks exactly the tests of the selected rules.
 */
import { describe, expect, it } from 'vitest';
import { parseOnly, testNamePattern } from '../../../../src/cli/shared/selection.ts';
import { ConfigError } from '../../../../src/config.ts';
import { familyOf, RULES } from '../../../../src/rules.ts';

const idsOf = (family: string): string[] => RULES.filter((r) => familyOf(r.id) === family).map((r) => r.id);
const sorted = (set: ReadonlySet<string> | undefined): string[] => [...(set ?? [])].sort();

describe('parseOnly', () => {
  it('selects every rule when --only is not given', () => {
    expect(parseOnly(undefined)).toBeUndefined();
  });

  it('takes a family for all its rules', () => {
    expect(sorted(parseOnly('AUTH'))).toEqual(idsOf('AUTH').sort());
  });

  it('mixes ids and families, in any letter case and with spaces', () => {
    expect(sorted(parseOnly(' page-3 , auth ,CRUD-1'))).toEqual(['CRUD-1', 'PAGE-3', ...idsOf('AUTH')].sort());
  });

  it('counts a rule named twice once', () => {
    expect(sorted(parseOnly('PAGE-3,PAGE,page-3'))).toEqual(idsOf('PAGE').sort());
  });

  it('ignores empty entries between commas', () => {
    expect(sorted(parseOnly('PAGE-3,,'))).toEqual(['PAGE-3']);
  });

  it('refuses an empty list, with an example', () => {
    expect(() => parseOnly(' , ')).toThrow(ConfigError);
    expect(() => parseOnly('')).toThrow('--only needs at least one rule id or family, e.g. --only AUTH,PAGE-3');
  });

  it.each(['PAGE-99', 'PAGES', 'PAGE-', 'PAGE-3X'])('refuses %s, naming it and the families', (entry) => {
    const families = [...new Set(RULES.map((r) => familyOf(r.id)))].join(', ');
    expect(() => parseOnly(`AUTH,${entry}`)).toThrow(ConfigError);
    expect(() => parseOnly(`AUTH,${entry}`)).toThrow(`--only: no rule or family "${entry}"; families are ${families}`);
  });
});

describe('testNamePattern', () => {
  /** Titles of rules that do not exist (yet): a selection must not reach them by prefix. */
  const LONGER_IDS = ['PAGE-30', 'PAGE-31', 'AUTH-10', 'CRUD-40'];
  const title = (id: string): string => `${id} some outcome`;

  it('matches the title of every selected rule and of no other, including longer ids that share a prefix', () => {
    const selected = new Set(['PAGE-3', 'AUTH-1', 'CRUD-4']);
    const pattern = testNamePattern(selected);
    for (const id of [...RULES.map((r) => r.id), ...LONGER_IDS]) expect(pattern.test(title(id)), id).toBe(selected.has(id));
  });

  it('matches only at the start of the title', () => {
    const pattern = testNamePattern(new Set(['PAGE-3']));
    expect(pattern.test('XPAGE-3 x')).toBe(false);
    expect(pattern.test('PROP-1 after PAGE-3 x')).toBe(false);
  });

  it('needs the space after the id: PAGE-3x is another title', () => {
    expect(testNamePattern(new Set(['PAGE-3'])).test('PAGE-3x y')).toBe(false);
  });

  it('selects a whole family parsed from --only and nothing else', () => {
    const pattern = testNamePattern(parseOnly('ISO') ?? new Set());
    expect(RULES.map((r) => r.id).filter((id) => pattern.test(title(id)))).toEqual(idsOf('ISO'));
  });
});
