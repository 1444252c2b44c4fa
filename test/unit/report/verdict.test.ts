/**
 * One verdict, computed once (report/verdict.ts runVerdict), printed by every format: the
 * console, conformance.md (and the job summary, which is the same text), conformance.html,
 * conformance.json, junit.xml and badge.svg all say the same word, for every kind of verdict,
 * and never CONFORMANT unless every MUST rule of the catalogue ran in full and passed. The gate
 * is apart: a baseline lets the run exit 0 over failures it expects, but the report never calls
 * such a server conformant, and its schema refuses to.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderSummary } from '../../../src/cli/run/summary.ts';
import { exitCodeOf } from '../../../src/cli/run/outcomes.ts';
import { badgeStatus, renderBadge } from '../../../src/report/badge.ts';
import { renderHtml } from '../../../src/report/html.ts';
import { renderJson } from '../../../src/report/json.ts';
import { renderJunit } from '../../../src/report/junit.ts';
import { renderMarkdown } from '../../../src/report/markdown.ts';
import type { Outcome, RunReport, TestOutcome } from '../../../src/report/model.ts';
import { verdictOf } from '../../../src/report/verdict.ts';
import { familyOf, RULES, secondAccountRules } from '../../../src/rules.ts';
import { validateSchema } from '../../../src/schema.ts';
import { outcomesOf, reportOf, testOf } from '../support/report.ts';

/** Every rule of the catalogue passing, but those given. */
function allRules(overrides: Record<string, Partial<TestOutcome> & { outcome?: Outcome }> = {}): TestOutcome[] {
  return RULES.map((r) => testOf(r.id, overrides[r.id]?.outcome ?? 'pass', overrides[r.id] ?? {}));
}

const unescapeXml = (s: string): string => s.replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** What each format says the verdict is, read back from the rendered text. */
function wordsOf(report: RunReport): Record<string, string | undefined> {
  const console = renderSummary(report, { seconds: 1, reports: [], settingsFile: 'none', cleanup: 'nothing left behind' });
  const html = renderHtml(report);
  const junit = renderJunit(report);
  return {
    console: /^Verdict: (.*)$/m.exec(console)?.[1],
    markdown: /^## Widget Service conformance: \S+ (.*)$/m.exec(renderMarkdown(report))?.[1],
    html: unescapeXml(/<h1>(.*?)<\/h1>/.exec(html)?.[1] ?? ''),
    json: (JSON.parse(renderJson(report)) as RunReport).verdictDetail.headline,
    junit: unescapeXml(/<property name="verdict" value="([^"]*)"\/>/.exec(junit)?.[1] ?? ''),
    badge: unescapeXml(/<title>(.*?)<\/title>/.exec(renderBadge(report))?.[1] ?? ''),
  };
}

/** Asserts every format says the verdict's word (the headline where the format has room for it). */
function expectOneWord(report: RunReport): void {
  const { word, headline, label } = report.verdictDetail;
  const said = wordsOf(report);
  expect(said.console, 'console').toBe(label);
  expect(said.markdown, 'markdown').toBe(headline);
  expect(said.html, 'html').toBe(headline);
  expect(said.json, 'json').toBe(headline);
  expect(said.junit, 'junit').toBe(headline);
  expect(said.badge, 'badge').toContain(`: ${word}`);
  expect(badgeStatus(report).text.startsWith(word), 'badge text').toBe(true);
  // No format says CONFORMANT of a run that is not.
  if (report.verdict !== 'conformant') for (const [format, text] of Object.entries(said)) expect(text, format).not.toMatch(/^(✅ )?CONFORMANT/);
  expect(validateSchema('conformance-report', report)).toEqual([]);
}

const CUT = '32 of 50 (stopped by the --property-budget of 60000 ms)';
/** The AUTH family's rules, as many as the catalogue holds: what `--only AUTH` runs. */
const AUTH = RULES.filter((r) => familyOf(r.id) === 'AUTH').map((r) => r.id);

/** One report model per kind of verdict. */
const KINDS: ReadonlyArray<{ name: string; report: () => RunReport; kind: RunReport['verdict']; word: string | RegExp }> = [
  { name: 'every rule ran in full and passed', kind: 'conformant', word: 'CONFORMANT', report: () => reportOf(outcomesOf(allRules())) },
  { name: 'SHOULD warnings only', kind: 'conformant', word: 'CONFORMANT', report: () => reportOf(outcomesOf(allRules({ 'PAGE-8': { outcome: 'warn', warnings: ['a 500 for limit=abc'] } }))) },
  { name: '--only AUTH', kind: 'partial', word: `PASSED (partial: ${AUTH.length} of ${RULES.length} rules)`, report: () => reportOf(outcomesOf(allRules().filter((t) => AUTH.includes(t.rule)))) },
  { name: 'a property cut short by its time budget', kind: 'partial', word: `PASSED (partial: ${RULES.length - 1} of ${RULES.length} rules)`, report: () => reportOf(outcomesOf(allRules({ 'PROP-1': { runs: CUT } }))) },
  {
    name: 'no second account (--without-second-token)',
    kind: 'partial',
    word: `PASSED (partial: ${RULES.length - secondAccountRules().length} of ${RULES.length} rules)`,
    report: () => {
      const iso = secondAccountRules();
      const skip = Object.fromEntries(iso.map((id) => [id, { outcome: 'skip' as const, skipReason: 'needs a second account: set --second-token or WIDGET_SECOND_TOKEN to run it' }]));
      return reportOf(outcomesOf(allRules(skip)), { notRun: iso });
    },
  },
  { name: 'a MUST rule failed', kind: 'not-conformant', word: 'NOT CONFORMANT', report: () => reportOf(outcomesOf(allRules({ 'CRUD-4': { outcome: 'fail' } })), { exitCode: 1 }) },
  {
    name: 'the gate passed over a known failure',
    kind: 'not-conformant',
    word: 'NOT CONFORMANT',
    report: () => reportOf(outcomesOf(allRules({ 'CRUD-4': { outcome: 'fail' } })), { exitCode: 0, baseline: { file: 'known.txt', ids: new Set(['CRUD-4']) } }),
  },
  { name: 'a suite error', kind: 'incomplete', word: 'INCOMPLETE', report: () => reportOf(outcomesOf(allRules({ 'DEL-3': { outcome: 'error', messages: ['boom'] } })), { exitCode: 3 }) },
  { name: 'a setup problem', kind: 'incomplete', word: 'NO VERDICT', report: () => reportOf(outcomesOf(allRules()), { exitCode: 2 }) },
  { name: 'a signal', kind: 'interrupted', word: 'INTERRUPTED', report: () => reportOf(outcomesOf(allRules()), { exitCode: 130, interrupted: true }) },
];

describe('one verdict, in every format', () => {
  for (const k of KINDS) {
    it(`${k.name}: ${k.kind}, and the console, Markdown, HTML, JSON, JUnit and badge all say ${String(k.word)}`, () => {
      const report = k.report();
      expect(report.verdict).toBe(k.kind);
      expect(report.verdictDetail.word).toEqual(k.word);
      expectOneWord(report);
    });
  }

  it('--only AUTH says so in its reasons, and conformance.json keeps partial', () => {
    const report = KINDS.find((k) => k.name === '--only AUTH')!.report();
    expect(report.partial).toBe(true);
    const notSelected = RULES.filter((r) => !AUTH.includes(r.id)).map((r) => r.id);
    const said = `${notSelected.length} rules of the catalogue not selected (--only): ${notSelected[0]}, `;
    expect(report.verdictDetail.reasons[0]?.slice(0, said.length)).toBe(said);
    expect(renderMarkdown(report)).not.toMatch(/Conformant|CONFORMANT/);
  });

  it('a check cut short is shown, with how much of it ran, where it is shown passing: Markdown, HTML, JUnit, console', () => {
    const report = reportOf(outcomesOf(allRules({ 'PROP-1': { runs: CUT } })));
    expect(report.verdictDetail.cutShort).toEqual([{ rule: 'PROP-1', test: 'PROP-1 a test (pass)', runs: CUT }]);
    const note = 'cut short: 32 of 50 runs (stopped by the --property-budget of 60000 ms)';
    expect(renderMarkdown(report)).toContain('| ⏱️ | PROP-1 (passed, cut short\\: 32 of 50 runs (stopped by the --property-budget of 60000 ms)) |');
    expect(renderHtml(report)).toContain(`passed (${note})`);
    expect(renderJunit(report)).toContain(`<system-out>PROP-1 passed, ${note}</system-out>`);
    expect(renderSummary(report, { seconds: 1, reports: [], settingsFile: 'none', cleanup: '' })).toContain(`PROP-1  ${note}: PROP-1 a test (pass)`);
  });

  it('a SHOULD rule that warned is never shown with ✓ or as passed', () => {
    const report = KINDS.find((k) => k.name === 'SHOULD warnings only')!.report();
    const console = renderSummary(report, { seconds: 1, reports: [], settingsFile: 'none', cleanup: '' });
    expect(console).toMatch(/! WARN PAGE-8 +SHOULD a 500 for limit=abc/);
    expect(console).not.toMatch(/✓.*PAGE-8|PAGE-8.*✓/);
    expect(renderHtml(report)).toMatch(/<b>PAGE-8<\/b>! SHOULD warning/);
  });

  it('verdictOf without rules decides from the exit code and the counts alone', () => {
    expect(verdictOf({ interrupted: false, exitCode: 0, knownFailures: 0 })).toBe('conformant');
    expect(verdictOf({ interrupted: false, exitCode: 0, knownFailures: 3 })).toBe('not-conformant');
    expect(verdictOf({ interrupted: false, exitCode: 0, knownFailures: 0, notRun: ['ISO-1'] })).toBe('partial');
    expect(verdictOf({ interrupted: false, exitCode: 3, knownFailures: 1 })).toBe('incomplete');
    expect(verdictOf({ interrupted: true, exitCode: 130, knownFailures: 0 })).toBe('interrupted');
  });

  it('the schema refuses "conformant" beside known failures or beside a partial run', () => {
    const known = KINDS.find((k) => k.name === 'the gate passed over a known failure')!.report();
    expect(validateSchema('conformance-report', { ...known, verdict: 'conformant' })).not.toEqual([]);
    const only = KINDS.find((k) => k.name === '--only AUTH')!.report();
    expect(validateSchema('conformance-report', { ...only, verdict: 'conformant' })).not.toEqual([]);
  });

  it('generated runs: every format says the same word, and CONFORMANT exactly when every rule of the catalogue ran in full and none failed', () => {
    const outcome = fc.constantFrom<Outcome>('pass', 'pass', 'pass', 'warn', 'fail', 'skip', 'inconclusive', 'error');
    const rule = fc.record({ present: fc.boolean(), outcome, cut: fc.boolean() });
    fc.assert(
      fc.property(fc.array(rule, { minLength: RULES.length, maxLength: RULES.length }), fc.boolean(), (choices, interrupted) => {
        const tests = RULES.flatMap((r, i) => {
          const c = choices[i]!;
          if (!c.present && i % 3 === 0) return [];
          return [testOf(r.id, c.outcome, c.cut && (c.outcome === 'pass' || c.outcome === 'warn') ? { runs: CUT } : c.outcome === 'skip' ? { skipReason: 'not run: the run was interrupted by SIGTERM' } : c.outcome === 'error' ? { messages: ['boom'] } : {})];
        });
        const outcomes = outcomesOf(tests);
        const exitCode = interrupted ? 143 : exitCodeOf(outcomes);
        const report = reportOf(outcomes, { exitCode, interrupted });
        expectOneWord(report);
        const full = report.rules.length === RULES.length && report.rules.every((r) => (r.outcome === 'pass' || r.outcome === 'warn') && r.tests.every((t) => t.runs === undefined));
        expect(report.verdict === 'conformant').toBe(full && !interrupted);
      }),
      { numRuns: 60 },
    );
  });
});

describe('a run narrowed by name says what narrowed it', () => {
  const tests = [testOf('ISO-2', 'pass'), testOf('CRUD-1', 'pass')];
  const narrowed = (selection: RunReport['selection']): RunReport => reportOf(outcomesOf(tests), { exitCode: 0, selection });

  it('by --test alone: the test filter, never --only, and the rules it ran, never "0 of 42 rules"', () => {
    const v = narrowed({ test: ['retrieve'] }).verdictDetail;
    expect(v.word).toBe(`PASSED (partial: tests of 2 of ${RULES.length} rules)`);
    expect(v.reasons.join('\n')).not.toContain('--only');
    expect(v.reasons).toContain('tests selected by name (--test): 2 rules ran some of their tests, none is known to have run in full');
    expect(v.reasons[0]).toMatch(new RegExp(`^${RULES.length - 2} rules of the catalogue with no test the test filter selected \\(--test\\): `));
    // Every format says the same word.
    expectOneWord(narrowed({ test: ['retrieve'] }));
  });

  it('by --only RULE.text: the rules --only left out, and the test filter', () => {
    const v = narrowed({ only: ['ISO-2', 'CRUD-1'], test: ['retrieve'] }).verdictDetail;
    expect(v.reasons[0]).toMatch(/ rules of the catalogue not selected \(--only\): /);
    expect(v.reasons).toContain('tests selected by name (--test or --only RULE.text): 2 rules ran some of their tests, none is known to have run in full');
  });

  it('by --last-failed: what broke in the previous run', () => {
    const v = narrowed({ only: ['ISO-2', 'CRUD-1'], lastFailed: true }).verdictDetail;
    expect(v.reasons[0]).toMatch(/ rules of the catalogue not selected \(--last-failed: only what broke in the previous run\): /);
    expect(v.reasons).toContain('tests selected by name (--last-failed): 2 rules ran some of their tests, none is known to have run in full');
  });

  it('--only without a test filter counts the rules run in full, as before', () => {
    expect(narrowed({ only: ['ISO-2', 'CRUD-1'] }).verdictDetail.word).toBe(`PASSED (partial: 2 of ${RULES.length} rules)`);
  });
});
