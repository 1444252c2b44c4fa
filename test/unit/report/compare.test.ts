/** The comparison's logic on made-up reports (report/matrix.ts), the catalogue hash, the badge and the Markdown escaping. */
import { describe, expect, it } from 'vitest';
import { renderBadge } from '../../../src/report/badge.ts';
import { catalogueHash } from '../../../src/report/catalogue-hash.ts';
import { buildMatrix, implementationName, type MatrixInput } from '../../../src/report/matrix.ts';
import { renderMatrixHtml } from '../../../src/report/matrix-html.ts';
import { renderMatrixMarkdown } from '../../../src/report/matrix-md.ts';
import type { Outcome, RunReport } from '../../../src/report/model.ts';
import { RULES } from '../../../src/rules.ts';
import { outcomesOf, reportOf, testOf } from '../support/report.ts';

/** A run of every rule, all passing but those given. */
function run(implementation: string, outcomes: Record<string, string> = {}, baseUrl = 'http://127.0.0.1:1/v1'): MatrixInput {
  const tests = RULES.map((r) => testOf(r.id, (outcomes[r.id] ?? 'pass') as Outcome));
  return { report: reportOf(outcomesOf(tests), { implementation, baseUrl }), source: `${implementation}/conformance.json`, reportHref: `../${implementation}/conformance.html` };
}

describe('catalogue hash', () => {
  it('depends on ids, levels and statements, not on order', () => {
    const rules = [{ id: 'A-1', level: 'MUST', statement: 's' }, { id: 'A-2', level: 'SHOULD', statement: 't' }];
    expect(catalogueHash(rules)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(catalogueHash([...rules].reverse())).toBe(catalogueHash(rules));
    expect(catalogueHash([rules[0]!, { ...rules[1]!, level: 'MUST' }])).not.toBe(catalogueHash(rules));
    expect(catalogueHash([rules[0]!, { ...rules[1]!, statement: 'u' }])).not.toBe(catalogueHash(rules));
    expect(catalogueHash([rules[0]!])).not.toBe(catalogueHash(rules));
  });

  it('every report records the catalogue hash, the interface version and whether the run was partial', () => {
    const full = run('x@1').report;
    expect(full.catalogue).toEqual({ hash: catalogueHash(RULES), rules: RULES.length });
    expect(full.interfaceVersion).toBe('v1');
    expect(full.partial).toBe(false);
    expect(reportOf(outcomesOf([testOf('CRUD-4', 'pass')])).partial).toBe(true);
  });
});

describe('matrix: what changed between runs of one implementation', () => {
  it('CRUD-4 failing after a pass is a regression of the last run; fixed again, it is newly passing', () => {
    const m = buildMatrix([run('acme@1.0'), run('acme@1.1', { 'CRUD-4': 'fail' })]);
    const row = m.rows.find((r) => r.id === 'CRUD-4')!;
    expect(row.cells.map((c) => c.change?.kind)).toEqual([undefined, 'regression']);
    expect(row.cells[1]!.href).toBe('../acme@1.1/conformance.html#CRUD-4');
    expect(row.cells[0]!.href, 'a pass links nowhere').toBeUndefined();
    expect(m.regressions).toEqual([{ rule: 'CRUD-4', implementation: 'acme@1.1', column: 1, passedIn: 0 }]);
    const fixed = buildMatrix([run('acme@1.0'), run('acme@1.1', { 'CRUD-4': 'fail' }), run('acme@1.2')]);
    expect(fixed.regressions, 'the last run passes: no regression').toEqual([]);
    expect(fixed.changes.map((c) => [c.rule, c.kind])).toEqual([['CRUD-4', 'regression'], ['CRUD-4', 'fixed']]);
    expect(fixed.rows.find((r) => r.id === 'CRUD-4')!.changes, 'CRUD-4 flips').toBe(2);
  });

  it('ISO-2 failing in another implementation is no regression: different names and base URLs are compared with nothing', () => {
    const m = buildMatrix([run('reference@1', {}, 'http://a/v1'), run('acme@1.0', { 'ISO-2': 'fail' }, 'http://b/v1')]);
    expect(m.changes).toEqual([]);
    expect(m.regressions).toEqual([]);
    // The same base URL is the same implementation, whatever the labels say.
    expect(buildMatrix([run('a', {}, 'http://same/v1'), run('b', { 'ISO-2': 'fail' }, 'http://same/v1')]).regressions.map((r) => r.rule)).toEqual(['ISO-2']);
    expect(implementationName('@scope/widgets@2.0')).toBe('@scope/widgets');
    expect(implementationName('plain')).toBe('plain');
  });

  it('PAGE-3 absent from a partial run is absent, not passed, and hides no change across it', () => {
    const partial = reportOf(outcomesOf(RULES.filter((r) => r.id !== 'PAGE-3').map((r) => testOf(r.id, 'pass'))), { implementation: 'acme@1.1', config: { only: 'FMT' } });
    const m = buildMatrix([run('acme@1.0'), { report: partial, source: 'p' }, run('acme@1.2', { 'PAGE-3': 'fail' })]);
    const row = m.rows.find((r) => r.id === 'PAGE-3')!;
    expect(row.cells.map((c) => c.outcome)).toEqual(['pass', 'absent', 'fail']);
    expect(row.cells[2]!.change).toMatchObject({ kind: 'regression', previous: 0 });
    expect(m.columns[1]!.counts.absent).toBe(1);
    expect(m.notes.join('\n')).toContain('acme@1.1 #1'.replace(' #1', '') + ' is a partial run (--only FMT)');
  });

  it('each column says its run\'s verdict in the run\'s own words, in the matrix, its Markdown and its HTML, never the raw kind', () => {
    const partial = reportOf(outcomesOf([testOf('FMT-1', 'pass')]), { implementation: 'acme@1.1' });
    const m = buildMatrix([run('acme@1.0'), { report: partial, source: 'p' }, run('acme@1.2', { 'PAGE-3': 'fail' })]);
    expect(m.columns.map((c) => c.verdictWord)).toEqual([run('acme@1.0').report.verdictDetail.headline, partial.verdictDetail.headline, run('acme@1.2', { 'PAGE-3': 'fail' }).report.verdictDetail.headline]);
    expect(m.columns[1]!.verdictWord).toBe(`PASSED (partial: 1 of ${RULES.length} rules)`);
    // Markdown escapes the punctuation; read without the escapes.
    expect(renderMatrixMarkdown(m).replace(/\\/g, '')).toContain(`PASSED (partial: 1 of ${RULES.length} rules)`);
    expect(renderMatrixHtml(m)).toContain(`>PASSED (partial: 1 of ${RULES.length} rules)<`);
    expect(renderMatrixMarkdown(m).replace(/\\/g, '')).not.toMatch(/: partial \(partial run\)/);
  });

  it('AUTH-1 from another catalogue: a warning, and a rule only that catalogue has is a row of its own', () => {
    const other = run('acme@2');
    const edited: RunReport = { ...other.report, catalogue: { hash: `sha256:${'0'.repeat(64)}`, rules: 1 }, rules: [...other.report.rules, { ...other.report.rules[0]!, id: 'NEW-1' }] };
    const m = buildMatrix([run('acme@1'), { ...other, report: edited }]);
    expect(m.notes[0]).toContain('different rule catalogues');
    expect(m.rows.at(-1)).toMatchObject({ id: 'NEW-1', inCatalogue: false });
    expect(m.rows.at(-1)!.cells[0]!.outcome).toBe('absent');
  });

  it('an outcome this version does not know (inconclusive, or anything newer) is shown as it is', () => {
    const base = run('acme@1');
    const odd: Record<string, string> = { 'DEL-1': 'inconclusive', 'DEL-2': 'brand-new' };
    const report = { ...base.report, rules: base.report.rules.map((r) => (odd[r.id] ? { ...r, outcome: odd[r.id] as Outcome } : r)) };
    const m = buildMatrix([{ ...base, report }]);
    const html = renderMatrixHtml(m);
    const md = renderMatrixMarkdown(m);
    expect(html).toContain('? inconclusive');
    expect(html).toContain('class="cell o-generic"');
    expect(md).toContain('❔ inconclusive');
    expect(md).toContain('• brand-new');
  });
});

describe('matrix rendering of hostile inputs', () => {
  it('MAL-1 a label with markup is text in the HTML and cannot break the Markdown table', () => {
    const hostile = '<script>x()</script>|[a](javascript:b)';
    const m = buildMatrix([run(hostile, { 'MAL-1': 'fail' })]);
    const html = renderMatrixHtml(m);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`);
    const md = renderMatrixMarkdown(m);
    expect(md).not.toContain('<script>');
    expect(md).not.toMatch(/[^\\]\|\[a\]/);
    const header = md.split('\n').find((l) => l.startsWith('| Rule |'))!;
    expect(header.split(/(?<!\\)\|/).length, 'one column per run').toBe(4);
    // The link destination holds no raw parenthesis or space that would end it early.
    expect(md).toMatch(/\]\(\.\.\/%3Cscript%3Ex%28%29%3C\/script%3E%7C%5Ba%5D%28javascript:b%29\/conformance\.html#MAL-1\)/);
  });
});

describe('badge', () => {
  it('says the verdict\'s own word: CONFORMANT, NOT CONFORMANT with N failing, or PASSED (partial: …), with the suite version', () => {
    expect(renderBadge(run('a').report)).toContain('>CONFORMANT<');
    const failing = renderBadge(reportOf(outcomesOf(RULES.map((r) => testOf(r.id, r.id === 'FMT-1' || r.id === 'FMT-2' ? 'fail' : 'pass'))), { exitCode: 1 }));
    expect(failing).toContain('>NOT CONFORMANT: 2 failing<');
    expect(failing).toContain('widget-conformance 1.0.0');
    expect(renderBadge(reportOf(outcomesOf([testOf('FMT-1', 'pass')])))).toContain(`>PASSED (partial: 1 of ${RULES.length} rules)<`);
    expect(renderBadge(run('<x>&').report)).not.toContain('<x>');
  });
});

describe('the implementation label in the run reports', () => {
  it('is shown, escaped, in the Markdown and the HTML', async () => {
    const { renderMarkdown } = await import('../../../src/report/markdown.ts');
    const { renderHtml } = await import('../../../src/report/html.ts');
    const report = reportOf(outcomesOf([testOf('FMT-1', 'pass')]), { implementation: 'acme<b>@1.5' });
    expect(report.implementation).toBe('acme<b>@1.5');
    // In a code span: inert, shown as given.
    expect(renderMarkdown(report)).toContain('implementation `acme<b>@1.5`');
    const html = renderHtml(report);
    expect(html).toContain('implementation acme&lt;b&gt;@1.5');
    expect(html).not.toContain('acme<b>');
  });
});
