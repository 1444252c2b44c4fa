/**
 * Field-by-field differences between two Widgets, for failure messages: "description: created
 * "blue", retrieved nothing (undefined)". Pure: the comparisons are the ones the checks judge
 * by (created_at as an instant, an empty and an absent description as one, an id as the suite
 * addresses it).
 */
import { idText, parseRfc3339, preview } from '../schema.ts';

/** The Widget fields a retrieve must give back as they were created. */
export const WIDGET_FIELDS = ['id', 'name', 'description', 'created_at'] as const;
export type WidgetField = (typeof WIDGET_FIELDS)[number];

/** Same instant for RFC 3339 strings in any notation; plain equality otherwise. */
export function sameInstant(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return sameJson(a, b);
  const ta = parseRfc3339(a);
  const tb = parseRfc3339(b);
  return Number.isNaN(ta) || Number.isNaN(tb) ? a === b : ta === tb;
}

/**
 * Same description: an empty description and none are one and the same (the field is
 * optional in responses), whichever a server chooses to send; any other difference counts.
 */
export function sameDescription(a: unknown, b: unknown): boolean {
  return (a === undefined || a === '') && (b === undefined || b === '') ? true : sameJson(a, b);
}

/** Most JSON nodes sameJson() visits: past it the values are called the same (see there). */
const MAX_COMPARED_NODES = 1_000_000;

/**
 * Same JSON value, by structure: two answers that each hold `[1]` parse to two arrays that are
 * not `===`. Iterative, so a value nested 100,000 deep (a hostile server's) cannot overflow the
 * stack. Values too large to compare within MAX_COMPARED_NODES count as the same: such a field is
 * not a string, which FMT-3 judges; no other rule is blamed on a guess.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  const pending: Array<[unknown, unknown]> = [[a, b]];
  for (let visited = 0; pending.length > 0; visited++) {
    if (visited > MAX_COMPARED_NODES) return true;
    const [x, y] = pending.pop()!;
    if (x === y) continue;
    if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object' || Array.isArray(x) !== Array.isArray(y)) return false;
    const xs = x as Record<string, unknown>;
    const ys = y as Record<string, unknown>;
    const keys = Object.keys(xs);
    if (keys.length !== Object.keys(ys).length) return false;
    for (const k of keys) {
      if (!Object.hasOwn(ys, k)) return false;
      pending.push([xs[k], ys[k]]);
    }
  }
  return true;
}

/**
 * Same id: the same string, or the same id with one side written as an integer JSON number ("7"
 * and 7, as a Perl server writes an id once a numeric sort has touched it). The type is the
 * Widget schema's (FMT-3) to judge; the widget is the same.
 */
export function sameId(a: unknown, b: unknown): boolean {
  return a === b || (idText(a) !== undefined && idText(a) === idText(b));
}

/** True when the field holds the same value in both, by the rule's comparison for that field. */
export function sameField(field: WidgetField, a: unknown, b: unknown): boolean {
  return field === 'created_at' ? sameInstant(a, b) : field === 'description' ? sameDescription(a, b) : field === 'id' ? sameId(a, b) : sameJson(a, b);
}

type Fields = Readonly<Record<string, unknown>>;

/** The Widget fields in which `got` differs from `want`. */
export function differingFields(want: Fields, got: Fields): WidgetField[] {
  return WIDGET_FIELDS.filter((k) => !sameField(k, want[k], got[k]));
}

/**
 * One line per differing field: `description: created "blue", retrieved nothing (undefined)`.
 * `wantLabel` and `gotLabel` say where each value came from; empty when nothing differs.
 */
export function describeDifferences(want: Fields, got: Fields, wantLabel: string, gotLabel: string, fields: readonly WidgetField[] = differingFields(want, got)): string {
  return fields.map((k) => `${k}: ${wantLabel} ${preview(want[k])}, ${gotLabel} ${preview(got[k])}`).join('; ');
}
