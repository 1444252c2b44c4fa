/**
 * The comparison of several runs (`npm run compare`): rules as rows, one column per run, and
 * what changed between runs of one implementation. Built from conformance.json documents that
 * were validated against their schema; rendered by matrix-html.ts and matrix-md.ts.
 *
 * A rule a run did not check is `absent`, never a pass: a partial run (--only) or a run judged by
 * another catalogue says nothing about it. Outcomes are strings: an outcome this version does
 * not know (a newer suite's) is shown as it is, never dropped.
 */
import { RULES } from '../rules.ts';
import { catalogueHash } from './catalogue-hash.ts';
import type { RuleReport, RunReport } from './model.ts';
import { bySection } from './sections.ts';
import { profileRows, type ProfileRow } from './matrix-profile.ts';

/** A rule the run did not check. */
export const ABSENT = 'absent';
/** Outcomes that pass the gate. */
const PASSING = new Set(['pass', 'warn']);
/** Outcomes that say the rule is broken or could not be judged. */
const NOT_PASSING = new Set(['fail', 'error', 'inconclusive']);

export interface MatrixInput {
  readonly report: RunReport;
  /** The input as the user named it. */
  readonly source: string;
  /** The run's conformance.html, relative to the matrix, when it is there to link to. */
  readonly reportHref?: string;
}

/** regression: fails now, passed in the previous run; fixed: passes now, did not before; changed: any other difference. */
export type ChangeKind = 'regression' | 'fixed' | 'changed';

export interface Change {
  readonly kind: ChangeKind;
  readonly rule: string;
  /** The run the change appears in, and the previous run of the same implementation. */
  readonly column: number;
  readonly previous: number;
  readonly from: string;
  readonly to: string;
}

export interface MatrixCell {
  /** The rule's outcome in this run, or `absent`. */
  readonly outcome: string;
  readonly baselined: boolean;
  /** The rule's evidence in the run's report (outcomes other than pass). */
  readonly href?: string;
  readonly change?: Change;
}

export interface MatrixRow {
  readonly id: string;
  readonly level: string;
  readonly section: string;
  readonly statement: string;
  /** False for a rule only another catalogue has. */
  readonly inCatalogue: boolean;
  readonly cells: readonly MatrixCell[];
  /** How many times (absent runs left out) the outcome changed between runs of one implementation; 2 or more is a flip back and forth. */
  readonly changes: number;
}

export interface MatrixColumn {
  /** Unique among the columns: the implementation, numbered when several runs share it. */
  readonly label: string;
  readonly source: string;
  readonly implementation: string;
  readonly suiteVersion: string;
  readonly interfaceVersion: string;
  readonly catalogueHash: string;
  /** The run's verdict kind (conformant, partial, …): what the cell colours key on. */
  readonly verdict: string;
  /** The run's verdict as its own reports say it ("PASSED (partial: 3 of 42 rules)"), never recomputed, with "(partial run)" where it does not say so. */
  readonly verdictWord: string;
  readonly partial: boolean;
  readonly target: string;
  readonly startedAt: string;
  readonly seed: number;
  /** Rules of the matrix by outcome in this run, `absent` among them. */
  readonly counts: Readonly<Record<string, number>>;
  readonly reportHref?: string;
  /** The previous run of the same implementation, when there is one. */
  readonly previous?: number;
}

export interface Regression {
  readonly rule: string;
  readonly implementation: string;
  /** The last run of the implementation, which fails the rule, and the latest earlier run that passed it. */
  readonly column: number;
  readonly passedIn: number;
}

export interface Matrix {
  readonly columns: readonly MatrixColumn[];
  readonly rows: readonly MatrixRow[];
  readonly sections: ReadonlyArray<{ readonly section: string; readonly rows: readonly MatrixRow[] }>;
  /** What a reader must know before trusting a side-by-side reading: catalogues that differ, partial runs. */
  readonly notes: readonly string[];
  readonly changes: readonly Change[];
  /** Rules the last run of an implementation fails that an earlier run of it passed: --fail-on-regression. */
  readonly regressions: readonly Regression[];
  /** The runs' interoperability profiles side by side (matrix-profile.ts); empty when no report has one. */
  readonly profile: readonly ProfileRow[];
}

/** The name of an implementation label: `acme@1.2` and `acme@1.3` are one implementation. */
export function implementationName(label: string): string {
  const at = label.lastIndexOf('@');
  return at > 0 ? label.slice(0, at) : label;
}

/** For each column, the index of the earliest column of the same implementation (same name, or same base URL). */
export function implementationGroups(reports: readonly RunReport[]): number[] {
  const parent = reports.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (let i = 0; i < reports.length; i += 1) {
    for (let j = 0; j < i; j += 1) {
      const [a, b] = [reports[i]!, reports[j]!];
      if (implementationName(a.implementation) === implementationName(b.implementation) || a.baseUrl === b.baseUrl) {
        const [x, y] = [find(i), find(j)];
        parent[Math.max(x, y)] = Math.min(x, y);
      }
    }
  }
  return reports.map((_, i) => find(i));
}

function changeKind(from: string, to: string): ChangeKind {
  if (to === 'fail' && PASSING.has(from)) return 'regression';
  if (PASSING.has(to) && NOT_PASSING.has(from)) return 'fixed';
  return 'changed';
}

/** Unique column labels: the implementation, with `#2`, `#3` … for its later runs. */
function labels(reports: readonly RunReport[]): string[] {
  const seen = new Map<string, number>();
  const total = new Map<string, number>();
  for (const r of reports) total.set(r.implementation, (total.get(r.implementation) ?? 0) + 1);
  return reports.map((r) => {
    const n = (seen.get(r.implementation) ?? 0) + 1;
    seen.set(r.implementation, n);
    return (total.get(r.implementation) ?? 0) > 1 ? `${r.implementation} #${n}` : r.implementation;
  });
}

/** Every rule of this suite's catalogue in its order, then those only the inputs name, in order of appearance. */
function ruleList(reports: readonly RunReport[]): Array<{ id: string; level: string; section: string; statement: string; inCatalogue: boolean }> {
  const out = RULES.map((r) => ({ id: r.id, level: r.level, section: r.section, statement: r.statement, inCatalogue: true }));
  const known = new Set(out.map((r) => r.id));
  for (const report of reports) {
    for (const r of report.rules) {
      if (known.has(r.id)) continue;
      known.add(r.id);
      out.push({ id: r.id, level: r.level, section: r.section, statement: r.statement, inCatalogue: false });
    }
  }
  return out;
}

function notesOf(inputs: readonly MatrixInput[], columnLabels: readonly string[]): string[] {
  const notes: string[] = [];
  const ours = catalogueHash(RULES);
  const hashes = [...new Set(inputs.map((i) => i.report.catalogue.hash))];
  if (hashes.length > 1 || hashes[0] !== ours) {
    const byHash = hashes.map((h) => {
      const cols = inputs.flatMap((input, i) => (input.report.catalogue.hash === h ? [`${columnLabels[i]} (suite ${input.report.suiteVersion})`] : []));
      return `${h === ours ? "this suite's catalogue" : `catalogue ${h.slice(0, 19)}…`}: ${cols.join(', ')}`;
    });
    notes.push(
      `The runs were judged by different rule catalogues (${byHash.join('; ')}). A rule one catalogue lacks is shown as absent, and a rule reworded between catalogues may mean something else in each column.`,
    );
  }
  const interfaces = [...new Set(inputs.map((i) => i.report.interfaceVersion))];
  if (interfaces.length > 1) notes.push(`The runs checked different interface versions: ${interfaces.join(', ')}.`);
  inputs.forEach((input, i) => {
    if (input.report.partial) {
      const only = input.report.config.only;
      notes.push(`${columnLabels[i]} is a partial run${typeof only === 'string' ? ` (--only ${only})` : ''}: the rules it did not check are shown as absent, not passed.`);
    }
  });
  return notes;
}

/** Lines the runs up rule by rule and marks what changed between runs of one implementation. */
export function buildMatrix(inputs: readonly MatrixInput[]): Matrix {
  const reports = inputs.map((i) => i.report);
  const group = implementationGroups(reports);
  const previous = reports.map((_, c) => {
    for (let p = c - 1; p >= 0; p -= 1) if (group[p] === group[c]) return p;
    return undefined;
  });
  const checkedBefore = (c: number, checked: (q: number) => boolean): number | undefined => {
    for (let q = c - 1; q >= 0; q -= 1) if (group[q] === group[c] && checked(q)) return q;
    return undefined;
  };
  const byId = reports.map((r) => new Map<string, RuleReport>(r.rules.map((rule) => [rule.id, rule])));
  const changes: Change[] = [];
  const rows: MatrixRow[] = ruleList(reports).map((rule) => {
    const outcomes = byId.map((m) => m.get(rule.id)?.outcome ?? ABSENT);
    let count = 0;
    const cells = inputs.map((input, c): MatrixCell => {
      const outcome = outcomes[c]!;
      // Against the latest earlier run of the implementation that checked the rule: a run that
      // did not check it (absent) neither changes it nor hides a change across it.
      const p = outcome === ABSENT ? undefined : checkedBefore(c, (q) => outcomes[q] !== ABSENT);
      const from = p === undefined ? undefined : outcomes[p]!;
      const change = p !== undefined && from !== undefined && from !== outcome ? { kind: changeKind(from, outcome), rule: rule.id, column: c, previous: p, from, to: outcome } : undefined;
      if (change) {
        changes.push(change);
        count += 1;
      }
      const linkable = outcome !== 'pass' && outcome !== ABSENT && input.reportHref !== undefined;
      return {
        outcome,
        baselined: byId[c]!.get(rule.id)?.baselined === true,
        ...(linkable ? { href: `${input.reportHref}#${rule.id}` } : {}),
        ...(change ? { change } : {}),
      };
    });
    return { ...rule, cells, changes: count };
  });
  const columnLabels = labels(reports);
  const columns = inputs.map((input, c): MatrixColumn => {
    const counts: Record<string, number> = {};
    for (const row of rows) counts[row.cells[c]!.outcome] = (counts[row.cells[c]!.outcome] ?? 0) + 1;
    const r = input.report;
    const p = previous[c];
    return {
      label: columnLabels[c]!,
      source: input.source,
      implementation: r.implementation,
      suiteVersion: r.suiteVersion,
      interfaceVersion: r.interfaceVersion,
      catalogueHash: r.catalogue.hash,
      verdict: r.verdict,
      // Reports of versions before the one verdict carry only the kind.
      verdictWord: wordOf(r),
      partial: r.partial,
      target: r.target,
      startedAt: r.startedAt,
      seed: r.seed,
      counts,
      ...(input.reportHref === undefined ? {} : { reportHref: input.reportHref }),
      ...(p === undefined ? {} : { previous: p }),
    };
  });
  const regressions: Regression[] = [];
  for (const last of new Set(group.map((g) => reports.map((_, c) => c).filter((c) => group[c] === g).at(-1)!))) {
    for (const row of rows) {
      if (row.cells[last]!.outcome !== 'fail') continue;
      const passedIn = reports.map((_, c) => c).filter((c) => c < last && group[c] === group[last] && PASSING.has(row.cells[c]!.outcome)).at(-1);
      if (passedIn !== undefined) regressions.push({ rule: row.id, implementation: reports[last]!.implementation, column: last, passedIn });
    }
  }
  return {
    columns,
    rows,
    sections: bySection(rows).map(([section, sectionRows]) => ({ section, rows: sectionRows })),
    notes: notesOf(inputs, columnLabels),
    changes,
    regressions,
    profile: profileRows(reports),
  };
}

/** The label of an outcome in words, for any outcome string (a newer suite's too). */
export function outcomeLabel(outcome: string): string {
  return OUTCOME_WORDS[outcome] ?? outcome;
}
const OUTCOME_WORDS: Readonly<Record<string, string>> = {
  pass: 'pass',
  fail: 'fail',
  warn: 'warn',
  skip: 'skip',
  error: 'error',
  inconclusive: 'inconclusive',
  [ABSENT]: 'absent',
};

/** The words for a change, as the matrix shows it. */
export const CHANGE_WORDS: Readonly<Record<ChangeKind, string>> = { regression: 'regression', fixed: 'newly passing', changed: 'changed' };

/** The verdict as the run's reports say it; reports of versions before the one verdict carry only its kind. */
function wordOf(r: { readonly verdict: string; readonly partial: boolean }): string {
  const headline = (r as { verdictDetail?: { headline?: unknown } }).verdictDetail?.headline;
  const word = typeof headline === 'string' ? headline : r.verdict;
  return r.partial && !/partial/i.test(word) ? `${word} (partial run)` : word;
}
