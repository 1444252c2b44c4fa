/**
 * Does junit.xml tell the same story as conformance.json? Read back from the file the suite
 * writes (report/junit.ts): each rule's `<id>.outcome` property, and each testcase's rule (the
 * classname after its last dot), title and how it ended. A regular-expression reader suffices
 * for the suite's own format; anything it cannot find is a disagreement, never a pass.
 */
import { isCutShort } from '../../report/verdict.ts';
import type { RunReport } from '../../report/model.ts';

interface JunitCase {
  readonly rule: string;
  readonly title: string;
  /** failure, error, skipped, system-out, or '' for a pass. */
  readonly ending: string;
}

/** What junit.xml says: rule outcomes from its properties, and its testcases. */
export function readJunit(xml: string): { outcomes: Map<string, string>; cases: JunitCase[] } {
  const outcomes = new Map<string, string>();
  for (const m of xml.matchAll(/<property name="([A-Z]+-\d+)\.outcome" value="([^"]*)"\/>/g)) outcomes.set(m[1]!, unescapeXml(m[2]!));
  const cases: JunitCase[] = [];
  for (const m of xml.matchAll(/<testcase name="([^"]*)" classname="([^"]*)"[^>]*?(\/>|>\s*<(failure|error|skipped|system-out)\b)/g)) {
    const classname = unescapeXml(m[2]!);
    cases.push({ rule: classname.slice(classname.lastIndexOf('.') + 1), title: unescapeXml(m[1]!), ending: m[4] ?? '' });
  }
  return { outcomes, cases };
}

function unescapeXml(text: string): string {
  return text.replace(/&(#x?[0-9a-f]+|amp|lt|gt|quot|apos);/gi, (_, e: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (named[e] !== undefined) return named[e]!;
    const code = e.startsWith('#x') || e.startsWith('#X') ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

/** How report/junit.ts ends a testcase of each known outcome; an outcome not listed is not checked this way. */
const ENDING: Readonly<Record<string, string>> = { pass: '', fail: 'failure', error: 'error', skip: 'skipped', warn: 'system-out' };

/** One line per disagreement between junit.xml and the report. */
export function junitDisagreements(xml: string, report: RunReport): string[] {
  const { outcomes, cases } = readJunit(xml);
  const problems: string[] = [];
  // Grouped once, looked up by key: a search per rule (and per test) was quadratic on a vendor's bundle of 80,000 rules.
  const byRule = new Map<string, JunitCase[]>();
  for (const c of cases) {
    const group = byRule.get(c.rule);
    if (group) group.push(c);
    else byRule.set(c.rule, [c]);
  }
  for (const rule of report.rules) {
    const said = outcomes.get(rule.id);
    if (said === undefined) problems.push(`junit.xml: no outcome for ${rule.id} (conformance.json: ${rule.outcome})`);
    else if (said !== rule.outcome) problems.push(`junit.xml: ${rule.id} is ${said}, conformance.json says ${rule.outcome}`);
    const own = byRule.get(rule.id) ?? [];
    const titles = (xs: readonly string[]) => [...xs].sort().join('\n');
    if (titles(own.map((c) => c.title)) !== titles(rule.tests.map((t) => t.title))) {
      problems.push(`junit.xml: the tests of ${rule.id} are not those of conformance.json (${own.length} testcases, ${rule.tests.length} tests)`);
      continue;
    }
    const ownByTitle = new Map<string, JunitCase>();
    for (const c of own) if (!ownByTitle.has(c.title)) ownByTitle.set(c.title, c);
    for (const t of rule.tests) {
      // A known failure (in the baseline) is a skip that says so (report/junit.ts, docs/gate.md).
      // A check cut short by its time budget passes saying how much of it ran (a system-out).
      const expected = t.outcome === 'fail' && rule.baselined ? 'skipped' : t.outcome === 'pass' && isCutShort(t.runs) ? 'system-out' : ENDING[t.outcome];
      const found = ownByTitle.get(t.title);
      if (expected !== undefined && found !== undefined && found.ending !== expected) {
        problems.push(`junit.xml: "${t.title}" ends ${found.ending || 'as a pass'}, conformance.json says ${t.outcome}`);
      }
    }
  }
  const known = new Set(report.rules.map((r) => r.id));
  const extra = [...new Set([...outcomes.keys(), ...cases.map((c) => c.rule).filter((r) => r !== 'errors')])].filter((id) => !known.has(id));
  if (extra.length > 0) problems.push(`junit.xml: rules conformance.json does not have: ${extra.join(', ')}`);
  return problems;
}
