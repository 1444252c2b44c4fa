/**
 * `widget-conformance replay FILE`: one failing test again, from its replay file
 * (report/replay-file.ts). The file becomes the options of an ordinary run narrowed to that test
 * (its target, rules, title, seed, runs and settings), so the test runs through the suite's own
 * harness: it makes its data afresh (a walk's widgets included), its writes go through the same
 * ledger and proofs, and the final cleanup deletes what it made. The tokens come from the
 * environment or .env, as for any run. What a run would write elsewhere stays put: the replay's
 * reports go to a folder beside the file (`<name>.run/`), never over the run's own; no baseline
 * is read or written; nothing is kept (--keep-failing); there is no second attempt.
 *
 * It ends with one line and its exit code: 1 the failure reproduced, 0 it did not, 2 bad input
 * (a file that is not a replay file, a test this suite does not have, a setup problem), 3 the
 * test could not run (no verdict).
 */
import { lstatSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { ConfigError, type SuiteConfig } from '../../config.ts';
import { redactUrlCredentials } from '../../shared/redact.ts';
import { boundedLine } from '../../report/console-report.ts';
import type { RunReport, TestReport } from '../../report/model.ts';
import { readReplayFile, REPLAY_FILE_MAX_BYTES, ReplayFileError, type ReplayFile } from '../../report/replay-file.ts';
import { exactTitleFilter } from '../../report/rerun.ts';
import { ruleById, RULES } from '../../rules.ts';
import { RERUN_FLAGS } from './reruns.ts';

/** The subcommand's word: `widget-conformance replay FILE`. */
export const REPLAY_SUBCOMMAND = 'replay';

export const REPLAY_USAGE = `Usage: widget-conformance replay FILE   (FILE: a replay file a run wrote, e.g. reports/replay/ISO-2-1.json)

Runs the failing test the file names again, with the run's target, seed and settings, through
the suite's own harness: the test makes its data afresh and the run deletes it at the end. The
tokens come from WIDGET_TOKEN and WIDGET_SECOND_TOKEN (or .env), as for any run: the file holds
none, and it sends them to the target it names (the line printed names it too; a file naming
another target than WIDGET_BASE_URL, when that is set, is refused). Its reports go
to FILE's folder, <name>.run/, never over the run's own.
Prints one line. Exit 1: the failure reproduced; 0: it did not; 2: bad input (the file, a test
this suite does not have, a setup problem); 3: the test could not run (no verdict).`;

/** A replay asked for: the file as named, what it says, and where the replay's own reports go. */
export interface ReplayRequest {
  /** The file as the user named it. */
  readonly path: string;
  readonly file: ReplayFile;
  /** The replay run's report directory, absolute: `<file without .json>.run` beside it. */
  readonly reportDir: string;
  /** The run's arguments, as if given on the command line. */
  readonly argv: readonly string[];
}

/**
 * The configuration of the run the arguments ask for: an ordinary run's, or for `replay FILE`
 * (the subcommand first) the file's, with the request beside it; `replayHelp` for `replay --help`.
 * Throws ConfigError (one line, exit 2).
 */
export function replayOrRun(argv: readonly string[], directory: string, resolveConfig: (argv: string[]) => SuiteConfig): { config: SuiteConfig; replay?: ReplayRequest; replayHelp?: true } {
  if (argv[0] !== REPLAY_SUBCOMMAND) return { config: resolveConfig([...argv]) };
  const request = replayRequest(argv.slice(1), directory);
  if (request === 'help') return { config: resolveConfig(['--help']), replayHelp: true };
  // The tokens go to the file's target: a file naming another target than the environment's (or
  // .env's) is refused, never followed there with the user's tokens (`--help` reads those settings unchecked).
  const configured = resolveConfig(['--help']).baseUrl;
  const target = request.file.baseUrl;
  if (configured !== undefined && target !== undefined && configured !== target) {
    throw new ConfigError(`replay: ${request.path} targets ${redactUrlCredentials(target)}, but WIDGET_BASE_URL (or .env) names ${redactUrlCredentials(configured)}: a replay sends your tokens to its file's target; unset WIDGET_BASE_URL to replay it there`);
  }
  return { config: replayConfig(resolveConfig([...request.argv]), request), replay: request };
}

/** The replay asked for by the subcommand's arguments, 'help' for --help; throws ConfigError (one line, exit 2). */
export function replayRequest(args: readonly string[], directory: string): ReplayRequest | 'help' {
  if (args.length === 1 && (args[0] === '--help' || args[0] === '-h')) return 'help';
  if (args.length !== 1 || args[0]!.startsWith('-')) throw new ConfigError('replay takes one replay file and no options (the file holds every setting), e.g. widget-conformance replay reports/replay/ISO-2-1.json');
  const path = args[0]!;
  const absolute = resolve(directory, path);
  let text: string;
  try {
    const stat = lstatSync(absolute);
    if (!stat.isFile()) throw new ConfigError(`replay: ${path} is not a regular file`);
    if (stat.size > REPLAY_FILE_MAX_BYTES) throw new ConfigError(`replay: ${path} is larger than ${REPLAY_FILE_MAX_BYTES / 1024} KiB: not a replay file`);
    text = readFileSync(absolute, 'utf8');
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`replay: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let file: ReplayFile;
  try {
    file = readReplayFile(text, (flag) => RERUN_FLAGS.has(flag));
  } catch (error) {
    if (error instanceof ReplayFileError) throw new ConfigError(`replay: ${path} ${error.message}`);
    throw error;
  }
  const unknown = [file.rule, ...file.run.rules].find((id) => !RULES.some((r) => r.id === id));
  if (unknown !== undefined) throw new ConfigError(`replay: ${path} names the rule ${JSON.stringify(unknown)}, which this suite's catalogue does not have`);
  const argv = [
    ...(file.baseUrl === undefined ? [] : ['--base-url', file.baseUrl]),
    '--only', file.run.rules.join(','),
    '--test', exactTitleFilter(file.run.test),
    '--seed', String(file.seed),
    '--runs', String(file.runs),
    ...(file.strict ? ['--strict'] : []),
    ...(file.withoutSecondToken ? ['--without-second-token'] : []),
    ...file.settings.flat(),
  ];
  return { path, file, reportDir: join(dirname(absolute), `${basename(absolute, '.json')}.run`), argv };
}

/**
 * The configuration of the replay run: the file's (resolved from its arguments), with what a
 * replay never does switched off whatever the environment or .env says: no baseline read or
 * written, nothing kept, no earlier report read; and for a run against the embedded reference
 * server, no target or token of the environment.
 */
export function replayConfig(config: SuiteConfig, request: ReplayRequest): SuiteConfig {
  const { baseline: _baseline, writeBaseline: _write, ...rest } = config;
  const embedded = request.file.baseUrl === undefined;
  const { baseUrl: _url, token: _token, secondToken: _second, tokenCommand: _command, secondTokenCommand: _secondCommand, ...target } = rest;
  return { ...(embedded ? target : rest), keepFailing: false, lastFailed: false, reportDir: request.reportDir };
}

/** The first line of what a failed (or warned) test received, in the suite's words. */
function whatDiffered(t: TestReport): string {
  const f = t.failures?.[0];
  if (f?.expected !== undefined) return `expected ${f.expected.split('\n')[0]}; received ${(f.received ?? '').split('\n')[0]}`;
  return (f?.message ?? t.warnings?.[0] ?? '').split('\n')[0] ?? '';
}

/** Prints the replay's one line (replayOutcome) and returns its exit code. */
export function replayExit(report: RunReport, request: ReplayRequest, runExit: number, reportsShown: string): number {
  const { code, line } = replayOutcome(report, request, runExit, reportsShown);
  process.stdout.write(`${line}\n`);
  return code;
}

/** The replay's one line and exit code, from the replay run's report and the exit code the run would have had. */
export function replayOutcome(report: RunReport, request: ReplayRequest, runExit: number, reportsShown: string): { code: number; line: string } {
  const { file, path } = request;
  const tests = report.rules.flatMap((r) => r.tests);
  const where = `(seed ${file.seed}; against ${report.target}; reports in ${reportsShown})`;
  const left = report.cleanup.verified ? '' : `; the replay did not prove every widget it made gone: see ${reportsShown}/conformance.md`;
  const line = (text: string): string => boundedLine(`${text} ${where}${left}`, 1000, `${reportsShown}/conformance.md`);
  // A setup problem or a signal: the line above it (stderr) says which; no verdict on the failure.
  if (runExit === 2 || runExit >= 128) return { code: runExit, line: line(`not replayed: ${path}: the run stopped (exit ${runExit}), see the line above`) };
  const again = tests.find((t) => t.title === file.test && (t.outcome === 'fail' || t.outcome === 'warn'));
  if (again) {
    const rule = ruleById(file.rule);
    return { code: 1, line: line(`reproduced: ${rule.id} (${rule.level}) ${again.outcome === 'warn' ? 'warned' : 'failed'} again: ${file.test}: ${whatDiffered(again)}`) };
  }
  const ran = tests.find((t) => t.title === file.run.test);
  if (!ran) return { code: 2, line: line(`not replayed: ${path} names the test ${JSON.stringify(file.run.test)}, which this suite (version ${report.suiteVersion}) does not have (the file was written by version ${file.suiteVersion})`) };
  if (ran.outcome === 'pass' || ran.outcome === 'fail' || ran.outcome === 'warn') {
    const own = ran.outcome === 'pass' ? 'it passed' : `the test it runs, ${JSON.stringify(ran.title)}, ${ran.outcome === 'warn' ? 'warned' : 'failed'} on its own rule: ${whatDiffered(ran)}`;
    return { code: 0, line: line(`did not reproduce: ${file.test}: ${own}; the run of ${file.recordedAt} saw it ${file.outcome === 'warn' ? 'warn' : 'fail'}`) };
  }
  const why = (ran.skipReason ?? ran.errors?.[0] ?? '').split('\n')[0];
  return { code: 3, line: line(`could not replay: ${ran.title} ended ${ran.outcome}${why ? `: ${why}` : ''}`) };
}
