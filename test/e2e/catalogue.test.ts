/**
 * The rule catalogue against what uses it, with no server: every rule is checked by some
 * suite test, every suite test names a rule that exists, the faulty servers of the
 * self-test name existing rules, sit with their rule's family and together cover the catalogue,
 * and `--list` prints it.
 * PROP-* rules are property tests: they have suites, and faulty servers of their own
 * (servers/property-faults.ts) that properties.test.ts judges across seeds.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { familyOf, RULES } from '../../src/rules.ts';
import { ALL_FAULTS, FAULTS_BY_FAMILY } from '../servers/faults/index.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const SUITES = join(ROOT, 'suites');

const CATALOGUE_IDS = new Set(RULES.map((r) => r.id));
/** The rules every suite and the faulty servers must cover: all but the property rules. */
const COVERED_RULES = RULES.filter((r) => familyOf(r.id) !== 'PROP');

/** `rule(<first argument>,` calls (not `x.rule(`), with the first argument as written. */
const RULE_CALL = /(?<![\w.$])rule\(\s*([^,()\n]+?)\s*,/g;
/** A literal rule id as a call's first argument: `'PAGE-3'`. */
const LITERAL_ID = /^(['"`])([A-Z]+-\d+)\1$/;
/** A loop variable's rule as a call's first argument: `bad.rule`, `c.rule`. */
const MEMBER_RULE = /^[A-Za-z_$][\w$]*\.rule$/;
/** `rule: 'AUTH-1',` in an object literal (not `rule: 'A' | 'B'` in a type). */
const RULE_PROPERTY = /\brule:\s*(['"`])([A-Z]+-\d+)\1(?=\s*[,}])/g;
/** Relative imports of a suite, e.g. `from '../data/malformed-cases.ts'`. */
const RELATIVE_IMPORT = /\bfrom\s+(['"])(\.{1,2}\/[^'"]+)\1/g;

interface SuiteFile {
  /** Path relative to the project root. */
  readonly file: string;
  /** The rule ids its tests are declared with, loops expanded through the data they loop over. */
  readonly ids: ReadonlySet<string>;
  /** First arguments of rule() calls this test cannot resolve to ids. */
  readonly unresolved: readonly string[];
  readonly calls: number;
}

/** `rule: 'ID'` properties of a source and of the local modules it imports (the data a loop runs over). */
function ruleProperties(path: string, seen = new Set<string>()): Set<string> {
  const ids = new Set<string>();
  if (seen.has(path)) return ids;
  seen.add(path);
  const source = readFileSync(path, 'utf8');
  for (const m of source.matchAll(RULE_PROPERTY)) ids.add(m[2]!);
  for (const m of source.matchAll(RELATIVE_IMPORT)) {
    const target = resolve(dirname(path), m[2]!);
    // Only the suites' own data modules: the harness and src/ hold no test declarations.
    if (!relative(SUITES, target).startsWith('..')) for (const id of ruleProperties(target, seen)) ids.add(id);
  }
  return ids;
}

function readSuite(file: string): SuiteFile {
  const path = join(SUITES, file);
  const source = readFileSync(path, 'utf8');
  const ids = new Set<string>();
  const unresolved: string[] = [];
  let calls = 0;
  let dynamic = false;
  for (const m of source.matchAll(RULE_CALL)) {
    calls += 1;
    const arg = m[1]!;
    const literal = LITERAL_ID.exec(arg);
    if (literal) ids.add(literal[2]!);
    else if (MEMBER_RULE.test(arg)) dynamic = true;
    else unresolved.push(arg);
  }
  if (dynamic) for (const id of ruleProperties(path)) ids.add(id);
  return { file: relative(ROOT, path), ids, unresolved, calls };
}

const SUITE_FILES = readdirSync(SUITES).filter((f) => f.endsWith('.test.ts')).sort().map(readSuite);

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
    expect(SUITE_FILES.length).toBeGreaterThan(0);
    expect(SUITE_FILES.filter((s) => s.calls === 0).map((s) => s.file)).toEqual([]);
  });

  test('declare tests the way rule() titles them: the id first, then the title', () => {
    // The coverage checks below read ids out of rule() calls; they say something about test
    // titles only as long as rule() puts the id at the start of the title.
    const harness = readFileSync(join(ROOT, 'src/harness/rule.ts'), 'utf8');
    expect(harness).toMatch(/test\(\s*`\$\{id\} \$\{title\}`/);
  });

  test('pass every rule() a literal id or the rule of the data a loop runs over', () => {
    // A call this test cannot read would make the coverage checks below unsound: extend the
    // patterns above rather than let it through.
    expect(SUITE_FILES.filter((s) => s.unresolved.length > 0).map((s) => `${s.file}: rule(${s.unresolved.join('), rule(')})`)).toEqual([]);
  });

  test('name only rule ids that exist in the catalogue', () => {
    const unknown = SUITE_FILES.flatMap((s) => [...s.ids].filter((id) => !CATALOGUE_IDS.has(id)).map((id) => `${s.file}: ${id}`));
    expect(unknown).toEqual([]);
  });

  test('have at least one test for every rule but the PROP-* rules', () => {
    const declared = new Set(SUITE_FILES.flatMap((s) => [...s.ids]));
    expect(COVERED_RULES.map((r) => r.id).filter((id) => !declared.has(id))).toEqual([]);
  });

  test('have a test for each PROP-* rule as well', () => {
    const declared = new Set(SUITE_FILES.flatMap((s) => [...s.ids]));
    expect(RULES.filter((r) => familyOf(r.id) === 'PROP' && !declared.has(r.id)).map((r) => r.id)).toEqual([]);
  });
});

describe('the faulty servers of the self-test', () => {
  test('each name a rule of the catalogue', () => {
    expect(ALL_FAULTS.filter((f) => !CATALOGUE_IDS.has(f.rule)).map((f) => `${f.name}: ${f.rule}`)).toEqual([]);
  });

  test('have unique, kebab-case names and a description', () => {
    const names = ALL_FAULTS.map((f) => f.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    expect(names.filter((n) => !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(n))).toEqual([]);
    expect(ALL_FAULTS.filter((f) => f.description.trim() === '').map((f) => f.name)).toEqual([]);
  });

  test('together cover every rule but the PROP-* rules', () => {
    const covered = new Set(ALL_FAULTS.map((f) => f.rule));
    expect(COVERED_RULES.map((r) => r.id).filter((id) => !covered.has(id))).toEqual([]);
  });

  test('sit in the module of the family whose rule they break', () => {
    const misplaced = Object.entries(FAULTS_BY_FAMILY).flatMap(([family, faults]) =>
      faults.filter((f) => familyOf(f.rule) !== family).map((f) => `${f.name} (${f.rule}) among the ${family} faults`));
    expect(misplaced).toEqual([]);
  });
});

describe('widget-conformance --list', () => {
  test('prints every rule id with its level, once each, and exits 0 without a server', () => {
    // A clean environment and a cwd without a .env file: nothing may point it at a server.
    const cwd = mkdtempSync(join(tmpdir(), 'wcs-list-'));
    try {
      const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('WIDGET_')));
      const run = spawnSync(process.execPath, [join(ROOT, 'bin/widget-conformance.mjs'), '--list'], {
        cwd,
        env: { ...env, NO_COLOR: '1' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.error).toBeUndefined();
      expect(run.status, run.stderr).toBe(0);
      const lines = run.stdout.split('\n').filter((l) => l.trim() !== '');
      const printed = lines.map((l) => l.trim().split(/\s+/).slice(0, 2));
      for (const r of RULES) {
        expect(printed.filter(([id]) => id === r.id), `${r.id} in:\n${run.stdout}`).toEqual([[r.id, r.level]]);
      }
      expect(printed.filter(([id]) => !CATALOGUE_IDS.has(id ?? '')).map(([id]) => id)).toEqual([]);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 60_000);
});
