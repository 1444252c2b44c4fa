/**
 * Where the run writes: the report directory and GitHub's job summary, checked before the
 * first request, so a destination that cannot be written is one line and exit 2, not a
 * stack trace after the run (and a lost verdict).
 */
import { closeSync, existsSync, mkdirSync, openSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join, parse, resolve, sep } from 'node:path';
import { ConfigError } from '../../config.ts';

function why(error: unknown): string {
  const e = error as { code?: string; message?: string };
  return e.code ?? e.message ?? String(error);
}

/**
 * Makes the directory and its missing parents one level at a time. Node's recursive mkdirSync
 * can loop forever on some /proc paths (and a blocked event loop ignores SIGINT): each level
 * here is one system call that either succeeds or fails.
 */
function makeDirectory(dir: string): void {
  const { root } = parse(dir);
  let path = root;
  for (const part of dir.slice(root.length).split(sep).filter(Boolean)) {
    path = join(path, part);
    if (existsSync(path)) {
      if (!statSync(path).isDirectory()) throw new ConfigError(`--report-dir ${dir}: ${path} exists and is not a directory`);
      continue;
    }
    try {
      mkdirSync(path);
    } catch (error) {
      throw new ConfigError(`--report-dir ${dir}: cannot create ${path} (${why(error)})`);
    }
  }
}

/** Makes the report directory (absolute) and proves a file can be written in it. */
export function prepareReportDir(dir: string): void {
  makeDirectory(dir);
  const probe = join(dir, `.widget-conformance-write-check-${process.pid}`);
  try {
    closeSync(openSync(probe, 'w'));
    unlinkSync(probe);
  } catch (error) {
    throw new ConfigError(`--report-dir ${dir}: cannot write a file there (${why(error)})`);
  }
}

/** Proves the job summary file (GITHUB_STEP_SUMMARY) can be appended to, when one is set. */
export function checkStepSummary(file: string | undefined): void {
  if (!file) return;
  const path = resolve(file);
  try {
    if (!existsSync(dirname(path))) throw Object.assign(new Error('its directory does not exist'), { code: 'ENOENT' });
    closeSync(openSync(path, 'a'));
  } catch (error) {
    throw new ConfigError(`GITHUB_STEP_SUMMARY ${file}: cannot append to it (${why(error)})`);
  }
}
