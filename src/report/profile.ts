/**
 * The interoperability profile of a run (docs/profile.md): for each choice the spec leaves
 * open, what this implementation was seen to choose, with the exchanges it rests on. Data,
 * never a verdict. Its shape is `profile` in schemas/conformance-report.schema.json; entry keys
 * are stable (dashboards and `compare` key on them).
 */
import type { Exchange } from '../shared/exchange.ts';
import { NONE, NOTE_PREFIX, OTHER_VALUES, type TallyData } from './profile-facts.ts';

export const NOT_OBSERVED = 'not observed';
/** Bumped only when a key or value changes meaning. */
export const PROFILE_VERSION = 1;
/** Evidence exchanges named per entry, at most. */
const EVIDENCE_PER_ENTRY = 4;

export interface ProfileValue {
  readonly value: string;
  readonly count: number;
  /** The HAR entry (`_id`) of the first exchange that showed it. */
  readonly exchange?: string;
}

export interface ProfileEntry {
  /** Stable, e.g. `status.create.valid`. */
  readonly key: string;
  readonly topic: string;
  readonly label: string;
  readonly observed: boolean;
  /** One line: the value, the values seen with counts, or "not observed". */
  readonly value: string;
  readonly values: readonly ProfileValue[];
  /** The HAR entries (`_id`) it rests on. */
  readonly exchanges: readonly string[];
  /** Why an entry was not observed, when the suite did not send the request that would show it ("not sent: …"). */
  readonly note?: string;
}

export interface ProfileReport {
  readonly version: number;
  /** --list-settle-ms: 0 when lists were judged at once. */
  readonly listSettleMs: number;
  readonly entries: readonly ProfileEntry[];
  /** The exchanges the entries name, by id; exchanges.har carries them with `_id`. */
  readonly evidence: ReadonlyArray<{ readonly id: string; readonly entry: string; readonly exchange: Exchange }>;
}

type Summary = (values: ReadonlyArray<readonly [string, number]>) => string;

const OPS: ReadonlyArray<readonly [string, string, readonly string[]]> = [
  ['list', 'list', ['ok', 'limit-refused', 'limit-0', 'limit-spelling', 'invalid-limit', 'unknown-cursor', 'no-credential', 'bad-credential', 'credential-spelling', 'token-in-query']],
  ['create', 'create', ['valid', 'malformed', 'byte-order-mark', 'empty-name', 'unknown-field', 'no-content-type', 'other-content-type', 'no-credential', 'bad-credential', 'credential-spelling', 'token-in-query']],
  ['retrieve', 'retrieve', ['existing', 'unknown-id', 'foreign-id', 'extended-id', 'after-delete', 'case-swapped', 'other-account', 'no-credential', 'bad-credential', 'token-in-query']],
  ['delete', 'delete', ['existing', 'unknown-id', 'foreign-id', 'extended-id', 'after-delete', 'other-account', 'no-credential', 'bad-credential', 'token-in-query']],
];

const SITUATION_LABELS: Record<string, string> = {
  ok: 'ordinary',
  valid: 'valid body',
  existing: 'own widget',
  'limit-0': 'limit=0',
  'limit-spelling': 'a limit spelled unusually (01, +1, 1e3, 0x10, a space, …)',
  'invalid-limit': 'invalid limit',
  'unknown-cursor': 'a cursor not issued to the account',
  'limit-refused': 'a positive limit refused (above the maximum)',
  'foreign-id': 'an id in a format the server never issues',
  'no-credential': 'no credential',
  'bad-credential': 'bad credential',
  'credential-spelling': 'the valid token in another legal spelling (bearer, two spaces)',
  'token-in-query': 'token in the query only',
  malformed: 'malformed body',
  'byte-order-mark': 'JSON after a byte-order mark',
  'empty-name': 'empty name',
  'unknown-field': 'unknown field',
  'no-content-type': 'no Content-Type',
  'other-content-type': 'non-JSON Content-Type',
  'unknown-id': "an unknown id shaped like the server's",
  'after-delete': 'after delete',
  'case-swapped': "an own widget's id with the case of its letters swapped",
  'extended-id': "an own widget's id with characters added after it (31-x beside 31)",
  'other-account': "another account's widget",
};

function situationLabel(op: string, situation: string): string {
  if (op === 'delete' && situation === 'after-delete') return 'second delete of the same id';
  return SITUATION_LABELS[situation] ?? situation;
}

/** Values by count (most first), with counts when several were seen. */
const plain: Summary = (values) => (values.length === 1 ? (values[0]?.[0] ?? '') : values.map(([v, n]) => `${v} (×${n})`).join('; '));

const numbers = (values: ReadonlyArray<readonly [string, number]>): number[] => values.map(([v]) => Number(v)).filter(Number.isFinite);

const range: Summary = (values) => {
  const n = numbers(values);
  if (!n.length) return plain(values);
  const [lo, hi] = [Math.min(...n), Math.max(...n)];
  return lo === hi ? `${lo} characters` : `${lo}–${hi} characters`;
};

const largest: Summary = (values) => {
  const n = numbers(values);
  return n.length ? `at least ${Math.max(...n)}` : plain(values);
};

const defaultPageSize: Summary = (values) => {
  const exact = [...new Set(values.filter(([v]) => v.startsWith('exactly ')).map(([v]) => Number(v.slice('exactly '.length))))].sort((a, b) => a - b);
  if (exact.length === 1) return String(exact[0]);
  // Pages may be shorter than the limit: the default is at least the largest page seen.
  if (exact.length > 1) return `at least ${exact.at(-1)} (pages of ${exact.join(', ')} with has_more true)`;
  const least = values.map(([v]) => Number(v.replace('at least ', ''))).filter(Number.isFinite);
  return `at least ${Math.max(...least)} (no page without limit had more)`;
};

/** The values other than "none" (each once), or "none" when every answer showed none. */
const presentOrNone: Summary = (values) => {
  // Sorted: which test saw a value first depends on the file order, and the profile must not.
  const present = values.filter(([v]) => v !== NONE).map(([v]) => v).sort();
  return present.length ? present.join('; ') : NONE;
};

/** "base64url, 56–59 characters": lengths as a range per shape. */
const cursorShapes: Summary = (values) => {
  const byShape = new Map<string, number[]>();
  for (const [v] of values) {
    const at = v.lastIndexOf(', ');
    const length = Number(v.slice(at + 2));
    if (at < 0 || !Number.isFinite(length)) continue;
    byShape.set(v.slice(0, at), [...(byShape.get(v.slice(0, at)) ?? []), length]);
  }
  if (!byShape.size) return plain(values);
  return [...byShape].map(([shape, n]) => `${shape}, ${Math.min(...n) === Math.max(...n) ? Math.min(...n) : `${Math.min(...n)}–${Math.max(...n)}`} characters`).join('; ');
};

const lag: Summary = (values) => {
  const never = values.find(([v]) => v.startsWith('never'));
  if (never) return never[0];
  const late = values.map(([v]) => /^(\d+) ms$/.exec(v)?.[1]).filter((v): v is string => v !== undefined).map(Number);
  return late.length ? `late: up to ${Math.max(...late)} ms` : 'immediate';
};

interface EntryDef {
  readonly key: string;
  readonly topic: string;
  readonly label: string;
  readonly summary?: Summary;
}

/** Every entry every profile lists, in order: one the run did not look at says "not observed". */
export const PROFILE_ENTRIES: readonly EntryDef[] = [
  ...OPS.flatMap(([op, opLabel, situations]) => situations.map((s) => ({ key: `status.${op}.${s}`, topic: 'Status codes', label: `${opLabel}: ${situationLabel(op, s)}` }))),
  { key: 'delete.body', topic: 'Status codes', label: 'body of a successful delete' },
  { key: 'error.request_id', topic: 'Errors', label: 'request_id in Error objects' },
  { key: 'id.length', topic: 'Ids', label: 'length', summary: range },
  { key: 'id.alphabet', topic: 'Ids', label: 'alphabet' },
  { key: 'id.format', topic: 'Ids', label: 'format' },
  { key: 'id.case-sensitive', topic: 'Ids', label: 'lookups case-sensitive' },
  { key: 'created_at.precision', topic: 'created_at', label: 'precision' },
  { key: 'created_at.offset', topic: 'created_at', label: 'UTC offset style' },
  { key: 'list.order', topic: 'Lists', label: 'order' },
  { key: 'list.default-page-size', topic: 'Lists', label: 'default page size', summary: defaultPageSize },
  { key: 'list.largest-limit-honoured', topic: 'Lists', label: 'largest limit served in full', summary: largest },
  { key: 'list.above-max', topic: 'Lists', label: 'a limit above the maximum' },
  { key: 'list.limit-0', topic: 'Lists', label: 'limit=0' },
  { key: 'list.cursor-shape', topic: 'Lists', label: 'next_cursor shape', summary: cursorShapes },
  { key: 'list.last-page', topic: 'Lists', label: 'how the last page says it is last' },
  { key: 'list.lag.create', topic: 'Lists', label: 'a created widget appears in the list', summary: lag },
  { key: 'list.lag.delete', topic: 'Lists', label: 'a deleted widget leaves the list', summary: lag },
  { key: 'create.empty-name', topic: 'Create', label: 'empty name' },
  { key: 'create.unknown-field', topic: 'Create', label: 'unknown body field' },
  { key: 'create.no-content-type', topic: 'Create', label: 'no Content-Type' },
  { key: 'create.other-content-type', topic: 'Create', label: 'non-JSON Content-Type' },
  { key: 'create.absent-description', topic: 'Create', label: 'description not sent comes back as' },
  { key: 'response.extra-fields', topic: 'Responses', label: 'fields beyond the spec', summary: presentOrNone },
  { key: 'response.rate-limit', topic: 'Responses', label: 'rate-limit fields announced', summary: presentOrNone },
  { key: 'response.compression', topic: 'Responses', label: 'Content-Encoding (the suite asks for identity)', summary: presentOrNone },
];

const KNOWN = new Set(PROFILE_ENTRIES.map((e) => e.key));

/** An entry key the catalogue does not list (an error code by condition, a new status situation). */
function dynamicDef(key: string): EntryDef {
  const parts = key.split('.');
  if (parts[0] === 'error' && parts[1] === 'code') return { key, topic: 'Errors', label: `code: ${SITUATION_LABELS[parts.slice(2).join('.')] ?? parts.slice(2).join('.')}` };
  if (parts[0] === 'status') return { key, topic: 'Status codes', label: `${parts[1]}: ${situationLabel(parts[1] ?? '', parts.slice(2).join('.'))}` };
  return { key, topic: 'Other', label: key };
}

/** The reasons noted for an entry no request showed (most often first), or undefined. */
function noteOf(notes: Record<string, { count: number }> | undefined): string | undefined {
  const reasons = Object.entries(notes ?? {}).sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0])).map(([reason]) => reason);
  return reasons.length ? reasons.join('; ') : undefined;
}

/** The run's profile, from the merged tallies; evidence numbered p1, p2, … in entry order. */
export function buildProfile(tally: TallyData, listSettleMs: number): ProfileReport {
  const defs = [...PROFILE_ENTRIES];
  const extra = Object.keys(tally).filter((k) => !KNOWN.has(k) && !k.startsWith(NOTE_PREFIX)).sort();
  // Error codes sit with the errors, after request_id; other new keys at the end.
  const errorAt = defs.findIndex((d) => d.key === 'error.request_id') + 1;
  defs.splice(errorAt, 0, ...extra.filter((k) => k.startsWith('error.code.')).map(dynamicDef));
  defs.push(...extra.filter((k) => !k.startsWith('error.code.')).map(dynamicDef));
  const evidence: Array<{ id: string; entry: string; exchange: Exchange }> = [];
  const entries = defs.map((def): ProfileEntry => {
    const seen = Object.entries(tally[def.key] ?? {}).sort((a, b) => b[1].count - a[1].count || (a[0] === OTHER_VALUES ? 1 : 0) - (b[0] === OTHER_VALUES ? 1 : 0) || a[0].localeCompare(b[0]));
    if (!seen.length) {
      const note = noteOf(tally[`${NOTE_PREFIX}${def.key}`]);
      return { key: def.key, topic: def.topic, label: def.label, observed: false, value: NOT_OBSERVED, values: [], exchanges: [], ...(note === undefined ? {} : { note }) };
    }
    const values = seen.map(([value, slot]): ProfileValue => {
      if (!slot.exchange || evidence.filter((x) => x.entry === def.key).length >= EVIDENCE_PER_ENTRY) return { value, count: slot.count };
      const id = `p${evidence.length + 1}`;
      evidence.push({ id, entry: def.key, exchange: slot.exchange });
      return { value, count: slot.count, exchange: id };
    });
    const summary = (def.summary ?? plain)(seen.map(([v, s]) => [v, s.count] as const));
    return { key: def.key, topic: def.topic, label: def.label, observed: true, value: summary, values, exchanges: values.flatMap((v) => (v.exchange ? [v.exchange] : [])) };
  });
  return { version: PROFILE_VERSION, listSettleMs, entries, evidence };
}
