/**
 * `npm run compare` and `npm run verify` on real bundles: the suite runs three times, against
 * a conformant server (the reference), a faulty one (CRUD-4: retrieve drops the description) and the
 * same server after the fix, each run labelled with --implementation. The comparison must show
 * every rule in both formats, mark the fault as newly passing after the fix and as a regression
 * when the faulty run comes after the fixed one (--fail-on-regression exits 1 then), and
 * matrix.html must load nothing and run nothing in Chromium. verify must accept each fresh
 * bundle and reject one edited in any of the ways below, naming the problem.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { ReferenceService } from '../../src/reference/service.ts';
import type { RunReport } from '../../src/report/model.ts';
import { RULES } from '../../src/rules.ts';
import { CRUD_FAULTS } from '../servers/faults/index.ts';
import { runAgainst } from '../servers/serve.ts';
import { serve, TOKENS } from '../servers/support.ts';
import { ALL_BUT_PROPERTIES } from '../support/families.ts';
import { requireChromium, withChromium } from '../support/chromium.ts';
import { explain, outcomesOf, runSuite, type SuiteRun } from '../support/suite-runner.ts';

/** The fault under test and the one rule it breaks. */
const FAULT = CRUD_FAULTS.find((f) => f.name === 'retrieve-drops-description')!;
const RULE = FAULT.rule;
/**
 * Every family but the properties (which a dropped description breaks too, and which are the
 * slowest part of a run): partial runs, so the properties show as absent, never as passed.
 */
const SEED = ['--seed', '7', '--only', ALL_BUT_PROPERTIES];
const PROPERTY_RULES = RULES.filter((r) => r.id.startsWith('PROP-')).map((r) => r.id);

const compare = (args: readonly string[], cwd?: string) => runSuite(args, { bin: 'bin/widget-compare.mjs', ...(cwd ? { cwd } : {}) });
const verify = (dir: string, env: Record<string, string> = {}) => runSuite([dir], { bin: 'bin/widget-verify.mjs', env });

/** A copy of a bundle, edited by `edit` (file name → new text from old). */
function editedCopy(dir: string, edits: Record<string, (text: string) => string>): string {
  const copy = join(mkdtempSync(join(tmpdir(), 'wcs-edited-')), 'bundle');
  cpSync(dir, copy, { recursive: true });
  for (const [name, edit] of Object.entries(edits)) {
    const file = join(copy, name);
    writeFileSync(file, edit(readFileSync(file, 'utf8')));
  }
  return copy;
}
const editJson = (edit: (r: { -readonly [K in keyof RunReport]: RunReport[K] }) => void) => (text: string) => {
  const report = JSON.parse(text) as RunReport;
  edit(report);
  return `${JSON.stringify(report, null, 2)}\n`;
};

describe('compare and verify over a conformant, a faulty and a fixed server', () => {
  let reference: SuiteRun;
  let faulty: SuiteRun;
  let fixed: SuiteRun;
  let out: string;

  beforeAll(async () => {
    requireChromium();
    [reference, faulty, fixed] = await Promise.all([
      runAgainst(serve(new ReferenceService()), [...SEED, '--implementation', 'reference@1']),
      runAgainst(FAULT.make(), [...SEED, '--implementation', 'acme-widgets@1.1']),
      runAgainst(serve(new ReferenceService()), [...SEED, '--implementation', 'acme-widgets@1.2']),
    ]);
    expect(reference.exitCode, explain(reference)).toBe(0);
    expect(fixed.exitCode, explain(fixed)).toBe(0);
    expect(faulty.exitCode, explain(faulty)).toBe(1);
    // The fault breaks exactly its rule.
    expect(Object.entries(outcomesOf(faulty.report)).filter(([, o]) => o !== 'pass').map(([id]) => id), explain(faulty)).toEqual([RULE]);
    out = join(mkdtempSync(join(tmpdir(), 'wcs-compare-')), 'matrix');
  }, 240_000);

  test(`${RULE} three runs: matrix.html and matrix.md hold every rule; the fix is marked newly passing, and no regression fails the gate`, async () => {
    const run = await compare([reference.reportDir, join(faulty.reportDir, 'conformance.json'), fixed.reportDir, '--out', out, '--fail-on-regression']);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const md = readFileSync(join(out, 'matrix.md'), 'utf8');
    const html = readFileSync(join(out, 'matrix.html'), 'utf8');
    for (const rule of RULES) {
      expect(md, `${rule.id} in matrix.md`).toMatch(new RegExp(`^\\| ${rule.id} ${rule.level} \\|`, 'm'));
      expect(html, `${rule.id} in matrix.html`).toContain(`<tr id="${rule.id}">`);
    }
    const row = md.split('\n').find((l) => l.startsWith(`| ${RULE} `))!;
    const cells = row.split(' | ').slice(1);
    expect(cells[0], 'the reference passes').toContain('✅ pass');
    expect(cells[1], 'the faulty server fails, linked to its evidence').toContain(`❌ fail](`);
    expect(cells[1]).toContain(`/conformance.html#${RULE})`);
    expect(cells[2], 'the fix is marked').toContain('🔺 newly passing (was fail in acme-widgets@1.1)');
    expect(md).toContain(`- 🔺 newly passing: ${RULE} fail in acme-widgets@1.1 → pass in acme-widgets@1.2`);
    expect(md, 'per column the verdict in its run\'s own words, and the counts').toContain(`- **acme-widgets@1.1**: NOT CONFORMANT \\(partial run\\); ${RULES.length - 1 - PROPERTY_RULES.length} pass, 1 fail, ${PROPERTY_RULES.length} absent`);
    for (const id of PROPERTY_RULES) expect(md.split('\n').find((l) => l.startsWith(`| ${id} `)), `${id} not run: absent, not passed`).toMatch(/^(?!.*pass).*∅ absent.*∅ absent.*∅ absent/);
    expect(md, 'the reference is another implementation: nothing compared with it').not.toContain('was pass in reference@1');
  });

  test(`${RULE} a regression (the faulty run after the fixed one) is marked, and --fail-on-regression exits 1`, async () => {
    const regressed = join(out, '..', 'regressed');
    const run = await compare([fixed.reportDir, faulty.reportDir, '--out', regressed, '--fail-on-regression']);
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    expect(run.stderr).toContain(`widget-compare: 1 regression(s): ${RULE} (acme-widgets@1.1)`);
    expect(run.stdout).toContain(`regression: ${RULE} pass in acme-widgets@1.2 -> fail in acme-widgets@1.1`);
    const md = readFileSync(join(regressed, 'matrix.md'), 'utf8');
    expect(md).toContain(`🔻 regression (was pass in acme-widgets@1.2)`);
    expect(readFileSync(join(regressed, 'matrix.html'), 'utf8')).toContain('change-regression');
    // Without the flag the same comparison is only a report.
    expect((await compare([fixed.reportDir, faulty.reportDir, '--out', regressed])).exitCode).toBe(0);
  });

  test(`${RULE} matrix.html in Chromium: loads nothing but itself, runs nothing, and links each failure to its evidence`, async () => {
    const url = pathToFileURL(join(out, 'matrix.html')).href;
    await withChromium({ width: 1400, height: 900 }, async (context) => {
      const refused: string[] = [];
      await context.route('**/*', async (route) => {
        if (route.request().url() === url) return route.continue();
        refused.push(route.request().url());
        return route.abort('blockedbyclient');
      });
      const page = context.pages()[0] ?? (await context.newPage());
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
      expect(refused, 'requests other than the matrix').toEqual([]);
      expect(await page.evaluate(() => performance.getEntriesByType('resource').length), 'resources loaded').toBe(0);
      expect(await page.locator('script, link, img, iframe, object, embed').count(), 'elements that load or run anything').toBe(0);
      expect(errors, 'console errors').toEqual([]);
      const cell = page.locator(`tr#${RULE} td`).nth(1);
      expect(await cell.getAttribute('class')).toContain('o-fail');
      const href = await cell.locator('a').getAttribute('href');
      const target = fileURLToPath(new URL(href!, url));
      expect(dirname(target), 'the link leads to the faulty run\'s report').toBe(faulty.reportDir);
      expect(readFileSync(target, 'utf8'), 'and to the rule in it').toContain(`id="${RULE}"`);
    });
  }, 120_000);

  test('compare answers a missing file, a file that is not JSON and one that is not a report with one line and exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wcs-bad-'));
    writeFileSync(join(dir, 'text.json'), 'not json {');
    writeFileSync(join(dir, 'other.json'), '{"suite": "something else"}');
    for (const [input, says] of [['missing.json', 'missing.json: cannot read it (no such file or directory)'], ['text.json', 'text.json: not JSON'], ['other.json', 'other.json: not a conformance report of this suite']] as const) {
      // Relative paths are the user's: resolved against the directory compare runs in.
      const run = await compare([input, '--out', 'matrix'], dir);
      expect(run.exitCode, input).toBe(2);
      expect(run.stderr.trim().split('\n'), input).toHaveLength(1);
      expect(run.stderr, input).toContain(`widget-compare: ${says}`);
      expect(run.stderr, 'no stack trace').not.toMatch(/\n\s+at /);
    }
  });

  test('verify accepts each fresh bundle, the tokens given', async () => {
    for (const run of [reference, faulty, fixed]) {
      const result = await verify(run.reportDir, { WIDGET_TOKEN: TOKENS[0], WIDGET_SECOND_TOKEN: TOKENS[1] });
      expect(result.exitCode, result.stdout + result.stderr).toBe(0);
      expect(result.stdout).toContain('whole and unaltered');
      expect(result.stdout, 'the partial run is labelled').toContain(`note: partial run (--only ${ALL_BUT_PROPERTIES})`);
    }
  });

  const edits: Array<[string, Record<string, (text: string) => string>, string, Record<string, string>?]> = [
    [
      `an edited outcome (${RULE} fail made pass)`,
      { 'conformance.json': editJson((r) => void ((r.rules.find((x) => x.id === RULE) as { outcome: string }).outcome = 'pass')) },
      `problem: junit.xml: ${RULE} is fail, conformance.json says pass`,
    ],
    ['a removed rule (DEL-1)', { 'conformance.json': editJson((r) => void (r.rules = r.rules.filter((x) => x.id !== 'DEL-1'))) }, `problem: rules missing that --only ${ALL_BUT_PROPERTIES} selected: DEL-1`],
    [
      'a token written into conformance.md',
      { 'conformance.md': (t) => `${t}\nAuthorization: Bearer ${TOKENS[0]}\n` },
      'problem: conformance.md: holds a credential',
      { WIDGET_TOKEN: TOKENS[0] },
    ],
    [
      'a token written into a replay file',
      { [`replay/${RULE}-1.json`]: (t) => t.replace('"headers": false', `"headers": false, "note": "Bearer ${TOKENS[0]}"`) },
      `problem: replay/${RULE}-1.json: holds a credential`,
      { WIDGET_TOKEN: TOKENS[0] },
    ],
    [
      "a token in a recorded exchange's Authorization header (found by shape, no token given)",
      { 'conformance.json': (t) => t.replaceAll('"authorization": "Bearer [REDACTED]"', `"authorization": "Bearer ${TOKENS[0]}"`) },
      'sent WIDGET_TOKEN and records its Authorization header unredacted',
    ],
    [`junit.xml disagreeing (${RULE} said to pass)`, { 'junit.xml': (t) => t.replace(`name="${RULE}.outcome" value="fail"`, `name="${RULE}.outcome" value="pass"`) }, `problem: junit.xml: ${RULE} is pass, conformance.json says fail`],
  ];
  for (const [what, edit, says, env] of edits) {
    test(`verify rejects a bundle with ${what}`, async () => {
      const copy = editedCopy(faulty.reportDir, edit);
      for (const name of Object.keys(edit)) expect(readFileSync(join(copy, name), 'utf8'), `${name} was edited`).not.toBe(readFileSync(join(faulty.reportDir, name), 'utf8'));
      const result = await verify(copy, env);
      expect(result.exitCode, result.stdout + result.stderr).toBe(1);
      expect(result.stdout).toContain(says);
      for (const token of TOKENS) expect(result.stdout + result.stderr, 'verify never prints a token').not.toContain(token);
    });
  }
});
