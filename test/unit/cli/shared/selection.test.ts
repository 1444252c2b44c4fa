/**
 * --only: rule ids and families, refused with a message naming the entry when unknown, and the
 * test-name pattern that picks exactly the tests of the selected rules.
 */
import { describe, expect, it } from 'vitest';
import { narrowsTests, parseOnly, parseOnlyWithTests, parseTestFilter, testNamePattern, titleSelected, type Selection } from '../../../../src/cli/shared/selection.ts';
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

describe('test-name filters: --test, --only RULE.text, --last-failed titles', () => {
  const TITLES = [
    'MAL-2 description longer than the limit is refused',
    'MAL-2 name longer than the limit is refused',
    "ISO-2 the second account cannot retrieve the first account's widget",
    'ISO-1 no page (of the walk) shows a widget',
    'CRUD-1 a create answers the widget',
  ];
  /** The titles the vitest pattern picks, checked against the runner's own filter (they must agree). */
  const picked = (selection: Selection): string[] => {
    const pattern = testNamePattern(selection);
    const byPattern = TITLES.filter((t) => pattern.test(t));
    expect(TITLES.filter((t) => selection.rules === undefined || selection.rules.has(t.split(' ')[0]!)).filter((t) => titleSelected(selection, t))).toEqual(byPattern);
    return byPattern;
  };

  it('--only MAL-2.description is the rule and a test-name filter', () => {
    const only = parseOnlyWithTests('MAL-2.description')!;
    expect([...only.rules]).toEqual(['MAL-2']);
    expect(only.tests).toEqual(['description']);
    expect(picked({ rules: only.rules, tests: [{ kind: 'text', text: 'description' }] })).toEqual([TITLES[0]]);
  });

  it('--only MAL-2 --test description picks the same test', () => {
    expect(picked({ rules: parseOnly('MAL-2'), tests: [parseTestFilter('description')!] })).toEqual([TITLES[0]]);
  });

  it('a substring filter is taken literally: regex characters, quotes and parentheses match themselves', () => {
    expect(picked({ tests: [parseTestFilter("first account's")!] })).toEqual([TITLES[2]]);
    expect(picked({ tests: [parseTestFilter('(of the walk)')!] })).toEqual([TITLES[3]]);
    expect(picked({ tests: [parseTestFilter('.*')!] })).toEqual([]);
  });

  it('/regex/flags is a regular expression over the whole title, flags included', () => {
    expect(picked({ tests: [parseTestFilter('/^crud-1 /i')!] })).toEqual([TITLES[4]]);
    expect(picked({ rules: parseOnly('MAL'), tests: [parseTestFilter('/(name|description) longer/')!] })).toEqual([TITLES[0], TITLES[1]]);
  });

  it('exact titles (--last-failed) pick those tests and no longer one that starts with them', () => {
    const titles = new Set([TITLES[1]!]);
    expect(picked({ rules: new Set(['MAL-2']), titles })).toEqual([TITLES[1]]);
    expect(testNamePattern({ titles }).test(`${TITLES[1]} again`)).toBe(false);
    expect(narrowsTests({ titles })).toBe(true);
    expect(narrowsTests({ rules: new Set(['MAL-2']) })).toBe(false);
  });

  it('refuses an empty filter, a regex that does not compile and the stateful flags, in one line', () => {
    expect(() => parseTestFilter(' ')).toThrow(ConfigError);
    expect(() => parseTestFilter('/(/')).toThrow(/--test: "\/\(\/" is not a regular expression/);
    expect(() => parseTestFilter('/a/g')).toThrow(/flags "g" are not allowed/);
    expect(() => parseOnlyWithTests('MAL-2.')).toThrow(/names no test after the "."/);
  });

  it('points an unknown entry at --test', () => {
    expect(() => parseOnly('MALX.description')).toThrow(/--test "<text>" picks tests by name/);
  });
});
