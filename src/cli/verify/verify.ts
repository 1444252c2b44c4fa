/**
 * `npm run verify -- DIR`: is this report bundle whole and as the suite wrote it? One line per
 * problem: conformance.json valid against its schema, judged by this suite's catalogue (hash
 * and every rule's words), every rule present (a partial run: every rule its --only selected),
 * its counts, verdict and gate agreeing with its rules, junit.xml agreeing with it, the other
 * files exactly what this suite renders from it, and no credential in any file.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { ConfigError } from '../../config.ts';
import { Redactor } from '../../shared/redact.ts';
import { renderBadge } from '../../report/badge.ts';
import { catalogueHash } from '../../report/catalogue-hash.ts';
import { renderHar } from '../../report/har.ts';
import { renderHtml } from '../../report/html.ts';
import { renderMarkdown } from '../../report/markdown.ts';
import { REPLAY_DIR, REPLAY_FILE_MAX_BYTES } from '../../report/replay-file.ts';
import { narrowingOf, runVerdict } from '../../report/verdict.ts';
import type { RunReport } from '../../report/model.ts';
import { RULES } from '../../rules.ts';
import { InputError, MAX_REPORT_BYTES, parseJson, readBounded, reportIssues } from '../shared/read-report.ts';
import { parseOnly } from '../shared/selection.ts';
import { credentialLine, knownSecrets, unredactedAuthorization } from './credentials.ts';
import { junitDisagreements } from './junit.ts';

/** The replay files of the bundle (`replay/*.json`), relative to it; none when it has no replay folder. */
function replayFilesIn(dir: string): string[] {
  try {
    if (!lstatSync(join(dir, REPLAY_DIR)).isDirectory()) return [];
    return readdirSync(join(dir, REPLAY_DIR)).filter((n) => n.endsWith('.json')).map((n) => `${REPLAY_DIR}/${n}`);
  } catch {
    return [];
  }
}

/** Every file a run writes (cli/write-reports.ts), and how each is rendered from conformance.json. */
const RENDERED: ReadonlyArray<readonly [string, ((r: RunReport) => string) | undefined]> = [
  ['conformance.json', undefined],
  ['junit.xml', undefined],
  ['conformance.md', renderMarkdown],
  ['conformance.html', renderHtml],
  ['exchanges.har', renderHar],
  ['badge.svg', renderBadge],
];

// The run's own ordering of outcomes (cli/outcomes.ts): a rule takes its worst test's outcome.
const SEVERITY: Readonly<Record<string, number>> = { skip: 0, pass: 1, warn: 2, error: 3, fail: 4 };

export interface Verification {
  readonly problems: string[];
  /** What the reader should know but is not a problem: a partial run, tokens not given. */
  readonly notes: string[];
}

/** The tokens to look for: WIDGET_* in the environment, else in DIR's .env (the same place the run reads). */
export function secretsFrom(env: Readonly<Record<string, string | undefined>>, directory: string): string[] {
  const file = join(directory, '.env');
  let vars: Record<string, string | undefined> = {};
  try {
    if (existsSync(file)) vars = parseDotenv(readBounded(file, '.env', 1024 * 1024));
  } catch {
    // An unreadable .env names no token: the shape checks still run.
  }
  return knownSecrets({ ...vars, ...Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')) });
}

/** Catalogue hash and each rule's words against this suite's catalogue; the rules present against what the run selected. */
function catalogueProblems(report: RunReport): { problems: string[]; notes: string[] } {
  const problems: string[] = [];
  const notes: string[] = [];
  const ours = catalogueHash(RULES);
  if (report.catalogue.hash !== ours) problems.push(`catalogue hash ${report.catalogue.hash} is not this suite's (${ours}): the run was judged by other rules, or the file was edited`);
  const seen = new Set<string>();
  for (const r of report.rules) {
    const rule = RULES.find((x) => x.id === r.id);
    if (seen.has(r.id)) problems.push(`${r.id} appears more than once`);
    seen.add(r.id);
    if (!rule) problems.push(`${r.id} is not a rule of this suite's catalogue`);
    else if (rule.level !== r.level || rule.statement !== r.statement || rule.section !== r.section || rule.basis !== r.basis) {
      problems.push(`${r.id}: its level, section, statement or basis differs from the catalogue`);
    }
  }
  const missing = RULES.filter((r) => !seen.has(r.id)).map((r) => r.id);
  if (!report.partial) {
    if (missing.length > 0) problems.push(`rules missing from a complete run: ${missing.join(', ')}`);
    return { problems, notes };
  }
  const only = report.config.only;
  // Tests chosen by name alone (--test, --last-failed): the rules present are those with a test it chose; no --only list to hold them to.
  if (typeof only !== 'string' && narrowingOf(report.selection) !== undefined) {
    notes.push(`partial run (tests selected by name): ${RULES.length - missing.length} of ${RULES.length} rules ran some of their tests`);
    return { problems, notes };
  }
  if (typeof only !== 'string') {
    problems.push('labelled partial, but no --only selection is recorded');
    return { problems, notes };
  }
  let selected: ReadonlySet<string> | undefined;
  try {
    selected = parseOnly(only);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(`the recorded --only selection is not valid: ${error.message}`);
  }
  const unselectedMissing = missing.filter((id) => !selected?.has(id));
  const selectedMissing = missing.filter((id) => selected?.has(id));
  if (selectedMissing.length > 0) problems.push(`rules missing that --only ${only} selected: ${selectedMissing.join(', ')}`);
  if (missing.length === 0) problems.push('labelled partial, yet every rule of the catalogue is present');
  else notes.push(`partial run (--only ${only}): ${RULES.length - missing.length} of ${RULES.length} rules; not checked: ${unselectedMissing.join(', ')}`);
  return { problems, notes };
}

/** Rule outcomes against their tests; counts, verdict and gate against the rules. */
function consistencyProblems(report: RunReport): string[] {
  const problems: string[] = [];
  for (const r of report.rules) {
    const outcomes = r.tests.map((t) => t.outcome as string);
    const allKnown = outcomes.every((o) => SEVERITY[o] !== undefined);
    const worst = outcomes.reduce((w, o) => ((SEVERITY[o] ?? -1) > (SEVERITY[w] ?? -1) ? o : w), 'skip');
    if (allKnown ? r.outcome !== worst : !outcomes.includes(r.outcome)) problems.push(`${r.id} is ${r.outcome}, but its tests are ${[...new Set(outcomes)].join(', ')}`);
  }
  for (const level of ['MUST', 'SHOULD'] as const) {
    const counts = report.summary[level] as Record<string, number>;
    for (const [outcome, n] of Object.entries(counts)) {
      const actual = report.rules.filter((r) => r.level === level && r.outcome === outcome).length;
      if (actual !== n) problems.push(`summary: ${level} ${outcome} is ${n}, but ${actual} ${level} rules are ${outcome}`);
    }
  }
  const failing = report.rules.filter((r) => r.outcome === 'fail');
  if (failing.length > 0 && report.verdict === 'conformant') problems.push(`verdict conformant, but rules fail: ${failing.map((r) => r.id).join(', ')}`);
  // The verdict every format prints, computed again from the rules: the same word, or the bundle was altered.
  const narrowed = narrowingOf(report.selection);
  const again = runVerdict({ interrupted: report.verdict === 'interrupted', exitCode: report.exitCode, knownFailures: report.gate.knownFailures, rules: report.rules, catalogue: RULES, ...(report.notRun ? { notRun: report.notRun } : {}), ...(narrowed ? { narrowed } : {}) });
  if (report.verdictDetail && (again.kind !== report.verdict || again.headline !== report.verdictDetail.headline)) problems.push(`the verdict says ${report.verdictDetail.headline} (${report.verdict}), but its rules give ${again.headline} (${again.kind})`);
  if (report.gate.passed !== (report.exitCode === 0)) problems.push(`gate.passed is ${report.gate.passed} with exit code ${report.exitCode}`);
  const known = failing.filter((r) => r.baselined).length;
  if (report.gate.knownFailures !== known) problems.push(`gate.knownFailures is ${report.gate.knownFailures}, but ${known} baselined rules fail`);
  return problems;
}

/**
 * A folder holding none of a run's reports is a wrong argument, said once (exit 2), not one
 * "cannot read" line per missing file; `compare`'s output folder is the usual mix-up.
 */
function notABundle(dir: string, shown: string): void {
  if (RENDERED.some(([name]) => existsSync(join(dir, name)))) return;
  const matrix = ['matrix.html', 'matrix.md'].some((name) => existsSync(join(dir, name)));
  throw new InputError(
    matrix
      ? `${shown} is the output of compare (matrix.html, matrix.md), not a run's reports: give verify the --report-dir of a run, the folder that holds conformance.json`
      : `${shown} holds none of a run's reports (conformance.json, junit.xml, …): give verify the --report-dir of a run`,
  );
}

/** Checks the bundle in `dir`; InputError when `dir` is not a directory at all. */
export function verifyBundle(dir: string, shown: string, suiteVersion: string, secrets: readonly string[]): Verification {
  try {
    if (!statSync(dir).isDirectory()) throw new InputError(`${shown}: not a directory (give the report directory of a run)`);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`${shown}: no such directory`);
  }
  notABundle(dir, shown);
  const problems: string[] = [];
  const notes: string[] = [];
  const texts = new Map<string, string>();
  const read = (name: string, max: number): void => {
    try {
      texts.set(name, readBounded(join(dir, name), name, max));
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      problems.push(error.message);
    }
  };
  for (const [name] of RENDERED) read(name, MAX_REPORT_BYTES);
  // Each failing test's replay file (report/replay-file.ts) must hold no credential either.
  for (const name of replayFilesIn(dir)) read(name, REPLAY_FILE_MAX_BYTES);
  const redactor = new Redactor(secrets);
  for (const [name, text] of texts) {
    const line = credentialLine(text, redactor);
    if (line !== undefined) problems.push(`${name}: holds a credential (line ${line})`);
  }
  if (secrets.length === 0) notes.push('no token given (WIDGET_TOKEN, WIDGET_SECOND_TOKEN, WIDGET_HEADERS): credentials were looked for by shape only');

  const json = texts.get('conformance.json');
  if (json === undefined) return { problems, notes };
  let value: unknown;
  try {
    value = parseJson(json, 'conformance.json');
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return { problems: [...problems, error.message], notes };
  }
  const issues = reportIssues(value);
  if (issues.length > 0) return { problems: [...problems, ...issues.map((i) => `conformance.json does not match its schema: ${i}`)], notes };
  const report = value as RunReport;

  const catalogue = catalogueProblems(report);
  problems.push(...catalogue.problems, ...consistencyProblems(report), ...unredactedAuthorization(report));
  notes.push(...catalogue.notes);
  const junit = texts.get('junit.xml');
  if (junit !== undefined) problems.push(...junitDisagreements(junit, report));
  // The renderers of another suite version may differ: the files are compared only under the version that wrote them.
  if (report.suiteVersion !== suiteVersion) notes.push(`written by suite ${report.suiteVersion}, this is ${suiteVersion}: the Markdown, HTML, HAR and badge were not compared with conformance.json`);
  else {
    for (const [name, render] of RENDERED) {
      const text = texts.get(name);
      if (render === undefined || text === undefined) continue;
      if (render(report) !== text) problems.push(`${name}: not what conformance.json renders to (edited, or written from another report)`);
    }
  }
  return { problems, notes };
}

/** The suite's version, from its package.json. */
export function suiteVersionAt(root: string): string {
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}
