/**
 * The run's options, before anything is sent: flags, variables and .env (config.ts), the
 * selection (--only, --test, --last-failed), the baseline, the CA, the token commands and the
 * destinations; `replay FILE` becomes the options of a run of that one test here (replay.ts).
 * Every mistake is one line on stderr and exit 2; --help and --list are answered here.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, envFilePath, helpText, resolveConfig, secretsOf, type SuiteConfig } from '../../config.ts';
import { Redactor } from '../../shared/redact.ts';
import { userDirectory } from '../../paths.ts';
import { readCaFile } from '../shared/ca-file.ts';
import { checkNpmKeptOptions } from '../shared/npm-options.ts';
import type { Selection } from '../shared/selection.ts';
import { withCommandTokens } from '../shared/token-commands.ts';
import { readBaseline } from './baseline.ts';
import { checkStepSummary, prepareReportDir } from './destinations.ts';
import { catalogueListing } from './list.ts';
import { replayOrRun, REPLAY_USAGE, type ReplayRequest } from './replay.ts';
import { selectionOf } from './run-selection.ts';
import { checkBaselineTarget } from './write-baseline.ts';

/** One line on stderr, then exit with `code`. */
export function fail(message: string, code: number): never {
  process.stderr.write(`widget-conformance: ${message}\n`);
  process.exit(code);
}

/** What the run was asked to do, read and checked before anything is sent. */
export interface Options {
  readonly config: SuiteConfig;
  /** Where the user ran the command from: relative paths are theirs, and printed paths are for them. */
  readonly directory: string;
  /** The .env file that was read, absolute; absent when there was none. */
  readonly envFile?: string;
  readonly only?: ReadonlySet<string>;
  /** The tests chosen within the rules: --test, `--only RULE.text`, --last-failed. */
  readonly selection?: Selection;
  readonly baseline?: ReadonlySet<string>;
  /** PEM text of --ca-file. */
  readonly ca?: string;
  /** --last-failed: what it selected and from which run, said when the tests start. */
  readonly lastFailedLine?: string;
  /** `widget-conformance replay FILE`: one test, the file's target, seed and settings as if given as flags; one line at the end (replay.ts). */
  readonly replay?: ReplayRequest;
}

/** The configuration, or one line and exit 2; undefined when --help or --list was answered. */
export function loadOptions(): Options | undefined {
  try {
    // First: when npm kept the suite's flags, the rest of the configuration is not what the user meant.
    checkNpmKeptOptions(process.env);
    const directory = userDirectory(process.env);
    const envFile = envFilePath(process.env);
    const { config, replay, replayHelp } = replayOrRun(process.argv.slice(2), directory, (argv) => resolveConfig(argv, process.env, { envFile }));
    if (config.help) {
      process.stdout.write(`${replayHelp ? REPLAY_USAGE : helpText()}\n`);
      return undefined;
    }
    if (config.list) {
      process.stdout.write(catalogueListing());
      return undefined;
    }
    const { selection, lastFailedLine } = selectionOf(config, directory);
    const only = selection?.rules;
    if (config.writeBaseline !== undefined) checkBaselineTarget(resolve(directory, config.writeBaseline), config.writeBaseline);
    const baseline = config.baseline === undefined ? undefined : readBaseline(resolve(directory, config.baseline));
    const ca = config.caFile === undefined ? undefined : readCaFile(resolve(directory, config.caFile), config.caFile);
    // resolveConfig has read it (or thrown) if it exists.
    const read = existsSync(envFile) ? { envFile } : {};
    return { config, directory, ...read, ...(only ? { only } : {}), ...(selection ? { selection } : {}), ...(baseline ? { baseline } : {}), ...(ca === undefined ? {} : { ca }), ...(lastFailedLine ? { lastFailedLine } : {}), ...(replay ? { replay } : {}) };
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message, 2);
    throw error;
  }
}

/** The configuration with the tokens of --token-command and --second-token-command, or one line and exit 2. */
export async function withTokensFromCommands(config: SuiteConfig): Promise<SuiteConfig> {
  try {
    // Before the probe, and before any output: a token command that fails costs nothing else.
    return await withCommandTokens(config);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message, 2);
    throw error;
  }
}

/** The value, or one line and exit 2 for a ConfigError. */
export function orExit<T>(step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message, 2);
    throw error;
  }
}

/** Checks that the report directory and the job summary can be written, or one line and exit 2. */
export function checkDestinations(reportDir: string, config: SuiteConfig): void {
  try {
    // Before the first request: a destination that cannot be written must not cost a run.
    prepareReportDir(reportDir);
    checkStepSummary(process.env.GITHUB_STEP_SUMMARY);
  } catch (error) {
    if (error instanceof ConfigError) fail(new Redactor(secretsOf(config)).text(error.message), 2);
    throw error;
  }
}
