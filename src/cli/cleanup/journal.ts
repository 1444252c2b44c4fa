/**
 * What `cleanup` does with a target: delete the journalled ids of a run (cleanJournal), or, as
 * the explicit and less safe choice, sweep for any run marker (sweepMarkers). Both send every
 * DELETE through WidgetApi.remove, so through the one delete rule (client/ledger.ts).
 */
import { idOf, WidgetApi } from '../../client/api.ts';
import { journalFacts, readJournal, type JournalFacts } from '../../client/ledger.ts';
import { Ownership } from '../../client/ownership.ts';
import { deleteAllHeld, deleteHeld, leftovers } from '../../client/sweep.ts';
import { walkAll } from '../../client/walk.ts';
import { isSuiteError } from '../../errors.ts';
import { carriesAnyMarker, carriesMarker } from '../../harness/marker.ts';
import type { HttpClient as Client } from '../../http/client.ts';
import { describeLost } from '../run/final-cleanup.ts';
import { rmSync } from 'node:fs';

/** Pages walked per account to check nothing journalled is still listed. */
const MAX_PAGES = 10_050;

function accountsOf(client: Client, token: string, secondToken: string | undefined, ownership: Ownership): WidgetApi[] {
  const peers = new Map<string, WidgetApi>();
  return [new WidgetApi(client, token, 'primary', ownership, {}, peers), ...(secondToken ? [new WidgetApi(client, secondToken, 'second', ownership, {}, peers)] : [])];
}

/** Deletes what one run's journal holds (the same rule as the run's own cleanup), saying what it did; 0 when nothing is left. */
export async function cleanJournal(client: Client, token: string, secondToken: string | undefined, file: string, say: (line: string) => void): Promise<number> {
  const facts = journalFacts(readJournal(file));
  const marker = facts.markers[0];
  if (marker === undefined) {
    say(`${file}: not a run journal (no run marker): nothing deleted`);
    return 3;
  }
  const ownership = new Ownership((widget) => carriesMarker(widget, marker));
  // Every id the run journalled, deleted or not: a delete answered 2xx may not have deleted (the retrieve decides).
  ownership.load({ ...facts, live: facts.created });
  const accounts = accountsOf(client, token, secondToken, ownership);
  // Ids of an account this cleanup has no token for stay journalled: the journal is kept for them.
  const untokened = [...new Set([...facts.created.keys()].filter((account) => !accounts.some((a) => a.account === account)))];
  const before = ownership.outstanding().length;
  await deleteAllHeld(accounts);
  const left = leftovers(ownership).filter((l) => accounts.some((a) => a.account === l.account));
  say(`${file} (run ${marker}): deleted ${before - ownership.outstanding().length} of ${before} journalled widget(s) not yet deleted`);
  for (const l of left) say(`  not deleted: ${l.account} account, id ${JSON.stringify(l.id)}: ${l.reason}`);
  const lost = ownership.lostCreates();
  if (lost.length > 0) say(`  ${describeLost(lost)}`);
  // A retrieve's 404 is the server's word: a list that still shows a journalled id says otherwise.
  let unproven = 0;
  for (const api of accounts) {
    try {
      const walk = await walkAll(api, MAX_PAGES);
      if (walk.end.kind !== 'complete') unproven += 1;
      for (const id of walk.widgets.keys()) {
        if (facts.created.get(api.account)?.has(id)) {
          say(`  not proven gone: ${api.account} account, id ${JSON.stringify(id)}: still listed`);
          unproven += 1;
        }
      }
    } catch (error) {
      if (!isSuiteError(error)) throw error;
      say(`  problem: ${api.account} account: ${(error as Error).message}`);
      unproven += 1;
    }
  }
  for (const account of untokened) say(`  not tried: the ${account} account's widgets (no token for it: pass --second-token)`);
  if (left.length > 0 || lost.length > 0 || unproven > 0 || untokened.length > 0) return 3;
  rmSync(file, { force: true });
  process.stdout.write('  nothing of that run is left: journal removed\n');
  return 0;
}

/**
 * --sweep-markers: every widget a walk lists with a run marker of this suite, and never without
 * one in the same walk, is retrieved and deleted when the retrieve shows a marker too; never an
 * id any journal found holds in its inventory. 0 when the walks were complete and nothing was refused.
 */
export async function sweepMarkers(client: Client, token: string, secondToken: string | undefined, maxPages: number, journals: readonly string[], say: (line: string) => void): Promise<number> {
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
        say(`  problem: ${api.account} account: the list walk did not reach the end; marked widgets beyond it were not seen`);
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
      say(`  problem: ${api.account} account: ${(error as Error).message}`);
      code = 3;
    }
    say(`${api.account} account: deleted ${deleted} widget(s) carrying a run marker (--sweep-markers)`);
  }
  for (const l of leftovers(ownership)) {
    say(`  not deleted: ${l.account} account, id ${JSON.stringify(l.id)}: ${l.reason}`);
    code = 3;
  }
  return code;
}

/** A journal's inventory alone: what --sweep-markers must never touch. */
function inventoryOnly(facts: JournalFacts): JournalFacts {
  return { ...facts, live: new Map(), created: new Map(), lost: [] };
}
