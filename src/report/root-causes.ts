/**
 * One fault, the rule it breaks: failures grouped by root cause. A check that could not reach a
 * verdict because something it depends on is broken is inconclusive (errors.ts
 * InconclusiveError); here each inconclusive rule is tied to the failed (or warned) rules that
 * explain it, following inconclusive rules through ("PAGE-4 depends on PAGE-1, which is
 * inconclusive because CRUD-3 failed" is explained by CRUD-3), and each broken rule heads a group
 * listing what it explains. Pure: every report format renders the same groups.
 */
import { BROKEN, type InconclusiveReport, type Outcome, type RootCauseGroup } from './model.ts';

/** What the grouping needs of a rule. */
export interface RuleFacts {
  readonly id: string;
  readonly outcome: Outcome;
  /** Inconclusive rules: the rules their tests named (InconclusiveError.dependsOn), merged. */
  readonly dependsOn?: readonly string[];
  /** How many of the rule's tests made no observation of the server (harness/rule.ts), of how many. */
  readonly observedNothing?: { readonly tests: number; readonly of: number };
  /** One line of what differed, for a broken rule (see headlineOf). */
  readonly headline?: string;
  readonly intermittent?: boolean;
}

export interface RootCauses {
  /** Every broken rule, in the order given, with the inconclusive rules it explains. */
  readonly groups: readonly RootCauseGroup[];
  /** Each inconclusive rule's explanation, by id. */
  readonly inconclusive: ReadonlyMap<string, InconclusiveReport>;
}

const WHICH: Record<Outcome, string> = {
  fail: 'failed',
  warn: 'warned',
  pass: 'passed',
  skip: 'was skipped',
  error: 'ended in a suite error',
  inconclusive: 'is inconclusive',
};

/** Groups the rules of a run by root cause. */
export function rootCauses(rules: readonly RuleFacts[]): RootCauses {
  const byId = new Map(rules.map((r) => [r.id, r]));
  // The broken rules behind one rule, through chains of inconclusive rules; a cycle explains nothing.
  const explainers = (id: string, seen: Set<string>): string[] => {
    if (seen.has(id)) return [];
    seen.add(id);
    const r = byId.get(id);
    if (!r) return [];
    if (BROKEN.has(r.outcome)) return [id];
    if (r.outcome !== 'inconclusive') return [];
    return (r.dependsOn ?? []).flatMap((d) => explainers(d, seen));
  };
  const inconclusive = new Map<string, InconclusiveReport>();
  for (const r of rules.filter((x) => x.outcome === 'inconclusive')) {
    const dependsOn = [...new Set(r.dependsOn ?? [])];
    const explainedBy = [...new Set(dependsOn.flatMap((d) => explainers(d, new Set([r.id]))))];
    inconclusive.set(r.id, { dependsOn, explainedBy, note: withNothingObserved(noteOf(dependsOn, explainedBy, byId), dependsOn, r.observedNothing) });
  }
  const groups: RootCauseGroup[] = rules
    .filter((r) => BROKEN.has(r.outcome))
    .map((r) => ({
      rule: r.id,
      outcome: r.outcome as 'fail' | 'warn',
      headline: r.headline ?? `${r.id} ${WHICH[r.outcome]}`,
      explains: [...inconclusive].filter(([, e]) => e.explainedBy.includes(r.id)).map(([id]) => id),
      ...(r.intermittent ? { intermittent: true } : {}),
    }));
  return { groups, inconclusive };
}

/**
 * The note of a rule some of whose tests made no observation of the server: when nothing else
 * made it inconclusive, that is the whole reason, said as such (no check was evaluated, so it
 * neither passed nor failed); otherwise it is said after the rules it depends on.
 */
function withNothingObserved(note: string, dependsOn: readonly string[], observed: RuleFacts['observedNothing']): string {
  if (observed === undefined) return note;
  const which = observed.tests === observed.of ? (observed.of === 1 ? 'its test' : `its ${observed.of} tests`) : `${observed.tests} of its ${observed.of} tests`;
  const said = `${which} made no observation of the server (no check of it was evaluated against an answer)`;
  return dependsOn.length === 0 ? `no verdict: ${said}, so it neither passed nor failed` : `${note}; and ${said}`;
}

/** "depends on CRUD-3, which failed", said honestly when what it depends on did not fail. */
function noteOf(dependsOn: readonly string[], explainedBy: readonly string[], byId: ReadonlyMap<string, RuleFacts>): string {
  if (dependsOn.length === 0) return 'inconclusive, and no rule of the catalogue explains it: a problem of the suite (please report it)';
  const parts = dependsOn.map((d) => {
    const r = byId.get(d);
    if (!r) return `${d}, which was not run`;
    if (r.outcome === 'inconclusive') {
      const through = explainers(d, explainedBy, byId);
      return `${d}, which is inconclusive${through.length ? ` (because ${through.join(', ')} ${through.length === 1 ? WHICH[byId.get(through[0] as string)?.outcome ?? 'fail'] : 'failed'})` : ''}`;
    }
    return `${d}, which ${WHICH[r.outcome]}`;
  });
  const said = `depends on ${parts.join('; ')}`;
  if (explainedBy.length > 0) return said;
  // What it depends on could not be checked itself (a timeout, a page over the body cap): that error is the reason, said once where it happened.
  if (dependsOn.every((d) => byId.get(d)?.outcome === 'error')) return `${said}: no failure explains it; no verdict until that check can complete`;
  // Only what the records hold: no failure of what it names was recorded. Whether the suite or the
  // server is at fault is not recorded (a refusal, an answer no rule judges): it is not guessed here.
  return `${said}: no failure of ${dependsOn.length === 1 ? 'it' : 'them'} was recorded in this run, so nothing explains it; its own message says what its check saw`;
}

/** The explaining rules reached through an inconclusive dependency (for the note only). */
function explainers(id: string, explainedBy: readonly string[], byId: ReadonlyMap<string, RuleFacts>): string[] {
  const seen = new Set<string>();
  const walk = (x: string): string[] => {
    if (seen.has(x)) return [];
    seen.add(x);
    const r = byId.get(x);
    if (!r) return [];
    if (BROKEN.has(r.outcome)) return explainedBy.includes(x) ? [x] : [];
    return r.outcome === 'inconclusive' ? (r.dependsOn ?? []).flatMap(walk) : [];
  };
  return [...new Set(walk(id))];
}

/** One line per group, for the console and Markdown: "FMT-2 failed: <what differed>: also explains CRUD-5, AUTH-1". */
export function groupLine(g: RootCauseGroup): string {
  const label = `${g.rule} ${g.outcome === 'fail' ? 'failed' : 'warned'}${g.intermittent ? ' (intermittent)' : ''}`;
  return `${label}: ${g.headline}${g.explains.length ? `: also explains ${g.explains.join(', ')}` : ''}`;
}

/** What a test of a broken rule tells of it, for the headline. */
export interface HeadlineTest {
  readonly title: string;
  readonly outcome: Outcome;
  readonly failures?: ReadonlyArray<{ readonly message: string; readonly received?: string }>;
  readonly warnings?: readonly string[];
}

const HEADLINE_MAX = 160;
const cut = (text: string): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > HEADLINE_MAX ? `${flat.slice(0, HEADLINE_MAX)}…` : flat;
};

/** What differed, in one line: the first broken test's title (without the rule id) and what it received. */
export function headlineOf(tests: readonly HeadlineTest[]): string | undefined {
  const t = tests.find((x) => BROKEN.has(x.outcome));
  if (!t) return undefined;
  const title = t.title.replace(/^[A-Z]+-\d+ /, '');
  // A failure carries what was received; a warning keeps it as a "received: …" line of its message.
  const text = t.failures?.[0]?.message ?? t.warnings?.[0] ?? '';
  const received = t.failures?.find((f) => f.received !== undefined)?.received ?? /received: (.*?)(?: \| |\n|$)/.exec(text)?.[1];
  return received === undefined ? cut(title) : `${cut(title)} (received ${cut(received)})`;
}
