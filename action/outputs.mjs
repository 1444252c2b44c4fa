#!/usr/bin/env node
// The GitHub Action's outputs (action.yml, step "run"), from the run's conformance.json:
//   node action/outputs.mjs REPORT_DIR EXIT_CODE STARTED
// appends exit-code, verdict, gate-passed, the counts, report-dir, artifact-name, and for the
// later steps junit and upload, to $GITHUB_OUTPUT. STARTED (seconds since the epoch, taken before
// the suite ran) tells this run's report from an earlier one: a run that stops before its first
// test (a refused token) leaves the previous run's reports in place for --last-failed, and those
// are not this step's outputs, nor its artifact. The report is read generically: whatever verdict
// word and outcomes the suite writes are passed through, so a new verdict or outcome needs no
// change here. When the suite wrote no report, the job summary gets one line saying so, since
// the suite's own summary (which it appends to $GITHUB_STEP_SUMMARY with every report) is missing.
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Output names of the outcomes conformance.json counts (report/model.ts `Outcome`). */
const COUNTS = { pass: 'passed', fail: 'failed', warn: 'warned', skip: 'skipped', error: 'errors', inconclusive: 'inconclusive' };
/** What each exit code means (src/exit-codes.ts), for the summary line of a run without a report. */
const MEANING = { 1: 'a rule failed', 2: 'usage or configuration error', 3: 'the suite could not run' };

/** One line of printable text: a value with a newline would write a second output of its own choosing. */
function oneLine(value) {
  return String(value).replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, 1000);
}

/**
 * The artifact's name: the artifact-name input when given, else one of its own per job and matrix
 * entry (two jobs of a matrix uploading under one name would collide): the job's id, and in a
 * matrix the entry's index and a hash of its values. Only characters artifact names allow.
 */
export function artifactName(env) {
  const given = env.CONFORMANCE_ARTIFACT_NAME ?? '';
  if (given !== '') return given;
  const job = (env.GITHUB_JOB ?? '').replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 100);
  const matrix = env.CONFORMANCE_MATRIX ?? '';
  const inMatrix = matrix !== '' && matrix !== 'null';
  const entry = inMatrix ? `-${/^[0-9]{1,6}$/.test(env.CONFORMANCE_JOB_INDEX ?? '') ? `${env.CONFORMANCE_JOB_INDEX}-` : ''}${createHash('sha256').update(matrix).digest('hex').slice(0, 8)}` : '';
  return `widget-conformance-reports${job ? `-${job}` : ''}${entry}`;
}

/** True when `file` was written at or after `startedMs`: by this run, not an earlier one. */
function writtenSince(file, startedMs) {
  try {
    return statSync(file).mtimeMs >= startedMs;
  } catch {
    return false;
  }
}

/** Writes the outputs of the run in REPORT_DIR (see the top of this file). */
function main() {
  const [dirArg, codeArg, startedArg] = process.argv.slice(2);
  if (dirArg === undefined || !/^[0-9]{1,3}$/.test(codeArg ?? '') || !/^[0-9]{1,12}$/.test(startedArg ?? '')) {
    process.stderr.write('usage: node action/outputs.mjs REPORT_DIR EXIT_CODE STARTED\n');
    process.exit(2);
  }
  // Whole seconds, taken before the suite started: anything this run wrote is at or after it.
  const startedMs = Number(startedArg) * 1000;
  const outputFile = process.env.GITHUB_OUTPUT;
  if (!outputFile) {
    process.stderr.write('action/outputs.mjs: GITHUB_OUTPUT is not set (it runs inside a GitHub Actions step)\n');
    process.exit(2);
  }

  const dir = resolve(dirArg);
  const outputs = { 'exit-code': codeArg, 'report-dir': dir, 'artifact-name': artifactName(process.env), verdict: '', 'gate-passed': '', counts: '', 'known-failures': '', junit: '', upload: 'false' };
  for (const name of Object.values(COUNTS)) outputs[name] = '';

  const reportFile = resolve(dir, 'conformance.json');
  let report;
  try {
    // An earlier run's report is not this run's: its outputs stay empty.
    report = writtenSince(reportFile, startedMs) ? JSON.parse(readFileSync(reportFile, 'utf8')) : undefined;
  } catch (error) {
    // The directory is an input's value: not shown (the report-dir output says where it is).
    process.stderr.write(`action/outputs.mjs: conformance.json in the report directory is not JSON (${error instanceof Error ? error.message.split('\n')[0] : String(error)})\n`);
  }
  if (!report || typeof report !== 'object' || !(Date.parse(report.startedAt) >= startedMs)) report = undefined;
  if (report) {
    outputs.verdict = typeof report.verdict === 'string' ? report.verdict : '';
    if (report.gate && typeof report.gate === 'object') {
      outputs['gate-passed'] = report.gate.passed === true ? 'true' : 'false';
      if (Number.isInteger(report.gate.knownFailures)) outputs['known-failures'] = String(report.gate.knownFailures);
    }
    const summary = report.summary && typeof report.summary === 'object' ? report.summary : {};
    outputs.counts = JSON.stringify(summary);
    // Each outcome summed over the levels (MUST, SHOULD, and any level a later suite adds).
    for (const [outcome, name] of Object.entries(COUNTS)) {
      let total = 0;
      for (const level of Object.values(summary)) if (level && Number.isInteger(level[outcome])) total += level[outcome];
      outputs[name] = String(total);
    }
  }
  const junit = resolve(dir, 'junit.xml');
  if (report && writtenSince(junit, startedMs)) outputs.junit = junit;
  // Uploaded when this run wrote something there: its reports, or a journal (widgets it may have left).
  const journals = existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith('widget-journal-') && writtenSince(join(dir, f), startedMs)) : [];
  if (report || journals.length > 0) outputs.upload = 'true';

  appendFileSync(outputFile, Object.entries(outputs).map(([name, value]) => `${name}=${oneLine(value)}\n`).join(''));

  const summaryFile = process.env.GITHUB_STEP_SUMMARY;
  if (!report && summaryFile) {
    const meaning = MEANING[Number(codeArg)] ?? 'see the log';
    appendFileSync(summaryFile, `### Widget Service conformance\n\nThe suite exited ${codeArg} (${meaning}) without writing a report of this run: the step "Run the conformance suite" in the job's log says why.\n`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
