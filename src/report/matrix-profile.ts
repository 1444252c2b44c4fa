/**
 * The profile rows of `npm run compare` (docs/profile.md): each choice the spec leaves open as a
 * row, one cell per run, and the values that differ from the majority of the runs that observed
 * the choice marked. Data side by side, never a verdict.
 */
import type { RunReport } from './model.ts';
import { NOT_OBSERVED, PROFILE_ENTRIES } from './profile.ts';

/** A run whose report has no profile (an older suite's). */
export const NO_PROFILE = 'no profile in this report';

export interface ProfileCell {
  /** The entry's one-line value, "not observed", or NO_PROFILE. */
  readonly value: string;
  /** Observed, and not the value most runs that observed it show. */
  readonly differs: boolean;
  /** The HAR entries (`_id`) the value rests on in that run. */
  readonly exchanges: readonly string[];
}

export interface ProfileRow {
  readonly key: string;
  readonly topic: string;
  readonly label: string;
  /** The value most runs that observed the choice show; absent when no value has a strict majority over the others. */
  readonly majority?: string;
  readonly cells: readonly ProfileCell[];
}

/** The value seen most often, when it is seen more often than any other. */
function majorityOf(values: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const sorted = [...counts].sort((a, b) => b[1] - a[1]);
  const [first, second] = sorted;
  return first && (!second || first[1] > second[1]) ? first[0] : undefined;
}

/** The profile rows: the catalogue's keys in order, then the keys only some reports hold. */
export function profileRows(reports: readonly RunReport[]): ProfileRow[] {
  if (!reports.some((r) => r.profile)) return [];
  const defs = new Map<string, { topic: string; label: string }>(PROFILE_ENTRIES.map((e) => [e.key, { topic: e.topic, label: e.label }]));
  for (const r of reports) for (const e of r.profile?.entries ?? []) if (!defs.has(e.key)) defs.set(e.key, { topic: e.topic, label: e.label });
  return [...defs].map(([key, def]) => {
    const entries = reports.map((r) => (r.profile ? (r.profile.entries.find((e) => e.key === key) ?? null) : undefined));
    const observed = entries.flatMap((e) => (e?.observed ? [e.value] : []));
    // A choice only one run observed has no majority to differ from.
    const majority = observed.length >= 2 ? majorityOf(observed) : undefined;
    const cells = entries.map((e): ProfileCell => {
      if (e === undefined) return { value: NO_PROFILE, differs: false, exchanges: [] };
      if (e === null || !e.observed) return { value: NOT_OBSERVED, differs: false, exchanges: [] };
      return { value: e.value, differs: majority !== undefined && e.value !== majority, exchanges: e.exchanges };
    });
    return { key, ...def, ...(majority === undefined ? {} : { majority }), cells };
  });
}
