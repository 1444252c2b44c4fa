/**
 * `--write-baseline FILE`: after the run, the rules that failed (and under --strict, warned),
 * in the format --baseline reads (baseline.ts): one id per line, each after a comment with the
 * rule's statement and its first failing test. A path that exists and is not a regular file is
 * refused before the run (checkBaselineTarget), never opened.
 */
import { closeSync, constants, fstatSync, ftruncateSync, lstatSync, openSync, writeSync } from 'node:fs';
import { ConfigError } from '../../config.ts';
import type { RunReport } from '../../report/model.ts';

/** One line of a comment: no newline or control character from a title can start a line of its own. */
function commentText(text: string, max = 300): string {
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** The rules a baseline written from this report lists: failed ones, and warned ones under --strict. */
export function baselineRules(report: RunReport): RunReport['rules'] {
  return report.rules.filter((r) => r.outcome === 'fail' || (report.strict && r.outcome === 'warn'));
}

/** The text of a baseline file from a run's report. */
export function baselineText(report: RunReport): string {
  const rules = baselineRules(report);
  const lines = [
    `# widget-conformance baseline: rules known to fail, read by --baseline FILE.`,
    `# Written by --write-baseline after a run against ${commentText(report.target)} (seed ${report.seed}, ${report.finishedAt}).`,
    `# Remove a rule's line once it passes: the report lists baseline rules that no longer fail.`,
  ];
  if (rules.length === 0) lines.push('# No rule failed in that run: this baseline expects nothing.');
  for (const r of rules) {
    const first = r.tests.find((t) => t.outcome === 'fail' || t.outcome === 'warn');
    lines.push('', `# ${r.id} (${r.level}) ${commentText(r.statement)}`);
    if (first) lines.push(`#   first ${first.outcome === 'fail' ? 'failing' : 'warning'} test: ${commentText(first.title)}`);
    lines.push(r.id);
  }
  return `${lines.join('\n')}\n`;
}

/** Refuses, before the run, a --write-baseline path that exists and is not a regular file (a directory, a FIFO, a device, a link). */
export function checkBaselineTarget(file: string, shown: string): void {
  let kind: string | undefined;
  try {
    const stat = lstatSync(file);
    kind = stat.isFile() ? undefined : stat.isDirectory() ? 'a directory' : stat.isSymbolicLink() ? 'a symbolic link' : 'not a regular file';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new ConfigError(`--write-baseline: cannot use ${shown} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (kind !== undefined) throw new ConfigError(`--write-baseline: ${shown} is ${kind}; give the path of a regular file (it is overwritten) or of a new one`);
}

/** Writes the baseline after the run; the problem in one line when it cannot (the verdict stands). */
export function writeBaseline(file: string, shown: string, report: RunReport): string | undefined {
  try {
    checkBaselineTarget(file, shown);
    // Opened without following a link and without blocking on a FIFO, then checked again by the
    // descriptor: what was a regular file a moment ago may have been replaced.
    const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o644);
    try {
      if (!fstatSync(fd).isFile()) return `--write-baseline: ${shown} is not a regular file; it was not written`;
      ftruncateSync(fd, 0);
      writeSync(fd, baselineText(report));
    } finally {
      closeSync(fd);
    }
    return undefined;
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    return `--write-baseline: cannot write ${shown} (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
}
