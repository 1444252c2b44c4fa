/**
 * `--last-failed`: the rules and tests that failed or warned in the report directory's previous
 * run, read from its conformance.json (bounded, schema-checked: read-report.ts). Warned tests are
 * included: a SHOULD violation is a broken rule the implementer is working on too. Evidence a
 * test saw of another rule reruns that test. No previous report, one of another target, or one
 * with nothing broken: one line and exit 2 (a ConfigError), before any request. What it selected
 * is said in one line naming the run it read (when it started, its target, seed and verdict) and
 * the tests. That run's reports survive a run that stops before its first test (a refused token:
 * cli/run/main.ts removes the previous reports only once the target has accepted the run).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../config.ts';
import { redactUrlCredentials } from '../../shared/redact.ts';
import type { RunReport } from '../../report/model.ts';
import { boundedLine } from '../../report/console-report.ts';
import { InputError, printable, readReport } from '../shared/read-report.ts';
import type { Selection } from '../shared/selection.ts';

/** Titles named in the --last-failed line before "and N more". */
const TITLES_SHOWN = 5;
/** The line's length at most: five titles fit; a report with longer ones is cut, pointing to the file. */
const LINE_CHARS = 1_200;

/** The label a run gives its target (target.ts): the base URL, or the embedded server's name. */
function comparable(target: string): string {
  return redactUrlCredentials(target).replace(/\/+$/, '');
}

/** The selection of the broken tests of a previous run's report. */
export function brokenSelection(report: RunReport): Selection {
  const rules = new Set<string>();
  const titles = new Set<string>();
  const byTitle = new Map(report.rules.flatMap((r) => r.tests.map((t) => [t.title, r.id] as const)));
  for (const rule of report.rules) {
    for (const test of rule.tests) {
      if (test.outcome !== 'fail' && test.outcome !== 'warn') continue;
      // Evidence of this rule seen by another rule's test: that test is what runs again.
      const title = test.seenBy ?? test.title;
      const observerRule = test.seenBy === undefined ? rule.id : byTitle.get(test.seenBy) ?? title.split(' ')[0]!;
      rules.add(rule.id);
      rules.add(observerRule);
      titles.add(title);
    }
  }
  return { rules, titles };
}

/** What --last-failed selected, and the line that says so. */
export interface LastFailed {
  readonly selection: Selection;
  /** "--last-failed: 2 tests (ISO-2, PAGE-3) that failed or warned in the run of … against …: "…", "…"". */
  readonly line: string;
}

/** The one line saying what --last-failed selected and from which run (a report is an untrusted file: escaped for the terminal, bounded). */
export function lastFailedLine(report: RunReport, selection: Selection, shownFile: string): string {
  const titles = [...(selection.titles ?? [])];
  const rules = [...(selection.rules ?? [])].sort();
  const shown = titles.slice(0, TITLES_SHOWN).map((t) => JSON.stringify(t)).join(', ');
  const more = titles.length > TITLES_SHOWN ? `, and ${titles.length - TITLES_SHOWN} more` : '';
  const run = `the run of ${report.startedAt} against ${redactUrlCredentials(report.target)} (seed ${report.seed}, ${report.verdictDetail.headline}; ${shownFile})`;
  const count = `${titles.length} test${titles.length === 1 ? '' : 's'} of ${rules.join(', ')}`;
  return boundedLine(`--last-failed: rerunning ${count} that failed or warned in ${run}: ${shown}${more}`, LINE_CHARS, shownFile);
}

/**
 * The selection --last-failed makes from `reportDir` (shown as `shownDir`), for a run against
 * `target` (its label: the base URL, or "embedded reference server"), and the line saying so;
 * ConfigError when none.
 */
export function lastFailed(reportDir: string, shownDir: string, target: string): LastFailed {
  const file = join(reportDir, 'conformance.json');
  if (!existsSync(file)) throw new ConfigError(`--last-failed: no previous run in ${printable(shownDir)} (no conformance.json there): run the suite once without it`);
  let report: RunReport;
  try {
    report = readReport(file, join(shownDir, 'conformance.json'));
  } catch (error) {
    if (error instanceof InputError) throw new ConfigError(`--last-failed: ${printable(error.message)}`);
    throw error;
  }
  if (comparable(report.target) !== comparable(target)) {
    throw new ConfigError(`--last-failed: the previous run in ${printable(shownDir)} was against ${printable(JSON.stringify(redactUrlCredentials(report.target)))}, not ${printable(JSON.stringify(redactUrlCredentials(target)))}: run the suite once against this target without it`);
  }
  const selection = brokenSelection(report);
  if (selection.titles?.size === 0) throw new ConfigError(`--last-failed: the previous run in ${printable(shownDir)} failed and warned nothing: nothing to rerun`);
  return { selection, line: lastFailedLine(report, selection, join(shownDir, 'conformance.json')) };
}
