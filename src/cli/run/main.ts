/**
 * `npm test`: the conformance run. Resolves the config, picks the target (the embedded
 * reference server when no --base-url is given), checks once that it can be reached, runs
 * the suites, sweeps up what the run created, writes the reports and exits:
 * 0 conformant, 1 a rule failed, 2 usage or configuration error, 3 the suite could not run,
 * 130/143 interrupted. main() at the bottom is the sequence of steps; the steps with a job of
 * their own live beside it (options.ts, prepare-accounts.ts, run-tests.ts, cleanup-after-tests.ts).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { WidgetApi } from '../../client/api.ts';
import { JOURNAL_PREFIX, Journal } from '../../client/ledger.ts';
import { redactedConfig, secretsOf, type SuiteConfig } from '../../config.ts';
import { newMarker } from '../../harness/marker.ts';
import type { SuiteSettings } from '../../harness/settings.ts';
import { liveRequests, refusedBeyondBudget, renewedTokens, tokenRejected } from '../../harness/worker-to-runner.ts';
import { clientOptions } from '../../http/client-options.ts';
import { HttpClient } from '../../http/client.ts';
import type { ClientStats } from '../../shared/client-stats.ts';
import { secretHeaderSet } from '../../shared/header-secrecy.ts';
import { Redactor } from '../../shared/redact.ts';
import { displayPath, PROJECT_ROOT } from '../../paths.ts';
import { buildReport, hostOf } from '../../report/build.ts';
import { consoleSafe } from '../../report/console.ts';
import type { CleanupReport, RunReport } from '../../report/model.ts';
import { sanitizeCleanup, sanitizeOutcomes } from '../../report/sanitize.ts';
import { redactProcessOutput } from '../shared/redact-output.ts';
import { replayExit } from './replay.ts';
import { rerunSettings, withReruns } from './reruns.ts';
import { selectionReport } from './run-selection.ts';
import { writeBaseline } from './write-baseline.ts';
import { cleanUpAfterTests, type RunToClean } from './cleanup-after-tests.ts';
import { describeCleanup, type CleanupOutcome } from './final-cleanup.ts';
import { Interrupt } from './interrupt.ts';
import { RunProgress } from './progress.ts';
import { checkDestinations, fail, loadOptions, orExit, withTokensFromCommands, type Options } from './options.ts';
import { exitCodeOf, type RunOutcomes } from './outcomes.ts';
import { prepareAccounts } from './prepare-accounts.ts';
import { RunnerProfile, runProfile } from './profile.ts';
import { runTests } from './run-tests.ts';
import { secondAccountRulesNotRun } from './second-account.ts';
import { runnerAccounts } from './runner-accounts.ts';
import { secretWarnings } from './secret-warnings.ts';
import { sumStats, totalStats } from './stats.ts';
import { requestAccount } from './request-account.ts';
import type { RequestAccount } from '../../shared/request-account.ts';
import { renderSummary } from './summary.ts';
import { settleColour } from './colour.ts';
import type { Paint } from '../../report/console-report.ts';
import { chooseTarget, type Target } from './target.ts';
import { guardVerdict, NO_VERDICT_EXIT } from './verdict-guard.ts';
import { removeStaleReports, writeReports, type Leak } from './write-reports.ts';

const VERSION = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** What the steps of a run share, from the moment it has a target until it is closed. */
interface Run {
  readonly options: Options;
  /** The configuration with the tokens the token commands printed. */
  readonly config: SuiteConfig;
  /** Isolation rules left out for want of a second account (--without-second-token). */
  readonly notRun: readonly string[];
  readonly started: Date;
  readonly reportDir: string;
  /** Where the workers leave their stats, held ids, renewed tokens and profiles; removed at the end. */
  readonly statsDir: string;
  readonly interrupt: Interrupt;
  readonly target: Target;
  /** Every secret the run was given or started with. */
  readonly secrets: readonly string[];
  readonly redactor: Redactor;
  readonly marker: string;
  /** A Date.now() value: no request is sent after it. */
  readonly deadline: number;
  /** The runner's own client (probe, inventory); the cleanup has its own. */
  readonly client: HttpClient;
  readonly journalFile: string;
  readonly journal: Journal;
  readonly accounts: readonly WidgetApi[];
  /** Records the runner's own answers (the first contact's) for the profile. */
  readonly runnerProfile: RunnerProfile;
  /** The console's colours: none under NO_COLOR or FORCE_COLOR=0 (colour.ts). */
  readonly paint: Paint;
  /** The progress line, from the first request to the summary (progress.ts). */
  readonly progress: RunProgress;
  /** The final cleanup's client, once it exists: its requests count on the progress line. */
  readonly watched: { cleaner?: HttpClient };
}

/**
 * Starts what a run holds until it is closed (closeRun): the stats folder, the signal handling,
 * the target, the redaction of the process's output, the runner's client and journal.
 */
async function openRun(start: Pick<Run, 'options' | 'config' | 'notRun' | 'started' | 'reportDir'>): Promise<Run> {
  const { options, config, started, reportDir } = start;
  // Before vitest is loaded: its colour library reads the environment once (colour.ts).
  const paint = settleColour();
  const statsDir = mkdtempSync(join(tmpdir(), 'widget-conformance-'));
  // From here on a signal stops the run in order: nothing new is created, what was created is deleted.
  const interrupt = new Interrupt(statsDir);
  const target = await chooseTarget(config);
  const secrets = [...secretsOf(config), target.token, ...(target.secondToken ? [target.secondToken] : [])];
  const redactor = new Redactor(secrets, secretHeaderSet(config.secretHeaders));
  redactProcessOutput(redactor, () => learnRenewedTokens(redactor, statsDir));
  for (const w of secretWarnings(redactor, process.argv.slice(2), process.env)) process.stderr.write(`widget-conformance: warning: ${w}\n`);
  const marker = newMarker();
  const deadline = started.getTime() + config.maxRunTimeMs;
  const client = new HttpClient(clientOptions(config, { baseUrl: target.baseUrl, secrets, deadline, ca: options.ca }));
  // The run's ownership journal: the inventory, every create and delete as it happens (ledger.ts).
  // In the report directory, so it outlives a killed run for `npm run cleanup`.
  const journalFile = join(reportDir, journalName(marker));
  const journal = new Journal(journalFile, (text) => redactor.text(text));
  const runnerProfile = new RunnerProfile();
  const accounts = runnerAccounts(client, target, marker, journal, runnerProfile.observe);
  // Every request of the run: the runner's own, the workers' (as they record them), the cleanup's.
  const watched: Run['watched'] = {};
  // A replay's one line is its stdout; its progress goes to stderr, so a long replay never sits silent.
  const progress = RunProgress.forRun(() => client.stats.requests + liveRequests(statsDir) + (watched.cleaner?.stats.requests ?? 0), options.replay ? process.stderr : process.stdout);
  return { ...start, statsDir, interrupt, target, secrets, redactor, marker, deadline, client, journalFile, journal, accounts, runnerProfile, paint, progress, watched };
}

/** Releases what the run holds, however it ended: the stats folder, the runner's client, the embedded server. */
async function closeRun(run: Run): Promise<void> {
  run.progress.stop();
  rmSync(run.statsDir, { recursive: true, force: true });
  await run.client.close();
  await run.target.server?.close();
}

/** The journal file of a run in its report directory (`cleanup` reads every one it finds there). */
function journalName(marker: string): string {
  return `${JOURNAL_PREFIX}${marker}.jsonl`;
}

/** Teaches the redactor the tokens the workers renewed since it last looked. */
function learnRenewedTokens(redactor: Redactor, statsDir: string): void {
  redactor.add(renewedTokens(statsDir).map(({ token }) => token));
}

/** What the workers are handed: the configuration with the run's target, marker, deadline and folders in place of what was given. */
function settingsFor(run: Run): SuiteSettings {
  const { baseUrl: _given, token: _token, secondToken: _second, help: _help, list: _list, ...rest } = run.config;
  return {
    ...rest,
    baseUrl: run.target.baseUrl,
    token: run.target.token,
    ...(run.target.secondToken ? { secondToken: run.target.secondToken } : {}),
    targetLabel: run.target.label,
    deadline: run.deadline,
    marker: run.marker,
    statsDir: run.statsDir,
    journal: run.journalFile,
    ...(run.options.ca === undefined ? {} : { ca: run.options.ca }),
  };
}

/** Announces the marker and the seed, then runs the tests (a second attempt included, except in a replay). */
async function testOutcomes(run: Run): Promise<RunOutcomes> {
  const { only, selection, lastFailedLine, replay } = run.options;
  if (!replay) process.stdout.write(`Run marker ${run.marker}; seed ${run.config.seed}${run.config.seedGiven ? '' : ' (random: pass --seed to replay)'}\n`);
  if (lastFailedLine !== undefined) process.stdout.write(`${lastFailedLine}\n`);
  const outcomes = await runTests({ settings: settingsFor(run), ...(only ? { only } : {}), ...(selection ? { selection } : {}), interrupt: run.interrupt, deadline: run.deadline, statsDir: run.statsDir, progress: run.progress, ...(replay ? { secondAttempt: false } : {}) });
  // Each failed or warned test gets the one command that reruns it and its replay file (tokens from the environment).
  return withReruns(outcomes, rerunSettings(run.config, run.target.server !== undefined, run.notRun.length > 0), replay ? undefined : { reportDir: run.config.reportDir, suiteVersion: VERSION, recordedAt: run.started });
}

/** What the cleanup needs of the run. */
function toClean(run: Run): RunToClean {
  const { config, target, secrets, statsDir, marker, journal, journalFile } = run;
  return { config, target, secrets, ca: run.options.ca, statsDir, marker, journal, journalFile, interrupted: run.interrupt.signal !== undefined };
}

/** A finished run's findings, cleaned of secrets, and its exit code. */
interface Findings {
  readonly outcomes: RunOutcomes;
  readonly cleanup: CleanupReport;
  readonly stats: ClientStats;
  readonly requestsBy: RequestAccount;
  readonly exitCode: number;
  /** The message of the token a worker found rejected, if one was: the run then has no verdict. */
  readonly rejected: string | undefined;
  /** The message of the target's refusals (429/503) that outlasted the wait budget, if they did: no verdict either. */
  readonly refused: string | undefined;
  /** Every selected rule was skipped: nothing was judged, so no verdict. */
  readonly judgedNothing: boolean;
}

/** Cleans what the server said of secrets, adds up the requests, and decides the exit code. */
function findingsOf(run: Run, tested: RunOutcomes, swept: { outcome: CleanupOutcome; stats: ClientStats }): Findings {
  // Server text enters the report model here, each string cleaned once (report/sanitize.ts).
  learnRenewedTokens(run.redactor, run.statsDir);
  const clean = (text: string): string => run.redactor.text(text);
  const outcomes = sanitizeOutcomes(tested, clean);
  const cleanup = sanitizeCleanup(swept.outcome, clean);
  const stats = totalStats(run.statsDir, sumStats(run.client.stats, swept.stats));
  // The runner's own requests (first contact, inventory, final cleanup) apart from the workers'.
  const requestsBy = requestAccount(stats.requests, run.client.stats.requests + swept.stats.requests, tested.requests);
  // A token that stopped working is a setup problem: the rule outcomes after it say nothing of the server.
  const rejected = tokenRejected(run.statsDir);
  // A run in which every rule was skipped has judged nothing: that is not a pass.
  const judgedNothing = outcomes.rules.every((r) => r.outcome === 'skip');
  // Refusals past the wait budget stopped the tests: what ran after them was not judged (exit 3).
  const refused = refusedBeyondBudget(run.statsDir);
  const exitCode = run.interrupt.exitCode ?? (rejected ? 2 : refused ? 3 : judgedNothing ? NO_VERDICT_EXIT : exitCodeOf(outcomes, run.options.baseline));
  return { outcomes, cleanup, stats, requestsBy, exitCode, rejected, refused, judgedNothing };
}

/** The run report (report/build.ts) of a finished run. */
function reportOf(run: Run, findings: Findings): RunReport {
  const { config, target, options } = run;
  return buildReport(
    {
      suiteVersion: VERSION,
      target: target.label,
      baseUrl: target.baseUrl,
      startedAt: run.started,
      finishedAt: new Date(),
      seed: config.seed,
      // The embedded reference server's port changes every run: its version names it instead.
      implementation: config.implementation ?? (target.server ? `reference@${VERSION}` : hostOf(target.baseUrl)),
      config: redactedConfig(config),
      strict: config.strict,
      stats: findings.stats,
      requestsBy: findings.requestsBy,
      exitCode: findings.exitCode,
      interrupted: run.interrupt.signal !== undefined,
      cleanup: findings.cleanup,
      profile: runProfile(run.statsDir, config.listSettleMs),
      ...(options.baseline && config.baseline ? { baseline: { file: config.baseline, ids: options.baseline } } : {}),
      ...(run.notRun.length > 0 ? { notRun: run.notRun } : {}),
      ...selectionReport(run.options.selection, config),
    },
    findings.outcomes,
  );
}

/** The final cleanup, said on the progress line step by step. */
async function cleanUp(run: Run): Promise<Awaited<ReturnType<typeof cleanUpAfterTests>>> {
  let step = 'starting';
  run.progress.phase(() => `cleanup: ${step}`);
  return cleanUpAfterTests(toClean(run), { onClient: (c) => (run.watched.cleaner = c), onStep: (s) => (step = s) });
}

/** Writes the reports (the replay files among them), lets the journal go once nothing is left, and prints the summary (a replay prints its line later). */
async function publish(run: Run, findings: Findings): Promise<{ problems: string[]; leaks: Leak[]; report: RunReport }> {
  const report = reportOf(run, findings);
  learnRenewedTokens(run.redactor, run.statsDir);
  let writing = '';
  run.progress.phase(() => `writing the reports: ${writing}`);
  const replays = findings.outcomes.tests.flatMap((t) => (t.replay ? [t.replay] : []));
  const { files, problems, leaks } = await writeReports(run.reportDir, report, run.redactor, replays, (name, i, n) => (writing = `${name} (${i + 1} of ${n})`));
  const { writeBaseline: baselineFile } = run.config;
  if (baselineFile !== undefined) {
    // After the reports, from the same report: the rules that failed (and under --strict, warned).
    const problem = writeBaseline(resolve(run.options.directory, baselineFile), baselineFile, report);
    if (problem === undefined) files.push(resolve(run.options.directory, baselineFile));
    else problems.push(problem);
  }
  // Nothing is left for `cleanup` to do: the journal has served.
  if (findings.cleanup.verified) rmSync(run.journalFile, { force: true });
  run.progress.stop();
  if (!run.options.replay) process.stdout.write(`${summaryOf(run, findings, report, files)}\n`);
  return { problems, leaks, report };
}

/** The exit code, after the lines that explain it: reports not written, a credential kept back, no verdict; a replay's own (replay.ts). */
function exitCodeAfter(run: Run, findings: Findings, written: { problems: string[]; leaks: Leak[]; report: RunReport }): number {
  // A report that could not be written is said, but never costs the verdict.
  for (const p of written.problems) process.stderr.write(`widget-conformance: ${consoleSafe(p)}\n`);
  // The tripwire: a credential in finished output is the suite's bug; the file was kept back.
  for (const l of written.leaks) process.stderr.write(`widget-conformance: suite error: ${displayPath(l.file, run.options.directory)} would hold a credential (line ${l.line}); it was not written. Please report this bug of the suite\n`);
  if (written.leaks.length > 0 && run.interrupt.exitCode === undefined) return 3;
  const { exitCode, judgedNothing, rejected, refused } = findings;
  // No test at all: a --test filter (or --only RULE.text) that matched no title.
  const why = findings.outcomes.tests.length === 0 ? 'no test matched --only / --test / --last-failed' : 'every selected rule was skipped; the reports give each reason';
  if (judgedNothing && exitCode === NO_VERDICT_EXIT) process.stderr.write(`widget-conformance: no rule was executed (${why}), so there is no verdict (exit ${NO_VERDICT_EXIT})\n`);
  if (rejected && !run.interrupt.signal) process.stderr.write(`widget-conformance: ${consoleSafe(run.redactor.text(rejected))}; check that the token is valid for the whole run (no verdict)\n`);
  else if (refused && !run.interrupt.signal) process.stderr.write(`widget-conformance: ${consoleSafe(run.redactor.text(refused))} (no verdict)\n`);
  return run.options.replay ? replayExit(written.report, run.options.replay, exitCode, displayPath(run.reportDir, run.options.directory)) : exitCode;
}

/** The console's end-of-run output: the findings, the summary and the verdict, from the report. */
function summaryOf(run: Run, findings: Findings, report: RunReport, files: readonly string[]): string {
  const { config, options } = run;
  const { stats, cleanup } = findings;
  return renderSummary(
    report,
    {
      ...(stats.slots === undefined ? {} : { slots: stats.slots }),
      ...(config.maxRate === undefined ? {} : { maxRate: config.maxRate }),
      seconds: (Date.now() - run.started.getTime()) / 1000,
      reports: files.map((f) => displayPath(f, options.directory)),
      settingsFile: options.envFile ?? `none (no .env in ${options.directory})`,
      cleanup: describeCleanup(cleanup, cleanup.verified ? undefined : displayPath(run.journalFile, options.directory)),
      listSettleMs: config.listSettleMs,
    },
    run.paint,
  );
}

/** The run, step by step; resolves with its exit code (usage errors exit 2 on the spot). */
async function main(): Promise<number> {
  const options = loadOptions();
  if (!options) return 0;
  const config = await withTokensFromCommands(options.config);
  const notRun = orExit(() => secondAccountRulesNotRun(config, options.only));
  const started = new Date();
  const reportDir = resolve(options.directory, config.reportDir);
  checkDestinations(reportDir, config);
  const run = await openRun({ options, config, notRun, started, reportDir });
  try {
    run.progress.phase(() => 'checking the target and taking stock of what the accounts hold');
    run.progress.start();
    const stopped = await prepareAccounts(run);
    // A run that stops here (a refused token, an unreachable target, a signal) has written nothing:
    // the previous run's reports and its --last-failed data stay as they were.
    if (stopped !== undefined) return stopped;
    // From the first test on, the run will write reports of its own: a run killed from here must
    // not leave the previous run's verdict (another target's, maybe) for CI to upload.
    for (const p of removeStaleReports(run.reportDir)) process.stderr.write(`widget-conformance: warning: ${p}\n`);
    const outcomes = await testOutcomes(run);
    const swept = await cleanUp(run);
    const findings = findingsOf(run, outcomes, swept);
    return exitCodeAfter(run, findings, await publish(run, findings));
  } finally {
    await closeRun(run);
  }
}

// Armed before anything else: until main() settles with a verdict, the exit code is failure.
const guard = guardVerdict('widget-conformance');
main().then(
  (code) => {
    guard.settle();
    process.exit(code);
  },
  (error: unknown) => fail(`internal error: ${(error as Error)?.stack ?? String(error)}`, 3),
);
