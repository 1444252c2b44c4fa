/**
 * The run's selection from its options (--only with `RULE.text` entries, --test, --last-failed),
 * and how the report states it (RunReport.selection: C's verdict reads it to say partial).
 */
import { resolve } from 'node:path';
import { ConfigError, type SuiteConfig } from '../../config.ts';
import type { RunReport } from '../../report/model.ts';
import { parseOnlyWithTests, parseTestFilter, type Selection, type TestFilter } from '../shared/selection.ts';
import { lastFailed } from './last-failed.ts';
import { EMBEDDED_LABEL } from './target.ts';

/** What the run selects, and the line --last-failed prints about the run it read. */
export interface RunSelection {
  /** Undefined for every test. */
  readonly selection: Selection | undefined;
  /** --last-failed: what it selected and from which run (last-failed.ts). */
  readonly lastFailedLine?: string;
}

/**
 * What the run selects: --only (with `RULE.text` entries), --test and --last-failed together
 * (each narrows the others). --last-failed reads the report directory now, before the run
 * replaces its reports.
 */
export function selectionOf(config: SuiteConfig, directory: string): RunSelection {
  const only = parseOnlyWithTests(config.only);
  const filter = parseTestFilter(config.testName);
  const tests: TestFilter[] = [...(only?.tests ?? []).map((text): TestFilter => ({ kind: 'text', text })), ...(filter ? [filter] : [])];
  const last = config.lastFailed ? lastFailed(resolve(directory, config.reportDir), config.reportDir, config.baseUrl ?? EMBEDDED_LABEL) : undefined;
  const previous = last?.selection;
  if (!only && tests.length === 0 && !previous) return { selection: undefined };
  const rules = only && previous?.rules ? new Set([...previous.rules].filter((id) => only.rules.has(id))) : (previous?.rules ?? only?.rules);
  if (rules && rules.size === 0) throw new ConfigError('--last-failed: none of the rules that broke in the previous run is among the --only rules: nothing to rerun');
  const selection = { ...(rules ? { rules } : {}), ...(tests.length ? { tests } : {}), ...(previous?.titles ? { titles: previous.titles } : {}) };
  return { selection, ...(last ? { lastFailedLine: last.line } : {}) };
}

/** How the run chose its tests, for the report (RunReport.selection); nothing when it ran them all. */
export function selectionReport(selection: Selection | undefined, config: SuiteConfig): { selection?: RunReport['selection'] } {
  if (!selection) return {};
  const test = [...(selection.tests ?? []).map((f) => (f.kind === 'text' ? f.text : String(f.regex)))];
  return {
    selection: {
      ...(selection.rules ? { only: [...selection.rules] } : {}),
      ...(test.length ? { test } : {}),
      ...(config.lastFailed ? { lastFailed: true } : {}),
    },
  };
}
