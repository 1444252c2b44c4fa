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
import { WidgetApi } from '../client/api.ts';
import { ConfigError, resolveConfig, secretsOf } from '../config.ts';
import { userDirectory } from '../paths.ts';
import { resolve } from 'node:path';
import { readCaFile } from './ca-file.ts';
import { withCommandTokens } from './token-commands.ts';
import { HttpClient } from '../http/client.ts';
import { carriesAnyMarker, carriesMarker } from '../harness/marker.ts';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { idOf } from '../client/api.ts';
import { JOURNAL_PREFIX, journalFacts, readJournal, type JournalFacts } from '../client/ledger.ts';
import { deleteAllHeld, deleteHeld } from '../client/sweep.ts';
import { walkAll } from '../client/walk.ts';
import { describeLost } from './final-cleanup.ts';
import type { HttpClient as Client } from '../http/client.ts';
import { Ownership } from '../client/ownership.ts';
import { checkNpmKeptOptions } from './npm-options.ts';
import { redactProcessOutput } from './redact-output.ts';
import { Redactor } from '../http/redact.ts';
import { isSuiteError } from '../errors.ts';
import { leftovers } from '../client/sweep.ts';
import { walkBudget } from '../client/walk.ts';

/** This command's own options, taken out before the shared ones are parsed. */
function ownOptions(argv: readonly string[]): { rest: string[]; journals: string[]; sweepMarkers: boolean } {
  const rest: string[] = [];
  const journals: string[] = [];
  let sweepMarkers = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--sweep-markers') sweepMarkers = true;
    else if (arg === '--journal') {
      const value = argv[(i += 1)];
      if (value === undefined || value.startsWith('--')) throw new ConfigError('--journal needs a file (a widget-journal-*.jsonl a run left in its report directory)');
      journals.push(value);
    } else if (arg.startsWith('--journal=')) journals.push(arg.slice('--journal='.length));
    else rest.push(arg);
  }
  return { rest, journals, sweepMarkers };
}

/** The journals to clean: the ones named, or every one in the report directory. */
function findJournals(named: readonly string[], reportDir: string): string[] {
  if (named.length > 0) {
    for (const file of named) if (!existsSync(file)) throw new ConfigError(`--journal ${file}: no such file`);
    return [...named];
  }
  if (!existsSync(reportDir)) return [];
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
      if (journals.length === 0 && !own.sweepMarkers) {
        throw new ConfigError(`no run journal (${JOURNAL_PREFIX}*.jsonl) in ${resolve(here, config.reportDir)}: nothing is deleted without one; pass --journal FILE, --report-dir DIR, or --sweep-markers (less safe: see docs/data-safety.md)`);
      }
    }
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`widget-cleanup: ${error.message}\n`);
    return 2;
  }
  if (config.help) {
    process.stdout.write(
      'Usage: widget-conformance cleanup --base-url URL --token T [--second-token T2] [--report-dir DIR | --journal FILE] [--sweep-markers]   (or widget-cleanup …; in a checkout of the suite: npm run cleanup -- …)\n' +
        'Deletes the widgets a run journalled (widget-journal-*.jsonl in the report directory) that a retrieve still shows as that run\'s, and nothing else.\n' +
        '--sweep-markers: also walk each account for any wcs- run marker of this suite (less safe than a journal: see docs/data-safety.md).\n',
    );
    return 0;
  }
  const secrets = secretsOf(config);
  redactProcessOutput(new Redactor(secrets));
  const client = new HttpClient({ ...config, ...(ca === undefined ? {} : { ca }), baseUrl: config.baseUrl!, secrets, maxRateLimitWaitTotalMs: config.maxRateLimitWaitMs, deadline: Date.now() + config.maxRunTimeMs });
  let code = 0;
  try {
    for (const file of journals) {
      if ((await cleanJournal(client, config.token!, config.secondToken, file)) !== 0) code = 3;
    }
    if (own.sweepMarkers && (await sweepMarkers(client, config.token!, config.secondToken, walkBudget(config.maxWidgets), journals)) !== 0) code = 3;
  } finally {
    await client.close();
  }
  return code;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`widget-cleanup: internal error: ${(error as Error)?.message ?? String(error)}\n`);
    process.exit(3);
  },
);

function accountsOf(client: Client, token: string, secondToken: string | undefined, ownership: Ownership): WidgetApi[] {
  const peers = new Map<string, WidgetApi>();
  return [new WidgetApi(client, token, 'primary', ownership, {}, peers), ...(secondToken ? [new WidgetApi(client, secondToken, 'second', ownership, {}, peers)] : [])];
}

/** Deletes what one run's journal holds (the same rule as the run's own cleanup); 0 when nothing is left. */
async function cleanJournal(client: Client, token: string, secondToken: string | undefined, file: string): Promise<number> {
  const facts = journalFacts(readJournal(file));
  const marker = facts.markers[0];
  if (marker === undefined) {
    process.stdout.write(`${file}: not a run journal (no run marker): nothing deleted\n`);
    return 3;
  }
  const ownership = new Ownership((widget) => carriesMarker(widget, marker));
  ownership.load(facts);
  const accounts = accountsOf(client, token, secondToken, ownership);
  const before = ownership.outstanding().length;
  await deleteAllHeld(accounts);
  const left = leftovers(ownership).filter((l) => accounts.some((a) => a.account === l.account));
  process.stdout.write(`${file} (run ${marker}): deleted ${before - ownership.outstanding().length} of ${before} journalled widget(s) not yet deleted\n`);
  for (const l of left) process.stdout.write(`  not deleted: ${l.account} account, id ${JSON.stringify(l.id)}: ${l.reason}\n`);
  const lost = ownership.lostCreates();
  if (lost.length > 0) process.stdout.write(`  ${describeLost(lost)}\n`);
  if (left.length > 0 || lost.length > 0) return 3;
  rmSync(file, { force: true });
  process.stdout.write('  nothing of that run is left: journal removed\n');
  return 0;
}

/**
 * --sweep-markers: every widget a walk lists with a run marker of this suite, and never without
 * one in the same walk, is retrieved and deleted when the retrieve shows a marker too; never an
 * id any journal found holds in its inventory. 0 when the walks were complete and nothing was refused.
 */
async function sweepMarkers(client: Client, token: string, secondToken: string | undefined, maxPages: number, journals: readonly string[]): Promise<number> {
  const ownership = new Ownership(carriesAnyMarker);
  for (const file of journals) ownership.load(inventoryOnly(journalFacts(readJournal(file))));
  ownership.sweepCandidates = new Map();
  let code = 0;
  for (const api of accountsOf(client, token, secondToken, ownership)) {
    const candidates = new Set<string>();
    ownership.sweepCandidates.set(api.account, candidates);
    let deleted = 0;
    try {
      const walk = await walkAll(api, maxPages);
      if (walk.end.kind !== 'complete') {
        process.stdout.write(`  problem: ${api.account} account: the list walk did not reach the end; marked widgets beyond it were not seen\n`);
        code = 3;
      }
      for (const [id, widget] of walk.widgets) if (!walk.duplicates.has(id) && carriesAnyMarker(widget) && idOf(widget) === id) candidates.add(id);
      for (const id of candidates) {
        ownership.claim(api.account, id);
        await deleteHeld(api, id);
        if (ownership.get(api.account, id)?.deleted) deleted += 1;
      }
    } catch (error) {
      if (!isSuiteError(error)) throw error;
      process.stdout.write(`  problem: ${api.account} account: ${(error as Error).message}\n`);
      code = 3;
    }
    process.stdout.write(`${api.account} account: deleted ${deleted} widget(s) carrying a run marker (--sweep-markers)\n`);
  }
  for (const l of leftovers(ownership)) {
    process.stdout.write(`  not deleted: ${l.account} account, id ${JSON.stringify(l.id)}: ${l.reason}\n`);
    code = 3;
  }
  return code;
}

/** A journal's inventory alone: what --sweep-markers must never touch. */
function inventoryOnly(facts: JournalFacts): JournalFacts {
  return { ...facts, live: new Map(), created: new Map(), lost: [] };
}
