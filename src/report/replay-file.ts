/**
 * A failing test's replay file (`<report dir>/replay/<rule>-<n>.json`): what `widget-conformance
 * replay FILE` needs to run that one test again through the suite's own harness, and nothing
 * more. It holds the target, the rule, the test's title, the seed and every setting the test's
 * outcome depends on, never a credential: the tokens come from the environment (or .env) of
 * whoever replays it, as the run read them. Running the test again recreates its data (a walk's
 * widgets included) and deletes it at the end, through the same ledger and proof as any run.
 *
 * The file is input from disk, maybe from someone else: readReplayFile checks every field, and
 * the settings it may carry are named by the caller (cli/run/replay.ts), never taken as given.
 */

/** What a replay file says; version 1. */
export interface ReplayFile {
  readonly kind: typeof REPLAY_KIND;
  readonly version: 1;
  /** The suite version that wrote it: another version may title its tests differently. */
  readonly suiteVersion: string;
  /** The run's target; absent for the embedded reference server. */
  readonly baseUrl?: string;
  /** The rule whose failure (or warning) the file replays. */
  readonly rule: string;
  /** The failing test's title, as the reports give it. */
  readonly test: string;
  /** How it ended in the run. */
  readonly outcome: 'fail' | 'warn';
  /**
   * What is run: the rules to select and the title of the test to run. The failing test itself,
   * or, for evidence a test of another rule saw (`DEL-2 violation seen by the test "…"`), that test.
   */
  readonly run: { readonly rules: readonly string[]; readonly test: string };
  readonly seed: number;
  readonly runs: number;
  readonly strict: boolean;
  readonly withoutSecondToken: boolean;
  /** Other settings the outcome depends on, as flag and value. */
  readonly settings: ReadonlyArray<readonly [string, string]>;
  /** The run sent --header / WIDGET_HEADERS headers: the replay reads them from the environment or .env again. */
  readonly headers: boolean;
  /** When the run that wrote it started (ISO 8601). */
  readonly recordedAt: string;
}

export const REPLAY_KIND = 'widget-conformance replay';

/** The folder of the report directory that holds the replay files. */
export const REPLAY_DIR = 'replay';

/** Largest replay file read: a title and a few settings fit in a few KiB. */
export const REPLAY_FILE_MAX_BYTES = 64 * 1024;

/** The file's name for the `n`-th (1-based) failing test of `rule`, relative to the report directory. */
export function replayFileName(rule: string, n: number): string {
  return `${REPLAY_DIR}/${rule}-${n}.json`;
}

/** The file's text. */
export function renderReplayFile(file: ReplayFile): string {
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** Why a replay file cannot be read, in one line (the caller names the file). */
export class ReplayFileError extends Error {}

const isString = (v: unknown, max = 2000): v is string => typeof v === 'string' && v.length > 0 && v.length <= max && !/[\u0000-\u001f\u007f]/.test(v);
const isInt32 = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= -(2 ** 31) && (v as number) < 2 ** 31;

/**
 * The replay file in `text`, every field checked (types, lengths, no control characters); a
 * setting whose flag `allowed` does not hold is refused, so a file cannot smuggle in an option
 * (a token command, a report path) the suite never writes into one. Throws ReplayFileError.
 */
export function readReplayFile(text: string, allowed: (flag: string) => boolean): ReplayFile {
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new ReplayFileError('is not JSON');
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v) || v.kind !== REPLAY_KIND) throw new ReplayFileError(`is not a replay file of this suite (no "kind": "${REPLAY_KIND}")`);
  if (v.version !== 1) throw new ReplayFileError(`has version ${JSON.stringify(v.version)}; this suite reads version 1`);
  const bad = (field: string): never => {
    throw new ReplayFileError(`has no valid "${field}"`);
  };
  const run = v.run as { rules?: unknown; test?: unknown } | undefined;
  if (!isString(v.suiteVersion, 100)) bad('suiteVersion');
  if (v.baseUrl !== undefined && !isString(v.baseUrl)) bad('baseUrl');
  if (!isString(v.rule, 20)) bad('rule');
  if (!isString(v.test)) bad('test');
  if (v.outcome !== 'fail' && v.outcome !== 'warn') bad('outcome');
  if (run === null || typeof run !== 'object' || !Array.isArray(run.rules) || run.rules.length === 0 || run.rules.length > 2 || !run.rules.every((r) => isString(r, 20)) || !isString(run.test)) bad('run');
  if (!isInt32(v.seed)) bad('seed');
  if (!Number.isInteger(v.runs) || (v.runs as number) < 1) bad('runs');
  for (const field of ['strict', 'withoutSecondToken', 'headers'] as const) if (typeof v[field] !== 'boolean') bad(field);
  if (!isString(v.recordedAt, 40)) bad('recordedAt');
  const settings = v.settings;
  if (!Array.isArray(settings) || settings.length > 20 || !settings.every((s) => Array.isArray(s) && s.length === 2 && isString(s[0], 40) && isString(s[1], 1000))) bad('settings');
  const refused = (settings as Array<[string, string]>).find(([flag]) => !allowed(flag));
  if (refused) throw new ReplayFileError(`sets ${JSON.stringify(refused[0])}, which a replay file never sets`);
  return v as unknown as ReplayFile;
}
