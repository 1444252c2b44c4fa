/**
 * `npm test`: the conformance run. Resolves the config, picks the target (the embedded
 * reference server when no --base-url is given), checks once that it can be reached, runs
 * the suites, sweeps up what the run created, writes the reports and exits:
 * 0 conformant, 1 a rule failed, 2 usage or configuration error, 3 the suite could not run,
 * 130/143 interrupted.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { WidgetApi, type ApiHooks } from '../../client/api.ts';
import { readBaseline } from './baseline.ts';
import { readCaFile } from '../shared/ca-file.ts';
import { ConfigError, envFilePath, helpText, redactedConfig, resolveConfig, secretsOf, type SuiteConfig } from '../../config.ts';
import { isSuiteError, RejectedTokenError, SetupProblemError } from '../../errors.ts';
import { recordFirstContact } from '../../harness/first-contact.ts';
import { readHeld, renewedTokens, tokenRejected } from '../../harness/worker-to-runner.ts';
import { withCommandTokens } from '../shared/token-commands.ts';
import { carriesMarker, newMarker } from '../../harness/marker.ts';
import type { SuiteSettings } from '../../harness/settings.ts';
import { clientOptions } from '../../http/client-options.ts';
import { HttpClient } from '../../http/client.ts';
import { Redactor } from '../../http/redact.ts';
import { displayPath, PROJECT_ROOT, userDirectory } from '../../paths.ts';
import { buildReport, hostOf } from '../../report/build.ts';
import { RULES, secondAccountRules } from '../../rules.ts';
import { parseOnly, testNamePattern } from '../shared/selection.ts';
import { Ownership } from '../../client/ownership.ts';
import { walkBudget } from '../../client/walk.ts';
import { JOURNAL_PREFIX, Journal, readJournal } from '../../client/ledger.ts';
import { takeInventory } from '../../client/sweep.ts';
import { Interrupt } from './interrupt.ts';
import { checkStepSummary, prepareReportDir } from './destinations.ts';
import { describeCleanup, finalCleanup } from './final-cleanup.ts';
import { collectOutcomes, exitCodeOf } from './outcomes.ts';
import { checkNpmKeptOptions } from '../shared/npm-options.ts';
import { probe } from './probe.ts';
import { RunnerProfile, runProfile } from './profile.ts';
import { rulesToRecheck, withSecondAttempt } from './recheck.ts';
import { redactProcessOutput } from '../shared/redact-output.ts';
import { sumStats, totalStats } from './stats.ts';
import { renderSummary } from './summary.ts';
import { chooseTarget, type Target } from './target.ts';
import { guardVerdict, NO_VERDICT_EXIT } from './verdict-guard.ts';
import { removeStaleReports, writeReports } from './write-reports.ts';
import { sanitizeCleanup, sanitizeOutcomes } from '../../report/sanitize.ts';
import { consoleSafe } from '../../report/console.ts';
import { secretHeaderSet } from '../../http/header-secrecy.ts';

/** Said once per run when a secret is shorter than 8 characters (credential-spellings.ts FUZZY_MIN_LENGTH). */
const SHORT_SECRET_WARNING =
  'a token or secret header value is shorter than 8 characters: it is hidden wherever the suite records what it sent, ' +
  'but in text the server chose it cannot be told from chance (every occurrence there is hidden, whatever it meant); use longer tokens (see docs/output-integrity.md)';

const VERSION = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

function fail(message: string, code: number): never {
  process.stderr.write(`widget-conformance: ${message}\n`);
  process.exit(code);
}

function printCatalogue(): void {
  for (const r of RULES) process.stdout.write(`${r.id.padEnd(7)} ${r.level.padEnd(6)} ${r.section.padEnd(38)} ${r.statement}\n`);
}

interface Options {
  readonly config: SuiteConfig;
  /** Where the user ran the command from: relative paths are theirs, and printed paths are for them. */
  readonly directory: string;
  /** The .env file that was read, absolute; absent when there was none. */
  readonly envFile?: string;
  readonly only?: ReadonlySet<string>;
  readonly baseline?: ReadonlySet<string>;
  /** PEM text of --ca-file. */
  readonly ca?: string;
}

/** The configuration, or one line and exit 2; undefined when --help or --list was answered. */
function loadOptions(): Options | undefined {
  try {
    // First: when npm kept the suite's flags, the rest of the configuration is not what the user meant.
    checkNpmKeptOptions(process.env);
    const directory = userDirectory(process.env);
    const envFile = envFilePath(process.env);
    const config = resolveConfig(process.argv.slice(2), process.env, { envFile });
    if (config.help) {
      process.stdout.write(`${helpText()}\n`);
      return undefined;
    }
    if (config.list) {
      printCatalogue();
      return undefined;
    }
    const only = parseOnly(config.only);
    const baseline = config.baseline === undefined ? undefined : readBaseline(resolve(directory, config.baseline));
    const ca = config.caFile === undefined ? undefined : readCaFile(resolve(directory, config.caFile), config.caFile);
    // resolveConfig has read it (or thrown) if it exists.
    const read = existsSync(envFile) ? { envFile } : {};
    return { config, directory, ...read, ...(only ? { only } : {}), ...(baseline ? { baseline } : {}), ...(ca === undefined ? {} : { ca }) };
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message, 2);
    throw error;
  }
}

/**
 * The cleanup's own time budget, after the tests: enough to delete what a run holds on a slow
 * server, bounded so that a server that stops answering cannot hold the run.
 */
export function cleanupBudgetMs(timeoutMs: number): number {
  return Math.max(CLEANUP_BUDGET_MIN_MS, CLEANUP_TIMEOUTS * timeoutMs);
}
const CLEANUP_BUDGET_MIN_MS = 60_000;
const CLEANUP_TIMEOUTS = 6;

function settingsFor(config: SuiteConfig, target: Target, marker: string, statsDir: string, journal: string, deadline: number, ca: string | undefined): SuiteSettings {
  const { baseUrl: _given, token: _token, secondToken: _second, help: _help, list: _list, ...rest } = config;
  return {
    ...rest,
    baseUrl: target.baseUrl,
    token: target.token,
    ...(target.secondToken ? { secondToken: target.secondToken } : {}),
    targetLabel: target.label,
    deadline,
    marker,
    statsDir,
    journal,
    ...(ca === undefined ? {} : { ca }),
  };
}

/** True when npm ran this with a token flag and printed its command line (npm echoes script arguments unless --silent). */
function npmEchoedToken(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  const underNpm = env.npm_lifecycle_event !== undefined && env.npm_config_loglevel !== 'silent';
  return underNpm && argv.some((a) => /^--((second-)?token|header)(=|$)/.test(a));
}

async function main(): Promise<number> {
  const options = loadOptions();
  if (!options) return 0;
  const { directory, envFile, only, baseline, ca } = options;
  let config: SuiteConfig;
  try {
    // Before the probe, and before any output: a token command that fails costs nothing else.
    config = await withCommandTokens(options.config);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message, 2);
    throw error;
  }
  // Before any request: the isolation rules (MUST) need a second account, and a missing CI secret
  // must not silently drop them. Run without them only when asked, and then never "conformant".
  const needSecond = secondAccountRules().filter((id) => !only || only.has(id));
  const embedded = config.baseUrl === undefined;
  if (!embedded && !config.secondToken && needSecond.length > 0 && !config.withoutSecondToken) {
    fail(`no second token: ${needSecond.join(', ')} (account isolation, MUST) need a second account; set --second-token or WIDGET_SECOND_TOKEN (or --second-token-command), or pass --without-second-token to run without them (the verdict is then PARTIAL)`, 2);
  }
  const notRun = !embedded && !config.secondToken ? needSecond : [];
  // What every client of the runner shares: the extra headers and the trusted CA.
  const started = new Date();
  const reportDir = resolve(directory, config.reportDir);
  try {
    // Before the first request: a destination that cannot be written must not cost a run.
    prepareReportDir(reportDir);
    checkStepSummary(process.env.GITHUB_STEP_SUMMARY);
  } catch (error) {
    if (error instanceof ConfigError) fail(new Redactor(secretsOf(config)).text(error.message), 2);
    throw error;
  }
  const statsDir = mkdtempSync(join(tmpdir(), 'widget-conformance-'));
  // From here on a signal stops the run in order: nothing new is created, what was created is deleted.
  const interrupt = new Interrupt(statsDir);
  const target = await chooseTarget(config);
  const secrets = [...secretsOf(config), target.token, ...(target.secondToken ? [target.secondToken] : [])];
  const redactor = new Redactor(secrets, secretHeaderSet(config.secretHeaders));
  const learnRenewedTokens = (): void => redactor.add(renewedTokens(statsDir).map(({ token }) => token));
  redactProcessOutput(redactor, learnRenewedTokens);
  // A killed run must not leave the previous run's verdict (another target's, maybe) for CI to upload.
  for (const p of removeStaleReports(reportDir)) process.stderr.write(`widget-conformance: warning: ${p}\n`);
  if (redactor.hasShortSecret) {
    process.stderr.write(`widget-conformance: warning: ${SHORT_SECRET_WARNING}\n`);
  }
  if (npmEchoedToken(process.argv.slice(2), process.env)) {
    process.stderr.write('widget-conformance: warning: npm printed the command line above, token included (or a --header value); pass them in WIDGET_TOKEN / WIDGET_SECOND_TOKEN / WIDGET_HEADERS or a .env file (or run npm with --silent)\n');
  }

  const marker = newMarker();
  const deadline = started.getTime() + config.maxRunTimeMs;
  const client = new HttpClient(clientOptions(config, { baseUrl: target.baseUrl, secrets, deadline, ca }));
  // The run's ownership journal: the inventory, every create and delete as it happens (ledger.ts).
  // In the report directory, so it outlives a killed run for `npm run cleanup`.
  const journalFile = join(reportDir, journalName(marker));
  const journal = new Journal(journalFile, (text) => redactor.text(text));
  const runnerProfile = new RunnerProfile();
  const accounts = runnerAccounts(client, target, marker, journal, runnerProfile.observe);
  try {
    try {
      for (const [i, api] of accounts.entries()) await probe(api, i === 0 ? (config.tokenCommand ? 'the token --token-command printed' : config.token ? '--token / WIDGET_TOKEN' : 'the reference server token') : config.secondTokenCommand ? 'the token --second-token-command printed' : '--second-token / WIDGET_SECOND_TOKEN');
      // Before any test writes: what each account answers while the run has created nothing in it.
      await runnerProfile.recording(statsDir, () => recordFirstContact(accounts, statsDir));
    } catch (error) {
      if (!isSuiteError(error)) throw error;
      process.stderr.write(`widget-conformance: ${consoleSafe(redactor.text((error as Error).message))}\n`);
      return error instanceof RejectedTokenError ? 2 : error instanceof SetupProblemError ? error.exitCode : 3;
    }
    if (interrupt.exitCode !== undefined) return interrupt.exitCode;
    // Before the first create: every id the accounts hold now is never deleted, whatever a later answer says.
    journal.append({ kind: 'run', marker, at: new Date().toISOString() });
    for (const api of accounts) {
      const inventory = await takeInventory(api, walkBudget(config.maxWidgets));
      if (inventory.problem) process.stderr.write(`widget-conformance: warning: the ${api.account} account's inventory (the widgets it holds before the run, never deleted) is incomplete: ${redactor.text(inventory.problem)}\n`);
    }
    if (interrupt.exitCode !== undefined) return interrupt.exitCode;

    process.stdout.write(`Run marker ${marker}; seed ${config.seed}${config.seedGiven ? '' : ' (random: pass --seed to replay)'}\n`);
    // Loaded only now: vitest is most of the start-up, and --help, --list or a usage error need none of it.
    const { runSuites } = await import('./run-vitest.ts');
    const settings = settingsFor(config, target, marker, statsDir, journalFile, deadline, ca);
    const vitest = await runSuites({
      settings,
      ...(only ? { testNamePattern: testNamePattern(only) } : {}),
      onStart: (v) => interrupt.adopt(v),
    });
    let outcomes = collectOutcomes(vitest.state.getTestModules(), vitest.state.getUnhandledErrors(), { ...(only ? { only } : {}), interruptedBy: interrupt.signal });
    await vitest.close();

    // A second attempt at each failed or warned rule, same seed and marker, to label the
    // failures that do not come back (recheck.ts). Never after a signal, past the deadline, or
    // once a token stopped working. Its widgets are the run's: the final cleanup below covers them.
    const recheck = rulesToRecheck(outcomes);
    if (recheck.size > 0 && interrupt.signal === undefined && Date.now() < deadline && !tokenRejected(statsDir)) {
      process.stdout.write(`Second attempt (same seed) at ${[...recheck].join(', ')}: is each failure steady or intermittent?\n`);
      const again = await runSuites({ settings, testNamePattern: testNamePattern(recheck), onStart: (v) => interrupt.adopt(v) });
      const second = collectOutcomes(again.state.getTestModules(), again.state.getUnhandledErrors(), { only: recheck, interruptedBy: interrupt.signal });
      await again.close();
      if (interrupt.signal === undefined) outcomes = withSecondAttempt(outcomes, second);
    }

    // Whatever the workers could not delete, and any widget whose create answer was lost. After
    // an interruption a create still in flight may land after the first walk: sweep twice.
    // Its own client and budget: the tests' client may have given up on the target (or spent the
    // run's time), and the ids the run knows must still be tried.
    const cleaner = new HttpClient(clientOptions(config, { baseUrl: target.baseUrl, secrets, deadline: Date.now() + cleanupBudgetMs(config.timeoutMs), ca }));
    let cleanup;
    try {
      // A token the workers renewed replaces the one the run started with.
      const latest = (account: string, token: string) => renewedTokens(statsDir).filter((t) => t.account === account).at(-1)?.token ?? token;
      const current = { ...target, token: latest('primary', target.token), ...(target.secondToken ? { secondToken: latest('second', target.secondToken) } : {}) };
      cleaner.redactor.add([current.token, ...(current.secondToken ? [current.secondToken] : [])]);
      cleanup = await finalCleanup(runnerAccounts(cleaner, current, marker, journal), readHeld(statsDir), {
        maxPages: walkBudget(config.maxWidgets),
        minSweeps: interrupt.signal ? 2 : 1,
        journal: readJournal(journalFile),
      });
    } finally {
      await cleaner.close();
    }

    // Server text enters the report model here, each string cleaned once (report/sanitize.ts).
    learnRenewedTokens();
    const clean = (text: string): string => redactor.text(text);
    outcomes = sanitizeOutcomes(outcomes, clean);
    cleanup = sanitizeCleanup(cleanup, clean);
    const stats = totalStats(statsDir, sumStats(client.stats, cleaner.stats));
    // A token that stopped working is a setup problem: the rule outcomes after it say nothing of the server.
    const rejected = tokenRejected(statsDir);
    // A run in which every rule was skipped has judged nothing: that is not a pass.
    const judgedNothing = outcomes.rules.every((r) => r.outcome === 'skip');
    const exitCode = interrupt.exitCode ?? (rejected ? 2 : judgedNothing ? NO_VERDICT_EXIT : exitCodeOf(outcomes, baseline));
    const report = buildReport(
      {
        suiteVersion: VERSION,
        target: target.label,
        baseUrl: target.baseUrl,
        startedAt: started,
        finishedAt: new Date(),
        seed: config.seed,
        // The embedded reference server's port changes every run: its version names it instead.
        implementation: config.implementation ?? (target.server ? `reference@${VERSION}` : hostOf(target.baseUrl)),
        config: redactedConfig(config),
        strict: config.strict,
        stats,
        exitCode,
        interrupted: interrupt.signal !== undefined,
        cleanup,
        profile: runProfile(statsDir, config.listSettleMs),
        ...(baseline && config.baseline ? { baseline: { file: config.baseline, ids: baseline } } : {}),
        ...(notRun.length > 0 ? { notRun } : {}),
      },
      outcomes,
    );
    learnRenewedTokens();
    const { files, problems, leaks } = writeReports(reportDir, report, redactor);
    // Nothing is left for `cleanup` to do: the journal has served.
    if (cleanup.verified) rmSync(journalFile, { force: true });
    process.stdout.write(
      `${renderSummary(outcomes, {
        implementation: report.implementation,
        rootCauses: report.rootCauses ?? [],
        inconclusive: new Map(report.rules.filter((r) => r.inconclusive).map((r) => [r.id, r.inconclusive?.note ?? ''])),
        target: target.label,
        requests: stats.requests,
        retries: stats.retries,
        waitMs: stats.rateLimitWaitMs,
        refused: stats.refused,
        ...(stats.slots === undefined ? {} : { slots: stats.slots }),
        ...(stats.pacedRate === undefined ? {} : { pacedRate: stats.pacedRate }),
        ...(config.maxRate === undefined ? {} : { maxRate: config.maxRate }),
        seconds: (Date.now() - started.getTime()) / 1000,
        reports: files.map((f) => displayPath(f, directory)),
        settingsFile: envFile ?? `none (no .env in ${directory})`,
        ...(report.baseline ? { baseline: report.baseline } : {}),
        exitCode,
        ...(notRun.length > 0 ? { notRun } : {}),
        cleanup: describeCleanup(cleanup, cleanup.verified ? undefined : displayPath(journalFile, directory)),
        listSettleMs: config.listSettleMs,
        ...(report.profile ? { profile: report.profile } : {}),
      })}\n`,
    );
    // A report that could not be written is said, but never costs the verdict.
    for (const p of problems) process.stderr.write(`widget-conformance: ${consoleSafe(p)}\n`);
    // The tripwire: a credential in finished output is the suite's bug; the file was kept back.
    for (const l of leaks) process.stderr.write(`widget-conformance: suite error: ${displayPath(l.file, directory)} would hold a credential (line ${l.line}); it was not written. Please report this bug of the suite\n`);
    if (leaks.length > 0 && interrupt.exitCode === undefined) return 3;
    if (judgedNothing && exitCode === NO_VERDICT_EXIT) process.stderr.write(`widget-conformance: no rule was executed (every selected rule was skipped; the reports give each reason), so there is no verdict (exit ${NO_VERDICT_EXIT})\n`);
    if (rejected && !interrupt.signal) process.stderr.write(`widget-conformance: ${consoleSafe(redactor.text(rejected))}; check that the token is valid for the whole run (no verdict)\n`);
    return exitCode;
  } finally {
    rmSync(statsDir, { recursive: true, force: true });
    await client.close();
    await target.server?.close();
  }
}

/** The journal file of a run in its report directory (`cleanup` reads every one it finds there). */
function journalName(marker: string): string {
  return `${JOURNAL_PREFIX}${marker}.jsonl`;
}

/** The runner's own view of the accounts: for the probe, the first contact (its answers `observe`d for the profile), the inventory and the final cleanup. */
function runnerAccounts(client: HttpClient, target: Target, marker: string, journal: Journal, observe?: ApiHooks['observe']): WidgetApi[] {
  const ownership = new Ownership((widget) => carriesMarker(widget, marker), journal);
  const peers = new Map<string, WidgetApi>();
  const hooks: ApiHooks = observe ? { observe } : {};
  return [
    new WidgetApi(client, target.token, 'primary', ownership, hooks, peers),
    ...(target.secondToken ? [new WidgetApi(client, target.secondToken, 'second', ownership, hooks, peers)] : []),
  ];
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
