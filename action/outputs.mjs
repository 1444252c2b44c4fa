#!/usr/bin/env node
// The GitHub Action's outputs (action.yml, step "run"), from the run's conformance.json:
//   node action/outputs.mjs REPORT_DIR EXIT_CODE
// appends exit-code, verdict, gate-passed, the counts, report-dir and junit to $GITHUB_OUTPUT.
// The report is read generically: whatever verdict word and outcomes the suite writes are passed
// through, so a new verdict or outcome needs no change here. When the suite stopped before writing
// a report (exit 2 or 3 at start), the job summary gets one line saying so, since the suite's own
// summary (which it appends to $GITHUB_STEP_SUMMARY with every report) is missing.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** Output names of the outcomes conformance.json counts (report/model.ts `Outcome`). */
const COUNTS = { pass: 'passed', fail: 'failed', warn: 'warned', skip: 'skipped', error: 'errors', inconclusive: 'inconclusive' };
/** What each exit code means (src/exit-codes.ts), for the summary line of a run without a report. */
const MEANING = { 1: 'a rule failed', 2: 'usage or configuration error', 3: 'the suite could not run' };

/** One line of printable text: a value with a newline would write a second output of its own choosing. */
function oneLine(value) {
  return String(value).replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, 1000);
}

const [dirArg, codeArg] = process.argv.slice(2);
if (dirArg === undefined || !/^[0-9]{1,3}$/.test(codeArg ?? '')) {
  process.stderr.write('usage: node action/outputs.mjs REPORT_DIR EXIT_CODE\n');
  process.exit(2);
}
const outputFile = process.env.GITHUB_OUTPUT;
if (!outputFile) {
  process.stderr.write('action/outputs.mjs: GITHUB_OUTPUT is not set (it runs inside a GitHub Actions step)\n');
  process.exit(2);
}

const dir = resolve(dirArg);
const outputs = { 'exit-code': codeArg, 'report-dir': dir, verdict: '', 'gate-passed': '', counts: '', 'known-failures': '', junit: '' };
for (const name of Object.values(COUNTS)) outputs[name] = '';

const reportFile = resolve(dir, 'conformance.json');
let report;
try {
  report = existsSync(reportFile) ? JSON.parse(readFileSync(reportFile, 'utf8')) : undefined;
} catch (error) {
  process.stderr.write(`action/outputs.mjs: ${reportFile} is not JSON (${error instanceof Error ? error.message : String(error)})\n`);
}
if (report && typeof report === 'object') {
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
if (existsSync(junit)) outputs.junit = junit;

appendFileSync(outputFile, Object.entries(outputs).map(([name, value]) => `${name}=${oneLine(value)}\n`).join(''));

const summaryFile = process.env.GITHUB_STEP_SUMMARY;
if (!report && summaryFile) {
  const meaning = MEANING[Number(codeArg)] ?? 'see the log';
  appendFileSync(summaryFile, `### Widget Service conformance\n\nThe suite exited ${codeArg} (${meaning}) before writing a report: the step "Run the conformance suite" in the job's log says why.\n`);
}
