/**
 * `widget-conformance cleanup --base-url … --token … [--second-token …] [--journal FILE]
 * [--sweep-markers]` (`widget-cleanup`, `npm run cleanup -- …` in the repository): after a run
 * that could not clean up, reads the run's journal (every `widget-journal-*.jsonl` in the report
 * directory, or --journal FILE) and deletes its journalled ids under the one delete rule
 * (client/ledger.ts deleteVerdict): never an inventory id, never a contradicted one, only after
 * a retrieve shows that run's marker. --sweep-markers, without a journal, is the separate and
 * less safe choice of walking each account for any run marker of this suite (see
 * docs/data-safety.md): each id is still retrieved before its delete, and an id listed without
 * the marker in the same walk is never deleted.
 */
import { ConfigError, resolveConfig, secretsOf } from '../../config.ts';
import { userDirectory } from '../../paths.ts';
import { resolve } from 'node:path';
import { readCaFile } from '../shared/ca-file.ts';
import { withCommandTokens } from '../shared/token-commands.ts';
import { clientOptions } from '../../http/client-options.ts';
import { HttpClient } from '../../http/client.ts';
import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { JOURNAL_PREFIX, JournalFileError, readJournalFile, targetOf } from '../../client/ledger.ts';
import { consoleSafe } from '../../report/console.ts';
import { cleanJournal, sweepMarkers } from './journal.ts';
import { checkNpmKeptOptions } from '../shared/npm-options.ts';
import { redactProcessOutput } from '../shared/redact-output.ts';
import { Redactor } from '../../shared/redact.ts';
import { walkBudget } from '../../client/walk.ts';

/** This command's own options, taken out before the shared ones are parsed. */
function ownOptions(argv: readonly string[]): { rest: string[]; journals: string[]; sweepMarkers: boolean; trustBaseUrl: boolean } {
  const rest: string[] = [];
  const journals: string[] = [];
  let sweepMarkers = false;
  let trustBaseUrl = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--sweep-markers') sweepMarkers = true;
    else if (arg === '--trust-base-url') trustBaseUrl = true;
    else if (arg === '--journal') {
      const value = argv[(i += 1)];
      if (value === undefined || value.startsWith('--')) throw new ConfigError('--journal needs a file (a widget-journal-*.jsonl a run left in its report directory)');
      journals.push(value);
    } else if (arg.startsWith('--journal=')) journals.push(arg.slice('--journal='.length));
    else rest.push(arg);
  }
  return { rest, journals, sweepMarkers, trustBaseUrl };
}

/** True for a path that is a symbolic link (even a dangling one): refused as a journal, never followed. */
function isLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The journals to clean: the ones named, or every one in the report directory. */
function findJournals(named: readonly string[], reportDir: string): string[] {
  if (named.length > 0) {
    for (const file of named) if (!existsSync(file) && !isLink(file)) throw new ConfigError(`--journal ${file}: no such file`);
    return [...named];
  }
  if (!existsSync(reportDir)) return [];
  if (!statSync(reportDir).isDirectory()) throw new ConfigError(`--report-dir ${reportDir} is not a directory`);
  return readdirSync(reportDir).filter((f) => f.startsWith(JOURNAL_PREFIX) && f.endsWith('.jsonl')).sort().map((f) => join(reportDir, f));
}

async function main(): Promise<number> {
  let config;
  let ca: string | undefined;
  let own;
  let journals: string[] = [];
  try {
    checkNpmKeptOptions(process.env);
    own = ownOptions(process.argv.slice(2));
    config = resolveConfig(own.rest, process.env);
    if (!config.help) config = await withCommandTokens(config);
    if (!config.help && (!config.baseUrl || !config.token)) throw new ConfigError('cleanup needs --base-url and --token (the embedded reference server keeps nothing between runs)');
    if (config.caFile !== undefined) ca = readCaFile(resolve(userDirectory(process.env), config.caFile), config.caFile);
    if (!config.help) {
      const here = userDirectory(process.env);
      journals = findJournals(own.journals.map((f) => resolve(here, f)), resolve(here, config.reportDir));
      // A run that cleaned up after itself removes its journal: finding none is not an error.
      // A path that is not a regular file (a FIFO would block an open) is refused before anything is sent.
      for (const file of journals) {
        try {
          readJournalFile(file);
        } catch (error) {
          if (error instanceof JournalFileError) throw new ConfigError(consoleSafe(error.message));
          throw error;
        }
      }
      if (journals.length === 0 && !own.sweepMarkers) {
        process.stdout.write(`no run journal (${JOURNAL_PREFIX}*.jsonl) in ${resolve(here, config.reportDir)}: nothing to delete (a run that left nothing behind removes its journal); for a run reported elsewhere pass --report-dir DIR or --journal FILE; without any journal, --sweep-markers (less safe: see docs/data-safety.md)\n`);
        return 0;
      }
    }
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`widget-cleanup: ${error.message}\n`);
    return 2;
  }
  if (config.help) {
    process.stdout.write(
      'Usage: widget-conformance cleanup --base-url URL --token T [--second-token T2] [--report-dir DIR | --journal FILE] [--sweep-markers] [--trust-base-url]   (or widget-cleanup …; in a checkout of the suite: npm run cleanup -- …)\n' +
        'Deletes the widgets a run journalled (widget-journal-*.jsonl in the report directory) that a retrieve still shows as that run\'s, and nothing else;\n' +
        'removes the journal only once every journalled widget is proven gone (404 or 410 to a retrieve with its account\'s token, from a target that answers that token\'s list).\n' +
        'A journal of another target than --base-url is refused (exit 2). --trust-base-url: clean a journal that records no target (an older version\'s) against --base-url.\n' +
        '--sweep-markers: also walk each account for any wcs- run marker of this suite (less safe than a journal: see docs/data-safety.md).\n',
    );
    return 0;
  }
  const secrets = secretsOf(config);
  redactProcessOutput(new Redactor(secrets));
  const options = clientOptions(config, { baseUrl: config.baseUrl!, secrets, deadline: Date.now() + config.maxRunTimeMs, ca });
  // A client per journal (and one for --sweep-markers): each ledger has its own door, and a
  // client hands its one writer to one door.
  const withClient = async <T>(use: (client: HttpClient) => Promise<T>): Promise<T> => {
    const client = new HttpClient(options);
    try {
      return await use(client);
    } finally {
      await client.close();
    }
  };
  let code = 0;
  const say = (line: string): void => void process.stdout.write(`${line}\n`);
  const target = targetOf(config.baseUrl!);
  for (const file of journals) {
    const done = await withClient((client) => cleanJournal(client, config.token!, config.secondToken, file, say, { target, trustBaseUrl: own.trustBaseUrl }));
    // A refusal (another target, not a file) is bad input: 2 wins over "something is left" (3).
    if (done === 2) code = 2;
    else if (done !== 0 && code === 0) code = 3;
  }
  if (own.sweepMarkers && (await withClient((client) => sweepMarkers(client, config.token!, config.secondToken, walkBudget(config.maxWidgets), journals, say))) !== 0 && code === 0) code = 3;
  return code;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`widget-cleanup: internal error: ${(error as Error)?.message ?? String(error)}\n`);
    process.exit(3);
  },
);
