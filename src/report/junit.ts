/**
 * junit.xml, written by the suite from its own report (not by vitest's junit reporter), so that
 * CI tools read it right: it is valid against the junit-10 schema Jenkins' xunit plugin checks
 * (schemas/junit-10.xsd: no properties inside a testcase), a test that never ran is a
 * `<skipped>` and never a plain (passed) testcase, each failure's text appears once (a one-line
 * `message` attribute, the full text in the body, no serialised error dump), and a SHOULD
 * warning is system-out and a suite property, a failure only under --strict.
 *
 * One testsuite per rule family, in catalogue order. Each testcase's classname is
 * `<family>.<rule id>` (e.g. `CRUD.CRUD-4`): CI tools split a classname at its last dot into a
 * package and a class, so the tree reads family, then rule, then test, and a dashboard keys on
 * the rule id after the dot. The level and section cannot go in the classname: sections hold
 * dots (`§4.2`) that would break that split. They are the suite's properties instead,
 * `<rule id>.level` and `<rule id>.section` (with `.warning`, `.runs` and `.baseline` where they apply).
 */
import type { FailureReport, RuleReport, RunReport, TestReport } from './model.ts';
import { settleWindowLine } from './profile-md.ts';
import { cutShortNote, isCutShort } from './verdict.ts';

/** Characters XML 1.0 cannot carry at all (controls but tab, newline and return; lone surrogates; U+FFFE/F). */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Characters XML 1.0 allows but no reader should receive raw: DEL, C1 controls, bidirectional
 * marks, overrides and isolates, line and paragraph separators.
 */
const UNSHOWN = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Shows a character XML cannot carry, or no reader should receive raw, as its `\uXXXX` escape, so the text stays readable and the file parses. */
function xmlSafe(text: string): string {
  const escape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  return text.replace(NOT_XML, escape).replace(UNSHOWN, escape);
}

/** Escapes element content. A return is escaped because a parser would turn a raw one into a newline. */
export function xmlText(text: string): string {
  return xmlSafe(text).replace(/[&<>\r]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' })[c] as string);
}

/** Escapes an attribute value; whitespace other than spaces is escaped, since a parser would turn it into spaces. */
export function xmlAttr(text: string): string {
  return xmlSafe(text).replace(/[&<>"'\n\r\t]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\n': '&#10;', '\r': '&#13;', '\t': '&#9;' })[c] as string);
}

/** The most a one-line message attribute holds; the body has the whole text. */
const MESSAGE_MAX = 500;

/** A message attribute: the text's first non-empty line, whitespace flattened, cut. */
export function oneLine(text: string): string {
  const first = text.split(/\r\n|\r|\n/).find((l) => l.trim() !== '') ?? '';
  const flat = first.replace(/\s+/g, ' ').trim();
  return flat.length > MESSAGE_MAX ? `${flat.slice(0, MESSAGE_MAX)}…` : flat;
}

const seconds = (ms: number): string => (Math.max(0, ms) / 1000).toFixed(3);

const familyOf = (id: string): string => id.replace(/-\d+$/, '');

function attrs(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${xmlAttr(String(v))}"`)
    .join('');
}

/** The element that says how a test ended; empty for a pass. */
function verdictElement(rule: RuleReport, test: TestReport): string {
  switch (test.outcome) {
    case 'fail': {
      const failures: readonly FailureReport[] = test.failures?.length ? test.failures : [{ message: `${rule.id} failed` }];
      const text = failures.map((f) => f.message).join('\n\n');
      // A known failure (in the baseline) is a skip saying so, with the whole failure beside it: CI
      // publishers mark a check red for any <failure>, and the gate passed (docs/gate.md). Counted
      // as skipped, never as passed; the verdict in every other report stays "not conformant".
      if (rule.baselined) {
        const body = rule.intermittent ? `${text}\n\n${secondAttemptText(rule)}` : text;
        return `<skipped${attrs({ message: `known failure (baseline): ${oneLine(text)}` })}/><system-out>${xmlText(`${rule.id} failed, as the baseline expects (the gate passed over it):\n\n${body}`)}</system-out>`;
      }
      // Intermittent: still a failure (a race is a fault), labelled, with the second attempt's evidence.
      const flaky = rule.intermittent ? 'intermittent (passed on the second attempt): ' : '';
      const body = rule.intermittent ? `${text}\n\n${secondAttemptText(rule)}` : text;
      const type = `${rule.level} rule failed${rule.intermittent ? ', intermittent' : ''}`;
      return `<failure${attrs({ type, message: `${flaky}${oneLine(text)}` })}>${xmlText(body)}</failure>`;
    }
    case 'error': {
      const text = (test.errors ?? []).join('\n\n') || 'the suite could not complete the check';
      return `<error${attrs({ type: 'suite error (no verdict)', message: oneLine(text) })}>${xmlText(text)}</error>`;
    }
    case 'skip':
      return `<skipped${attrs({ message: oneLine(test.skipReason ?? 'skipped') })}/>`;
    case 'inconclusive': {
      // Never counted as passed, nor as a failure of its own: a skip that names the rule that explains it.
      // A test of a rule its other tests judged (one that observed nothing) says its own reason.
      const note = rule.inconclusive?.note ?? test.errors?.[0] ?? 'no verdict';
      const text = [`${rule.id} inconclusive: ${note}`, ...(test.errors ?? [])].join('\n\n');
      return `<skipped${attrs({ message: `inconclusive: ${oneLine(note)}` })}/><system-out>${xmlText(text)}</system-out>`;
    }
    case 'warn': {
      const lines = (test.warnings ?? []).map((w) => `${rule.id} (SHOULD) warning${rule.intermittent ? ' (intermittent)' : ''}: ${w}`);
      if (rule.intermittent) lines.push(secondAttemptText(rule));
      return `<system-out>${xmlText(lines.join('\n'))}</system-out>`;
    }
    case 'pass':
      // A check cut short by its time budget passed what ran: it says how much, where it is shown passing.
      return isCutShort(test.runs) ? `<system-out>${xmlText(`${rule.id} passed, ${cutShortNote(test.runs as string)}`)}</system-out>` : '';
  }
}


/** The second attempt of a rechecked rule, as text. */
function secondAttemptText(rule: RuleReport): string {
  const a = rule.secondAttempt;
  if (!a) return '';
  return [`second attempt (same seed): ${a.outcome}`, ...a.tests.map((t) => `  ${t.title}: ${t.outcome}${t.message ? ` (${oneLine(t.message)})` : ''}`)].join('\n');
}

function testcase(rule: RuleReport, test: TestReport): string {
  const inner = verdictElement(rule, test);
  const open = `<testcase${attrs({ name: test.title, classname: `${familyOf(rule.id)}.${rule.id}`, time: seconds(test.durationMs) })}`;
  return inner ? `    ${open}>${inner}</testcase>` : `    ${open}/>`;
}

/** The rule's facts a dashboard reads, as suite properties keyed by rule id. */
function properties(rules: readonly RuleReport[], run: ReadonlyArray<[string, string]> = []): string[] {
  const props: Array<[string, string]> = [...run];
  for (const r of rules) {
    props.push([`${r.id}.level`, r.level], [`${r.id}.section`, r.section], [`${r.id}.outcome`, r.outcome]);
    if (r.inconclusive) props.push([`${r.id}.inconclusive`, r.inconclusive.note]);
    if (r.intermittent) props.push([`${r.id}.intermittent`, `${r.outcome === 'fail' ? 'failed' : 'warned'} on the first attempt, ${r.secondAttempt?.outcome === 'pass' ? 'passed' : r.secondAttempt?.outcome ?? 'not rerun'} on the second (same seed)`]);
    if (r.baselined) props.push([`${r.id}.baseline`, r.outcome === 'fail' ? 'known failure' : 'listed in the baseline']);
    for (const t of r.tests) {
      for (const w of t.warnings ?? []) props.push([`${r.id}.warning`, oneLine(w)]);
      if (t.runs) props.push([`${r.id}.runs`, t.runs]);
    }
  }
  return ['    <properties>', ...props.map(([name, value]) => `      <property${attrs({ name, value })}/>`), '    </properties>'];
}

interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  ms: number;
}

function countsOf(rules: readonly RuleReport[]): Counts {
  const tests = rules.flatMap((r) => r.tests.map((t) => ({ t, known: r.baselined === true && t.outcome === 'fail' })));
  const n = (o: TestReport['outcome']): number => tests.filter(({ t, known }) => t.outcome === o && !known).length;
  const known = tests.filter((x) => x.known).length;
  return { tests: tests.length, failures: n('fail'), errors: n('error'), skipped: n('skip') + n('inconclusive') + known, ms: tests.reduce((s, { t }) => s + t.durationMs, 0) };
}

function testsuite(name: string, timestamp: string, c: Counts, body: string[]): string[] {
  return [`  <testsuite${attrs({ name, tests: c.tests, failures: c.failures, errors: c.errors, skipped: c.skipped, time: seconds(c.ms), timestamp })}>`, ...body, '  </testsuite>'];
}

/** Renders the run's report as junit.xml. */
export function renderJunit(report: RunReport): string {
  const families = [...new Set(report.rules.map((r) => familyOf(r.id)))];
  const suites: string[] = [];
  const total: Counts = { tests: 0, failures: 0, errors: 0, skipped: 0, ms: 0 };
  const add = (c: Counts): void => void (Object.keys(total) as Array<keyof Counts>).forEach((k) => (total[k] += c[k]));
  // A verdict reached with a settle window says so wherever it is read (profile-md.ts).
  const settle = settleWindowLine(report.profile?.listSettleMs);
  // The verdict as every format says it (verdict.ts), on every suite a dashboard may read alone.
  const run: Array<[string, string]> = [['verdict', report.verdictDetail.headline], ['verdict.kind', report.verdict], ['verdict.label', oneLine(report.verdictDetail.label)]];
  if (settle) run.push(['list-settle-ms', settle]);
  for (const family of families) {
    const rules = report.rules.filter((r) => familyOf(r.id) === family);
    const c = countsOf(rules);
    add(c);
    suites.push(...testsuite(family, report.startedAt, c, [...properties(rules, run), ...rules.flatMap((r) => r.tests.map((t) => testcase(r, t)))]));
  }
  // Errors outside any rule test (a file that failed to load, an unhandled error): CI must see them.
  if (report.suiteErrors.length > 0) {
    const c: Counts = { tests: report.suiteErrors.length, failures: 0, errors: report.suiteErrors.length, skipped: 0, ms: 0 };
    add(c);
    const cases = report.suiteErrors.map(
      (e, i) => `    <testcase${attrs({ name: `suite error ${i + 1}: ${oneLine(e)}`, classname: 'suite.errors', time: seconds(0) })}><error${attrs({ type: 'suite error (no verdict)', message: oneLine(e) })}>${xmlText(e)}</error></testcase>`,
    );
    suites.push(...testsuite('suite errors', report.startedAt, c, cases));
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name: 'Widget Service conformance', tests: total.tests, failures: total.failures, errors: total.errors, time: seconds(report.durationMs) })}>`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
