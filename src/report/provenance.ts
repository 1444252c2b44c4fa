/**
 * Which strings of a report model the suite wrote itself, and which may carry what a server or
 * the user's configuration said (the data). The report writer's tripwire (cli/run/write-reports.ts)
 * judges a credential spelled in a finished file by the data alone: the renderers' own text and
 * the suite's own strings spell whatever words they spell, whatever the tokens are.
 *
 * Every string is data unless its place is listed here: a field added to the model is data until
 * someone lists it, so forgetting one can only keep a report back. Listing one is a claim that
 * no server or configuration text reaches it, said below for each. Object keys are field names
 * the suite chose, except in a map of headers (any object under a `headers` key: the server's,
 * the user's --header), whose names are data. The model is plain data (it is written as JSON):
 * strings, numbers, booleans, arrays and objects.
 *
 * This holds of a model the suite built itself, as the report writer has it. A report read back
 * from disk (verify) is anyone's text: its titles and keys are as untrusted as its bodies.
 */
import type { ReplayFile } from './replay-file.ts';
import type { RunReport } from './model.ts';

/** A place in the model holding only the suite's own text (`true`), or the places below it; `each` for an array's elements. */
type Own = true | { readonly [field: string]: Own };

const OWN = true;
const EACH = '[]';
const each = (element: Own): Own => ({ [EACH]: element });

/**
 * The suite's own strings in a run report: the rule catalogue's entries, the titles and files of
 * its tests (vitest's names for the suite's own code), outcome words, rule ids, run counts,
 * timestamps, versions, the suite's own command (report/rerun.ts), the verdict and the notes on
 * inconclusive rules (built from rule ids, counts and option names: report/verdict.ts,
 * root-causes.ts), and the profile's fixed keys and labels. Not the root causes' headlines,
 * which quote what a server sent.
 */
const REPORT_OWN: Own = {
  suite: OWN,
  suiteVersion: OWN,
  interfaceVersion: OWN,
  catalogue: OWN,
  startedAt: OWN,
  finishedAt: OWN,
  verdict: OWN,
  notRun: OWN,
  command: OWN,
  verdictDetail: OWN,
  rules: each({
    id: OWN,
    level: OWN,
    section: OWN,
    statement: OWN,
    basis: OWN,
    outcome: OWN,
    inconclusive: OWN,
    secondAttempt: { outcome: OWN, tests: each({ title: OWN, outcome: OWN }) },
    tests: each({ title: OWN, file: OWN, outcome: OWN, dependsOn: OWN, seenBy: OWN, runs: OWN }),
  }),
  rootCauses: each({ rule: OWN, outcome: OWN, explains: OWN }),
  profile: { entries: each({ key: OWN, topic: OWN, label: OWN }), evidence: each({ id: OWN, entry: OWN }) },
};

/** The suite's own strings in a replay file: all but the target and the settings, which come from the user. */
const REPLAY_OWN: Own = { kind: OWN, suiteVersion: OWN, rule: OWN, test: OWN, outcome: OWN, run: OWN, recordedAt: OWN };

function collect(value: unknown, own: Own | undefined, headerNames: boolean, out: string[]): void {
  if (own === true) return;
  if (typeof value === 'string') {
    out.push(value);
  } else if (Array.isArray(value)) {
    for (const v of value) collect(v, own?.[EACH], false, out);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (headerNames) out.push(key);
      collect(v, own?.[key], key === 'headers', out);
    }
  }
}

/** Every string of a run report that may carry server or configuration text (header names among them). */
export function reportData(report: RunReport): string[] {
  const out: string[] = [];
  collect(report, REPORT_OWN, false, out);
  return out;
}

/** Every string of a replay file that may carry configuration text. */
export function replayData(file: ReplayFile): string[] {
  const out: string[] = [];
  collect(file, REPLAY_OWN, false, out);
  return out;
}
