/**
 * What a run selects: `--only` (rule ids or families: PAGE-3, AUTH; `RULE.text` is the rule and
 * a test-name filter in one), `--test` (a test-name filter below --only, as vitest's `-t`: a
 * substring of the title, or `/regex/flags`) and `--last-failed` (the rules and tests that broke
 * in the report directory's previous run: last-failed.ts reads it).
 */
import { ConfigError } from '../../config.ts';
import { familyOf, RULES } from '../../rules.ts';

/** The selected rule ids, or undefined for every rule; throws ConfigError naming an unknown entry. */
export function parseOnly(raw: string | undefined): ReadonlySet<string> | undefined {
  return parseOnlyWithTests(raw)?.rules;
}

/** --only split into rule ids and the `RULE.text` test-name filters some of its entries carry. */
export interface OnlySelection {
  readonly rules: ReadonlySet<string>;
  /** Test-name substrings from `RULE.text` entries (e.g. `MAL-2.description`). */
  readonly tests: readonly string[];
}

/** --only with `RULE.text` entries read as the rule plus a test-name filter; throws ConfigError naming an unknown entry. */
export function parseOnlyWithTests(raw: string | undefined): OnlySelection | undefined {
  if (raw === undefined) return undefined;
  const entries = raw.split(',').map((e) => e.trim()).filter((e) => e !== '');
  if (entries.length === 0) throw new ConfigError('--only needs at least one rule id or family, e.g. --only AUTH,PAGE-3');
  const families = [...new Set(RULES.map((r) => familyOf(r.id)))];
  const selected = new Set<string>();
  const tests: string[] = [];
  for (const given of entries) {
    const dot = given.indexOf('.');
    const entry = (dot < 0 ? given : given.slice(0, dot)).toUpperCase();
    const text = dot < 0 ? undefined : given.slice(dot + 1);
    const matching = RULES.filter((r) => r.id === entry || familyOf(r.id) === entry);
    if (matching.length === 0) {
      throw new ConfigError(`--only: no rule or family ${JSON.stringify(entry)}; families are ${families.join(', ')} (--list shows every id; --test "<text>" picks tests by name within them)`);
    }
    if (text !== undefined) {
      if (text.trim() === '') throw new ConfigError(`--only: ${JSON.stringify(given)} names no test after the ".": write ${entry}.<part of a test name>, or use --test "<text>"`);
      tests.push(text);
    }
    for (const r of matching) selected.add(r.id);
  }
  return { rules: selected, tests };
}

/** A test-name filter: a substring of the title, or a regular expression given as `/source/flags`. */
export type TestFilter = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'regex'; readonly regex: RegExp };

/** The longest --test value: a title is a line; a long pattern only costs matching time. */
const MAX_TEST_FILTER = 1000;

/** --test parsed; throws ConfigError for an empty value or a regular expression that does not compile. */
export function parseTestFilter(raw: string | undefined): TestFilter | undefined {
  if (raw === undefined) return undefined;
  if (raw.trim() === '') throw new ConfigError('--test needs part of a test name (or /regex/), e.g. --test "unknown ids"');
  if (raw.length > MAX_TEST_FILTER) throw new ConfigError(`--test: longer than ${MAX_TEST_FILTER} characters`);
  const m = /^\/(.*)\/([a-z]*)$/s.exec(raw);
  if (!m) return { kind: 'text', text: raw };
  const flags = m[2]!;
  if (!/^[imsu]*$/.test(flags)) throw new ConfigError(`--test: the flags ${JSON.stringify(flags)} are not allowed (i, m, s and u are)`);
  try {
    return { kind: 'regex', regex: new RegExp(m[1]!, flags) };
  } catch (error) {
    throw new ConfigError(`--test: ${JSON.stringify(raw)} is not a regular expression (${(error as Error).message.split('\n')[0]})`);
  }
}

/** What a run's tests are chosen by; every field absent means every test of the catalogue. */
export interface Selection {
  /** Rule ids (--only, or --last-failed); every rule when absent. */
  readonly rules?: ReadonlySet<string>;
  /** Test-name filters (--test, `RULE.text`): a test runs when it matches any of them. */
  readonly tests?: readonly TestFilter[];
  /** Exact titles (--last-failed at test level): a test runs when its title is one of them. */
  readonly titles?: ReadonlySet<string>;
}

/** True when the selection leaves out tests of a selected rule (a --test filter or --last-failed titles). */
export function narrowsTests(selection: Selection): boolean {
  return (selection.tests?.length ?? 0) > 0 || selection.titles !== undefined;
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Whether a title passes the test-name filters and titles of a selection (the rule part aside). */
export function titleSelected(selection: Selection, title: string): boolean {
  const byFilter = !selection.tests?.length || selection.tests.some((f) => (f.kind === 'text' ? title.includes(f.text) : new RegExp(f.regex.source, f.regex.flags.replace(/[gy]/g, '')).test(title)));
  const byTitle = selection.titles === undefined || selection.titles.has(title);
  return byFilter && byTitle;
}

/**
 * A vitest test-name pattern matching the tests of the selected rules (titles start with the id
 * and a space), narrowed by the selection's test-name filters and titles. One regular expression,
 * as vitest takes: each further condition is a lookahead from the start of the title.
 */
export function testNamePattern(selected: ReadonlySet<string> | Selection): RegExp {
  const selection: Selection = selected instanceof Set ? { rules: selected } : (selected as Selection);
  let source = '^';
  if (selection.rules) source += `(?=(?:${[...selection.rules].map(escapeRegex).join('|')}) )`;
  const filters = selection.tests ?? [];
  if (filters.length > 0) {
    const alternatives = filters.map((f) => `[\\s\\S]*?${f.kind === 'text' ? escapeRegex(f.text) : `(?:${f.regex.source})`}`);
    source += `(?=${alternatives.map((a) => `(?:${a})`).join('|')})`;
  }
  if (selection.titles) source += `(?:${[...selection.titles].map((t) => `${escapeRegex(t)}$`).join('|')})`;
  // A flag of a user's regex applies to the whole pattern: `i` only widens the rule-id part, which is harmless.
  const flags = [...new Set(filters.flatMap((f) => (f.kind === 'regex' ? [...f.regex.flags.replace(/[gy]/g, '')] : [])))].join('');
  return new RegExp(source, flags);
}
