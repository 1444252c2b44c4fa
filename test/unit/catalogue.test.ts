/**
 * The rule catalogue against what uses it, with no server and no child process: every rule is
 * checked by some suite test and caught by some faulty server, every suite test names a rule that
 * exists, the faulty servers sit with their rule's family, and a test that uses the second account
 * belongs to a rule the catalogue says needs one (the one declaration of that need). The suites
 * are read with TypeScript's own parser: `rule('ID', …)` calls, and for a call in a loop
 * (`rule(c.rule, …)`) the `rule: 'ID'` entries of the data it loops over.
 * (`--list` printing the catalogue is the CLI's, checked end to end: test/e2e/list.test.ts.)
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { familyOf, RULES } from '../../src/rules.ts';
import { ALL_FAULTS, FAULTS_BY_FAMILY } from '../servers/faults/index.ts';
import { PROPERTY_FAULTS } from '../servers/property-faults.ts';
import { ruleCalls } from './support/suite-calls.ts';

const SUITES = join(PROJECT_ROOT, 'suites');
const CATALOGUE_IDS = new Set(RULES.map((r) => r.id));
/** Every faulty server of the self-tests: one module per family, and the property rules' own. */
const FAULTS = [...ALL_FAULTS, ...PROPERTY_FAULTS];

const CALLS = readdirSync(SUITES).filter((f) => f.endsWith('.test.ts')).sort().flatMap((f) => ruleCalls(join(SUITES, f)));
const DECLARED = new Set(CALLS.flatMap((c) => c.ids));

describe('reading the suites', () => {
  test('literal ids, ids of the data a loop runs over, and the second account are found; other calls are not read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wcs-catalogue-'));
    const path = join(dir, 'sample.test.ts');
    // Quotes spliced in, so that no reader of this file's own calls takes these for calls.
    const [q, b] = ["'", '`'];
    writeFileSync(path, [
      `rule(${q}CRUD-1${q}, ${q}a literal id${q}, async (t) => { t.check(true, () => ({})); });`,
      `rule(${b}ISO-2${b}, ${q}a template id, and the second account${q}, async (t) => { await t.second.list(); });`,
      `rule(${q}PROP-3${q}, ${q}the second account when there is one${q}, async (t) => { if (t.settings.secondToken) await t.second.list(); });`,
      `const CASES = [{ rule: ${q}AUTH-1${q} }, { rule: ${q}MAL-2${q} }];`,
      `type Case = { rule: ${q}NOT-1${q} | ${q}NOT-2${q} };`,
      `for (const c of CASES) rule(c.rule, ${q}a loop over data${q}, async (t) => { other.second; });`,
      `rule(someId, ${q}an id this reader cannot know${q}, async () => {});`,
      `api.rule(${q}NOT-3${q}, ${q}a method of another object${q});`,
      `// rule(${q}NOT-4${q}, ${q}a comment${q})`,
    ].join('\n'));
    const calls = ruleCalls(path);
    rmSync(dir, { recursive: true, force: true });
    expect(calls.map((c) => [c.first, c.ids, c.unresolved, c.usesSecond, c.asksSecond])).toEqual([
      ["'CRUD-1'", ['CRUD-1'], false, false, false],
      ['`ISO-2`', ['ISO-2'], false, true, false],
      ["'PROP-3'", ['PROP-3'], false, true, true],
      ['c.rule', ['AUTH-1', 'MAL-2'], false, false, false],
      ['someId', [], true, false, false],
    ]);
  });
});

describe('the rule catalogue', () => {
  test('has unique ids of the form FAMILY-N, each MUST or SHOULD', () => {
    const ids = RULES.map((r) => r.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(ids.filter((id) => !/^[A-Z]+-\d+$/.test(id))).toEqual([]);
    expect(RULES.filter((r) => r.level !== 'MUST' && r.level !== 'SHOULD').map((r) => r.id)).toEqual([]);
  });
});

describe('the suites', () => {
  test('are found, and each declares its tests with rule()', () => {
    const files = readdirSync(SUITES).filter((f) => f.endsWith('.test.ts')).map((f) => `suites/${f}`);
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((f) => !CALLS.some((c) => c.file === f))).toEqual([]);
  });

  test('declare tests the way rule() titles them: the id first, then the title', () => {
    // The coverage checks below read ids out of rule() calls; they say something about test
    // titles only as long as rule() puts the id at the start of the title.
    expect(readFileSync(join(PROJECT_ROOT, 'src/harness/rule.ts'), 'utf8')).toMatch(/test\(\s*`\$\{id\} \$\{title\}`/);
  });

  test('pass every rule() a literal id or the rule of the data a loop runs over', () => {
    // A call this test cannot read would make the coverage checks below unsound.
    expect(CALLS.filter((c) => c.unresolved).map((c) => `${c.file}: rule(${c.first}, …)`)).toEqual([]);
  });

  test('name only rule ids that exist in the catalogue', () => {
    expect(CALLS.flatMap((c) => c.ids.filter((id) => !CATALOGUE_IDS.has(id)).map((id) => `${c.file}: ${id}`))).toEqual([]);
  });

  test('have at least one test for every rule of the catalogue', () => {
    expect(RULES.map((r) => r.id).filter((id) => !DECLARED.has(id))).toEqual([]);
  });

  test('use the second account only in tests of rules the catalogue marks secondAccount (the one declaration of the need), or after asking whether the run has one', () => {
    const needs = new Set(RULES.filter((r) => r.secondAccount).map((r) => r.id));
    expect(CALLS.filter((c) => c.usesSecond && !c.asksSecond).flatMap((c) => c.ids.filter((id) => !needs.has(id)).map((id) => `${c.file}: ${id}`))).toEqual([]);
  });
});

describe('the faulty servers of the self-test', () => {
  test('each name a rule of the catalogue', () => {
    expect(FAULTS.filter((f) => !CATALOGUE_IDS.has(f.rule)).map((f) => `${f.name}: ${f.rule}`)).toEqual([]);
  });

  test('have unique, kebab-case names and a description', () => {
    const names = FAULTS.map((f) => f.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    expect(names.filter((n) => !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(n))).toEqual([]);
    expect(FAULTS.filter((f) => f.description.trim() === '').map((f) => f.name)).toEqual([]);
  });

  test('together cover every rule of the catalogue', () => {
    const covered = new Set(FAULTS.map((f) => f.rule));
    expect(RULES.map((r) => r.id).filter((id) => !covered.has(id))).toEqual([]);
  });

  test('sit in the module of the family whose rule they break', () => {
    const misplaced = Object.entries(FAULTS_BY_FAMILY).flatMap(([family, faults]) =>
      faults.filter((f) => familyOf(f.rule) !== family).map((f) => `${f.name} (${f.rule}) among the ${family} faults`));
    expect(misplaced).toEqual([]);
  });
});
