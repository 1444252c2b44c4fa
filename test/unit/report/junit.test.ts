/**
 * junit.xml as CI tools read it (report/junit.ts): rule id, level and section reachable without
 * testcase properties, each failure's text once with a one-line message, tests that never ran
 * as skipped, SHOULD warnings apart from failures, and server text that cannot break the XML.
 * The schema itself is checked with xmllint against real runs in test/e2e/junit.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { oneLine, renderJunit, xmlAttr, xmlText } from '../../../src/report/junit.ts';
import { outcomesOf, reportOf, testOf } from '../support/report.ts';

/** The `<testcase …>…</testcase>` (or self-closed) element whose name starts with the rule id. */
function testcaseOf(xml: string, id: string): string {
  const match = new RegExp(`<testcase name="${id} [^"]*"[^>]*?(/>|>[\\s\\S]*?</testcase>)`).exec(xml);
  if (!match) throw new Error(`no testcase for ${id} in:\n${xml}`);
  return match[0];
}

const attr = (element: string, name: string): string | undefined => new RegExp(`\\s${name}="([^"]*)"`).exec(element)?.[1];

describe('junit.xml', () => {
  const failure = `CRUD-4 (MUST, §4.3): retrieve returns the widget exactly as create returned it\n  expected: "a"\n  received: "b"\n\nGET /v1/widgets/1\n< 200`;
  const report = reportOf(
    outcomesOf([
      testOf('CRUD-1', 'pass'),
      testOf('CRUD-4', 'fail', { failures: [{ message: failure }], messages: [failure] }),
      testOf('CRUD-6', 'warn', { warnings: ['CRUD-6 (SHOULD, §4.2): create answers 201 | expected: 201 | received: 200'] }),
      testOf('ISO-1', 'skip', { skipReason: 'not run: the run was interrupted by SIGINT' }),
      testOf('PAGE-3', 'error', { messages: ['request timed out\nafter 1000 ms'] }),
      testOf('PROP-1', 'pass', { runs: '50 of 50' }),
    ]),
    { exitCode: 1 },
  );
  const xml = renderJunit(report);

  it('a passing test is a plain testcase whose classname is family.rule id, timed in seconds', () => {
    expect(testcaseOf(xml, 'CRUD-1')).toBe('<testcase name="CRUD-1 a test (pass)" classname="CRUD.CRUD-1" time="0.012"/>');
  });

  it('has no properties inside a testcase; each family suite carries level and section per rule', () => {
    expect(xml).not.toMatch(/<testcase[^>]*[^/]>\s*<properties>/);
    expect(xml).toContain('<property name="CRUD-4.level" value="MUST"/>');
    expect(xml).toContain('<property name="CRUD-4.section" value="§4.3"/>');
    expect(xml).toContain('<property name="PROP-1.runs" value="50 of 50"/>');
    expect(xml.match(/<testsuite name="[^"]*"/g)).toEqual(['<testsuite name="CRUD"', '<testsuite name="ISO"', '<testsuite name="PAGE"', '<testsuite name="PROP"']);
  });

  it('a failure has a one-line message attribute and its full text once, in the body, with no serialized error', () => {
    const element = testcaseOf(xml, 'CRUD-4');
    const message = attr(element, 'message');
    expect(message).toBe('CRUD-4 (MUST, §4.3): retrieve returns the widget exactly as create returned it');
    expect(element).toContain('>CRUD-4 (MUST, §4.3): retrieve returns the widget exactly as create returned it\n  expected: "a"');
    expect(xml.split('expected: "a"').length - 1).toBe(1);
    expect(xml).not.toContain('Serialized Error');
  });

  it('a test that never ran is skipped with its reason, never a plain testcase', () => {
    expect(testcaseOf(xml, 'ISO-1')).toMatch(/><skipped message="not run: the run was interrupted by SIGINT"\/><\/testcase>$/);
  });

  it('a SHOULD warning is system-out and a suite property, not a failure', () => {
    const element = testcaseOf(xml, 'CRUD-6');
    expect(element).not.toContain('<failure');
    expect(element).toContain('<system-out>CRUD-6 (SHOULD) warning: CRUD-6 (SHOULD, §4.2): create answers 201');
    expect(xml).toContain('<property name="CRUD-6.warning" value="CRUD-6 (SHOULD, §4.2): create answers 201 | expected: 201 | received: 200"/>');
  });

  it('a suite error is an <error>, one-line message, full text in the body', () => {
    const element = testcaseOf(xml, 'PAGE-3');
    expect(attr(element, 'message')).toBe('request timed out');
    expect(element).toContain('>request timed out\nafter 1000 ms</error>');
  });

  it('counts per suite and in all: failures, errors and skips apart', () => {
    expect(xml).toMatch(/<testsuite name="CRUD" tests="3" failures="1" errors="0" skipped="0" time="0.036"/);
    expect(xml).toMatch(/<testsuites name="Widget Service conformance" tests="6" failures="1" errors="1" time="4.500">/);
  });

  it('a SHOULD failure under --strict is a failure', () => {
    const strict = renderJunit(reportOf(outcomesOf([testOf('CRUD-6', 'fail')]), { exitCode: 1, strict: true }));
    expect(testcaseOf(strict, 'CRUD-6')).toContain('<failure type="SHOULD rule failed" message="CRUD-6 failed">');
  });

  it('a failure the baseline expects is a skip saying "known failure (baseline)", never a <failure> (the workflow check stays green with the gate) and never a pass', () => {
    const known = renderJunit(reportOf(outcomesOf([testOf('CRUD-4', 'fail')]), { exitCode: 0, baseline: { file: 'k.txt', ids: new Set(['CRUD-4']) } }));
    expect(testcaseOf(known, 'CRUD-4')).toContain('<skipped message="known failure (baseline): CRUD-4 failed"/>');
    expect(known).not.toContain('<failure');
    expect(known).toMatch(/<testsuite name="CRUD" tests="1" failures="0" errors="0" skipped="1"/);
    // The whole failure is still there to read.
    expect(known).toContain('CRUD-4 failed, as the baseline expects (the gate passed over it)');
    expect(known).toContain('<property name="CRUD-4.baseline" value="known failure"/>');
  });

  it('a failure not in the baseline stays a <failure>', () => {
    const failed = renderJunit(reportOf(outcomesOf([testOf('CRUD-4', 'fail')]), { exitCode: 1, baseline: { file: 'k.txt', ids: new Set(['CRUD-1']) } }));
    expect(testcaseOf(failed, 'CRUD-4')).toContain('<failure');
  });

  it('suite errors outside any rule are error testcases of their own suite', () => {
    const errored = renderJunit(reportOf(outcomesOf([testOf('CRUD-1', 'pass')], ['suites/crud.test.ts: failed to load\n  at line 3']), { exitCode: 3 }));
    expect(errored).toContain('<testsuite name="suite errors" tests="1" failures="0" errors="1"');
    expect(errored).toContain('<error type="suite error (no verdict)" message="suites/crud.test.ts: failed to load">suites/crud.test.ts: failed to load\n  at line 3</error>');
  });
});

describe('XML escaping of server text', () => {
  it('element text: markup and CDATA ends escaped, characters XML cannot carry shown as \\u escapes', () => {
    expect(xmlText('<a> & ]]> \u0000\u001b\uFFFE \uD800x \r')).toBe('&lt;a&gt; &amp; ]]&gt; \\u0000\\u001b\\ufffe \\ud800x &#13;');
  });

  it('keeps astral characters (a valid surrogate pair) as they are', () => {
    expect(xmlText('😀')).toBe('😀');
    expect(xmlAttr('😀')).toBe('😀');
  });

  it('attributes: quotes and whitespace escaped, so a parser reads back the same value', () => {
    expect(xmlAttr(`"x' <y>\n\t&`)).toBe('&quot;x&apos; &lt;y&gt;&#10;&#9;&amp;');
  });

  it('a message is the first non-empty line, whitespace flattened, cut at 500 characters', () => {
    expect(oneLine('\n  first\tline  \nsecond')).toBe('first line');
    expect(oneLine('a\r\nb')).toBe('a');
    expect(oneLine('x'.repeat(600))).toBe(`${'x'.repeat(500)}…`);
  });
});
