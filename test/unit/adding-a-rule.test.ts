/**
 * A rule is three things: its catalogue entry, its test, its fault (docs/contributing.md). This
 * test makes the first edit a contributor makes, and only that one: a copy of src/rules.ts with
 * one more entry written into its RULES (a MUST rule that needs a second account, PAGE-99), loaded
 * in place of the catalogue. Everything that counts, lists or names rules must follow with no
 * other edit: the catalogue's size in the report, the verdict's "N of M rules", the console's
 * totals, the rules a run without a second account leaves out and the message naming them, the
 * generated table of docs/rules.md. (The test and the fault are held by test/unit/catalogue.test.ts.)
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';

/** The entry a contributor adds: the catalogue's own constants, as the entries beside it use them. */
const { ENTRY, made } = vi.hoisted(() => ({ made: [] as string[], ENTRY: `
  {
    id: 'PAGE-99', level: 'MUST', section: '§1, §4.1',
    secondAccount: true,
    statement: "A cursor obtained by account A is refused when account B sends it.",
    basis: SPEC_ISOLATION,
    openapi: [BEARER, LIST],
    requires: [...CREATES, ...IDS, ...ERRORS, ...WALKS],
  },
` }));

vi.mock('../../src/rules.ts', async () => {
  const { mkdtempSync, readFileSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const ts = (await import('typescript')).default;
  const path = new URL('../../src/rules.ts', import.meta.url).pathname;
  const text = readFileSync(path, 'utf8');
  // The end of the RULES array, found by TypeScript's parser: the new entry goes last, as a contributor's would.
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  let end = -1;
  source.forEachChild((node) => {
    if (!ts.isVariableStatement(node)) return;
    for (const d of node.declarationList.declarations) {
      if (d.name.getText(source) === 'RULES' && d.initializer && ts.isArrayLiteralExpression(d.initializer)) end = d.initializer.elements.at(-1)?.end ?? -1;
    }
  });
  if (end < 0) throw new Error('no RULES array in src/rules.ts');
  // The catalogue imports nothing, so its copy loads from anywhere.
  const dir = mkdtempSync(join(tmpdir(), 'wcs-catalogue-'));
  made.push(dir);
  const copy = join(dir, 'rules.ts');
  writeFileSync(copy, `${text.slice(0, end)},${ENTRY}${text.slice(end).replace(/^\s*,/, '')}`);
  return import(copy);
});

// The unit tier shares one module registry per worker (isolate: false, test/vitest.config.ts):
// the modules another file loaded with the real catalogue are dropped first, so that every
// module below loads with the copy, and dropped again after, so that no later file meets it.
vi.resetModules();
const { RULES, ruleById, secondAccountRules, SECOND_ACCOUNT_MARK } = await import('../../src/rules.ts');
const actual = await vi.importActual<typeof import('../../src/rules.ts')>('../../src/rules.ts');
const { secondAccountRulesNotRun } = await import('../../src/cli/run/second-account.ts');
const { renderSummary } = await import('../../src/cli/run/summary.ts');
const { renderMarkdown } = await import('../../src/report/markdown.ts');
const { GENERATORS } = await import('../../tools/docs.ts');
const { helpText } = await import('../../src/config.ts');
const { ConfigError } = await import('../../src/errors.ts');
const { catalogueListing } = await import('../../src/cli/run/list.ts');
const { outcomesOf, reportOf, testOf } = await import('./support/report.ts');

afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  vi.doUnmock('../../src/rules.ts');
  vi.resetModules();
});

const ADDED = 'PAGE-99';
const EXTRA = { seconds: 1, reports: [], settingsFile: 'none', cleanup: 'nothing left behind' };
const everyRulePassing = () => outcomesOf(RULES.map((r) => testOf(r.id, 'pass')));
/** A run against a target, with no second account (the embedded server always has one). */
const TARGET = { baseUrl: 'https://widgets.example/v1', token: 't1', withoutSecondToken: false } as Parameters<typeof secondAccountRulesNotRun>[0];

describe('a rule added to the catalogue alone', () => {
  it('is in the catalogue, once, beside every rule that was there', () => {
    expect(RULES.map((r) => r.id)).toEqual([...actual.RULES.map((r) => r.id), ADDED]);
    expect(ruleById(ADDED).level).toBe('MUST');
  });

  it('counts in the report, the verdict and the console totals', () => {
    const report = reportOf(everyRulePassing());
    expect(report.catalogue.rules).toBe(actual.RULES.length + 1);
    expect(report.verdict).toBe('conformant');
    expect(report.verdictDetail.rulesRunInFull).toBe(actual.RULES.length + 1);
    const must = actual.RULES.filter((r) => r.level === 'MUST').length + 1;
    const summary = renderSummary(report, EXTRA);
    expect(summary).toContain(`Rules (${actual.RULES.length + 1} tested of ${actual.RULES.length + 1} in the catalogue):`);
    expect(summary).toContain(`  MUST   ${must} passed, 0 failed`);
  });

  it('is left out, named, by a run without a second account, and the verdict counts it', () => {
    const needs = secondAccountRules();
    expect(needs).toEqual([...actual.secondAccountRules(), ADDED]);
    expect(secondAccountRulesNotRun({ ...TARGET, withoutSecondToken: true }, undefined)).toEqual(needs);
    const skipped = everyRulePassing().tests.map((t) => (needs.includes(t.rule) ? testOf(t.rule, 'skip', { skipReason: 'needs a second account' }) : t));
    const report = reportOf(outcomesOf(skipped), { notRun: needs });
    const word = `PASSED (partial: ${RULES.length - needs.length} of ${RULES.length} rules)`;
    expect(report.verdictDetail.word).toBe(word);
    expect(report.verdictDetail.reasons).toContain(`${needs.join(', ')} not run: no second account (--without-second-token)`);
    expect(renderMarkdown(report)).toContain(word);
  });

  it('is named, with its level, in the one line that stops a run with no second token', () => {
    let message = '';
    try {
      secondAccountRulesNotRun(TARGET, undefined);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    const must = secondAccountRules().filter((id) => ruleById(id).level === 'MUST');
    expect(must).toContain(ADDED);
    expect(message).toContain(`${must.join(', ')} (MUST)`);
    expect(message).toContain(' need a second account; ');
  });

  it('is listed by --list, marked as needing a second account', () => {
    const line = catalogueListing().split('\n').find((l) => l.startsWith(`${ADDED} `)) ?? '';
    expect(line).toMatch(new RegExp(`^${ADDED} +MUST +.*\\(${SECOND_ACCOUNT_MARK}\\)$`));
  });

  it('stands in the generated catalogue table (npm run docs), and --help names no rule', () => {
    expect(GENERATORS.rules!()).toContain(`| ${ADDED} | MUST |`);
    expect(helpText()).not.toContain(ADDED);
    expect(helpText()).toContain(SECOND_ACCOUNT_MARK);
  });
});
