/**
 * Writes the run's reports. Nothing here edits what a formatter produced: secrets left the
 * data before the report was built (report/sanitize.ts, shared/redact.ts). A last scan of each
 * file's finished text is a tripwire only: a credential found there is a bug of the suite, and
 * the file is not written at all, said as a suite error naming it (leakIn says what counts).
 *
 * Each file is written to a new temporary file in the report directory, then renamed over its
 * name: a reader never sees half a report, and a symlink planted at a report's name is
 * replaced, never written through. The previous run's files (its replay files too) are removed
 * once the target has accepted the run, before its first test (removeStaleReports, called by
 * cli/run/main.ts): a run killed midway leaves no other run's verdict behind, and a run stopped
 * by a refused token or an unreachable target leaves the previous run's reports (and
 * --last-failed's data) as they were.
 */
import { appendFileSync, lstatSync, mkdirSync, readdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Redactor } from '../../shared/redact.ts';
import { renderBadge } from '../../report/badge.ts';
import { renderHar } from '../../report/har.ts';
import { renderHtml } from '../../report/html.ts';
import { renderJson } from '../../report/json.ts';
import { renderJunit } from '../../report/junit.ts';
import { renderMarkdown } from '../../report/markdown.ts';
import type { RunReport, TestReplay } from '../../report/model.ts';
import { renderReplayFile, REPLAY_DIR } from '../../report/replay-file.ts';
import { replayData, reportData } from '../../report/provenance.ts';

/** Every file a run writes into the report directory, with its renderer. */
export const REPORT_FILES: ReadonlyArray<readonly [string, (report: RunReport) => string]> = [
  ['junit.xml', renderJunit],
  ['conformance.json', renderJson],
  ['conformance.md', renderMarkdown],
  ['conformance.html', renderHtml],
  ['exchanges.har', renderHar],
  ['badge.svg', renderBadge],
];

/** A replay file's name in REPLAY_DIR (report/replay-file.ts replayFileName): only these are removed as stale. */
const REPLAY_NAME = /^[A-Z]+-\d+-\d+\.json$/;

/** Temporary files start so; one a killed run left behind is removed with the stale reports. */
const TEMP_PREFIX = '.widget-conformance-';
const TEMP_SUFFIX = '.tmp';

function reason(error: unknown): string {
  const e = error as { code?: string; message?: string };
  return e.code ?? e.message ?? String(error);
}

/**
 * Removes the previous run's report files (a symlink among them is unlinked, never its
 * target) and any temporary file a killed run left. Returns one line per file that could not go.
 */
export function removeStaleReports(dir: string): string[] {
  const problems: string[] = [];
  const names = [...REPORT_FILES.map(([name]) => name)];
  try {
    names.push(...readdirSync(dir).filter((n) => n.startsWith(TEMP_PREFIX) && n.endsWith(TEMP_SUFFIX)));
  } catch {
    // An unreadable directory was refused before (destinations.ts); nothing to list.
  }
  try {
    // The previous run's replay files: a replay of a test that has passed since would mislead.
    if (lstatSync(join(dir, REPLAY_DIR)).isDirectory()) names.push(...readdirSync(join(dir, REPLAY_DIR)).filter((n) => REPLAY_NAME.test(n)).map((n) => join(REPLAY_DIR, n)));
  } catch {
    // No replay folder (or not a folder: writeReports refuses to write through it).
  }
  for (const name of names) {
    const file = join(dir, name);
    try {
      if (lstatSync(file).isDirectory()) continue;
      unlinkSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(`could not remove the previous run's ${file}: ${reason(error)}`);
    }
  }
  return problems;
}

/** Writes `text` to `file` through a new temporary file beside it and a rename. */
export function writeAtomically(dir: string, file: string, text: string): void {
  const temp = join(dir, `${TEMP_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
  // 'wx': created new, never opened through an existing name or symlink.
  writeFileSync(temp, text, { flag: 'wx', mode: 0o644 });
  try {
    renameSync(temp, file);
  } catch (error) {
    unlinkSync(temp);
    throw error;
  }
}

/** A credential the tripwire found in finished output: the suite failed to keep it out. */
export interface Leak {
  readonly file: string;
  readonly line: number;
}

/**
 * The tripwire on one file: the line of the credential its finished text holds, or undefined.
 * `dataHolds` says whether a string of the file's model that may carry server or configuration
 * text (report/provenance.ts) holds one; it is asked only when the text holds a spelling at all.
 *
 * Principle: a renderer writes its own text and the strings of its model, escaped or cut, and
 * nothing else; escaping respells a character and cutting drops characters. So a credential
 * spelled in a file came from a data string of its model, and that string holds it too, in a
 * spelling the redactor knows: the file is kept back when the text and some data string both
 * hold one. A spelling that no data string holds is the suite's own text, which a token a human
 * chose may spell (`testsuites1` and `properta` match junit.xml's `<testsuites` and
 * `<properties>`, a long token matching in any case and without its last character): the file
 * is written, whatever the token is.
 * Limit: a credential the renderers would assemble from data strings that do not hold it one by
 * one (two strings printed side by side; a second percent-encoding that HAR's query pairs undo)
 * is not seen here, as the redactor, which cleans each string on its own, does not see it
 * either; and a data string quoting the suite's words (a failure message quoting its rule, a
 * skip reason, a URL path) is data, so a token those words spell still keeps the file back.
 */
export function leakIn(text: string, redactor: Redactor, dataHolds: () => boolean): number | undefined {
  const found = redactor.leak(text);
  return found && dataHolds() ? found.line : undefined;
}

/**
 * Whether some string of `data` holds a credential. Read as one text, a line between strings:
 * a match within one string is still found, and one across two can only keep a file back.
 */
export function dataHolds(data: readonly string[], redactor: Redactor): boolean {
  return redactor.leak(data.join('\n')) !== undefined;
}

/**
 * Writes junit.xml, conformance.json, .md, .html, exchanges.har and badge.svg, appends the
 * Markdown to a GitHub job summary, and writes each failing test's replay file under replay/.
 * Returns the paths written, one line per file that could not be, and the files the tripwire
 * kept back (each a suite error). Between files it lets the event loop run (the progress line's
 * timer among others) and tells `onFile` which file is next.
 */
export async function writeReports(dir: string, report: RunReport, redactor: Redactor, replays: readonly TestReplay[] = [], onFile?: (name: string, index: number, total: number) => void): Promise<{ files: string[]; problems: string[]; leaks: Leak[] }> {
  const files: string[] = [];
  const problems: string[] = [];
  const leaks: Leak[] = [];
  let reportHolds: boolean | undefined;
  const ofReport = (): boolean => (reportHolds ??= dataHolds(reportData(report), redactor));
  const write = (file: string, render: () => string, holds: () => boolean, append = false): void => {
    try {
      const text = render();
      const line = leakIn(text, redactor, holds);
      if (line !== undefined) {
        leaks.push({ file, line });
        return;
      }
      if (append) appendFileSync(file, text);
      else writeAtomically(dir, file, text);
      if (!append) files.push(file);
    } catch (error) {
      problems.push(`could not write ${file}: ${reason(error)}`);
    }
  };
  for (const [index, [name, render]] of REPORT_FILES.entries()) {
    onFile?.(name, index, REPORT_FILES.length);
    await new Promise<void>((resolve) => setImmediate(resolve));
    write(join(dir, name), () => render(report), ofReport);
  }
  const summary = process.env.GITHUB_STEP_SUMMARY;
  if (summary) write(summary, () => `${renderMarkdown(report)}\n`, ofReport, true);
  if (replays.length > 0) {
    const folder = join(dir, REPLAY_DIR);
    try {
      mkdirSync(folder, { recursive: true });
      // Never written through a symlink planted at the folder's name.
      if (!lstatSync(folder).isDirectory()) throw new Error(`${folder} is not a directory`);
      const before = files.length;
      for (const r of replays) write(join(dir, r.file), () => renderReplayFile(r.content), () => dataHolds(replayData(r.content), redactor));
      // Listed once, as their folder: there is one per failing test.
      if (files.length > before) files.splice(before, files.length - before, join(folder, '*.json'));
    } catch (error) {
      problems.push(`could not write the replay files in ${folder}: ${reason(error)}`);
    }
  }
  return { files, problems, leaks };
}
