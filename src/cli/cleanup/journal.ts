/**
 * What `cleanup` does with a target: delete the journalled ids of a run (cleanJournal), or, as
 * the explicit and less safe choice, sweep for any run marker (sweepMarkers). Both send every
 * DELETE through WidgetApi.remove, so through the one delete rule (client/ledger.ts).
 */
import { idOf, type WidgetApi } from '../../client/api.ts';
import { openAccounts } from '../../client/accounts.ts';
import { journalFacts, JournalFileError, parseJournalText, readJournal, readJournalFile, type JournalFacts } from '../../client/ledger.ts';
import { Ownership, type Claim } from '../../client/ownership.ts';
import { deleteAllHeld, deleteHeld, leftovers, proveAllGone } from '../../client/sweep.ts';
import { describeEnd, walkAll } from '../../client/walk.ts';
import { isSuiteError, TokenRejectedError } from '../../errors.ts';
import { consoleSafe } from '../../report/console.ts';
import { carriesAnyMarker, carriesMarker } from '../../harness/marker.ts';
import type { HttpClient as Client } from '../../http/client.ts';
import { describeLost, describeUnjournalled } from '../run/final-cleanup.ts';
import { rmSync } from 'node:fs';

/** Pages walked per account to check nothing journalled is still listed. */
const MAX_PAGES = 10_050;

function accountsOf(client: Client, token: string, secondToken: string | undefined, ownership: Ownership): WidgetApi[] {
  return openAccounts(client, ownership, [{ name: 'primary', token }, ...(secondToken ? [{ name: 'second', token: secondToken }] : [])]);
}

/** What cleanJournal checks the journal against. */
export interface CleanOptions {
  /** The target `cleanup` was given (ledger.ts targetOf of --base-url): a journal of another target is refused. */
  readonly target?: string;
  /** --trust-base-url: a journal that records no target (written by an older version) is cleaned against `target`. */
  readonly trustBaseUrl?: boolean;
}

/** The ids the journal says an account should still show: those it held before the run, and the run's not proven gone. */
function expectedOf(facts: JournalFacts, account: string): Set<string> {
  const gone = facts.gone.get(account) ?? new Set<string>();
  return new Set([...(facts.inventory.get(account) ?? []), ...[...(facts.created.get(account) ?? [])].filter((id) => !gone.has(id))]);
}

/**
 * Before anything is deleted or claimed for an account, a walk with its token: the target must
 * answer it with 2xx pages to the end (a wrong --base-url 404s every path, so a 404 proves
 * nothing there) and take the token (401/403: not that account's); and when the journal says the
 * account should still show widgets (its inventory, the run's not proven gone), the list must
 * show at least one of them, or the token may be another account's (swapped, when it shows the
 * other account's). Why not, or undefined.
 */
async function accountProblem(api: WidgetApi, facts: JournalFacts, other: string): Promise<{ problem?: string; swapped?: boolean }> {
  const listed = new Set<string>();
  const nothing = `nothing of the ${api.account} account is claimed or deleted`;
  try {
    const walk = await walkAll(api, MAX_PAGES);
    if (walk.end.kind !== 'complete') return { problem: `the list with the ${api.account} account's token ${describeEnd(walk)}: from this target a 404 proves nothing (a wrong --base-url?); ${nothing}` };
    for (const id of walk.widgets.keys()) listed.add(id);
  } catch (error) {
    if (error instanceof TokenRejectedError) return { problem: `the target refuses the ${api.account} account's token (401 or 403 to a list): the token is not that account's (swapped or wrong?); ${nothing}` };
    if (!isSuiteError(error)) throw error;
    return { problem: `a list with the ${api.account} account's token failed (${(error as Error).message}); ${nothing}` };
  }
  const own = expectedOf(facts, api.account);
  if (own.size === 0 || [...own].some((id) => listed.has(id))) return {};
  const theirs = [...expectedOf(facts, other)].filter((id) => !own.has(id) && listed.has(id));
  if (theirs.length > 0) return { swapped: true, problem: `the list with the ${api.account} account's token shows ${theirs.length} widget(s) the journal holds for the ${other} account and none of the ${api.account} account's: the tokens look swapped; ${nothing}` };
  return { problem: `the list with the ${api.account} account's token shows none of the ${own.size} widget(s) the journal says that account still holds (from before the run, or the run's not proven gone): the token may be another account's; ${nothing} (if they are truly gone, the journal can be deleted by hand)` };
}

/**
 * Deletes what one run's journal holds (the same rule as the run's own cleanup), saying what it
 * did; the journal is removed only when every journalled widget is proven gone (0). 2: the
 * journal cannot be read as a file or names another target (one line); 3: something is left or
 * unproven, each by id.
 */
export async function cleanJournal(client: Client, token: string, secondToken: string | undefined, file: string, sayRaw: (line: string) => void, options: CleanOptions = {}): Promise<number> {
  // Ids and reasons carry the server's text: the run's console escaping, on every line.
  const say = (line: string): void => sayRaw(consoleSafe(line));
  let text: string | undefined;
  try {
    text = readJournalFile(file);
  } catch (error) {
    if (!(error instanceof JournalFileError)) throw error;
    say(error.message);
    return 2;
  }
  if (text === undefined) {
    say(`${file}: no such file`);
    return 2;
  }
  const { entries, torn } = parseJournalText(text);
  const facts = journalFacts(entries);
  const marker = facts.markers[0];
  if (marker === undefined) {
    say(`${file}: not a run journal (no run marker): nothing deleted`);
    return 3;
  }
  if (options.target !== undefined) {
    const other = facts.targets.find((t) => t !== options.target);
    if (other !== undefined) {
      say(`${file}: the journal's run was against ${other}, not ${options.target} (--base-url): nothing deleted`);
      return 2;
    }
    if (facts.targets.length === 0 && !options.trustBaseUrl) {
      say(`${file}: the journal does not record its run's target (written by an older version of the suite): nothing deleted; if --base-url is that run's target, pass --trust-base-url`);
      return 2;
    }
  }
  for (const t of torn) say(`${file}:${t.line}: ${t.why}: not read (the journal is kept)`);
  const ownership = new Ownership((widget) => carriesMarker(widget, marker));
  ownership.load(facts);
  const accounts = accountsOf(client, token, secondToken, ownership);
  const blocked = new Map<string, string>();
  let swapped = false;
  for (const api of accounts) {
    const checked = await accountProblem(api, facts, api.account === 'primary' ? 'second' : 'primary');
    if (checked.problem !== undefined) blocked.set(api.account, checked.problem);
    swapped ||= checked.swapped === true;
  }
  // Swapped tokens implicate both: neither account's 404 means anything.
  if (swapped) for (const api of accounts) if (!blocked.has(api.account)) blocked.set(api.account, `the tokens look swapped (see above): nothing of the ${api.account} account is claimed or deleted`);
  const usable = accounts.filter((a) => !blocked.has(a.account));
  const goneBefore = new Set(ownership.allClaims().filter((c) => c.gone === true).map((c) => `${c.account}\n${c.id}`));
  const total = allClaims(ownership).length;
  await deleteAllHeld(usable);
  await proveAllGone(usable);
  await crossCheck(usable, ownership, goneBefore);
  // A retrieve's 404 is the server's word: a list that still shows a journalled id says otherwise.
  // And a widget listed with this run's marker at an id the journal does not hold for the account
  // may be one of the run's whose create was answered with another id: said, and never "gone".
  const unjournalled = new Map<string, string[]>();
  for (const api of usable) {
    try {
      const walk = await walkAll(api, MAX_PAGES);
      if (walk.end.kind !== 'complete') blocked.set(api.account, `the list walk after the deletes ${describeEnd(walk)}: what it did not reach is not proven gone`);
      for (const id of walk.widgets.keys()) if (ownership.get(api.account, id)?.gone) ownership.notGone(api.account, id, 'a retrieve answered 404 or 410, yet the list still shows it: not proven gone');
      const marked = [...walk.widgets].filter(([id, w]) => idOf(w) === id && ownership.isOurs(w) && ownership.get(api.account, id) === undefined).map(([id]) => id);
      if (marked.length > 0) unjournalled.set(api.account, marked);
    } catch (error) {
      if (!isSuiteError(error)) throw error;
      blocked.set(api.account, `the list walk after the deletes failed: ${(error as Error).message}`);
    }
  }
  const left = leftovers(ownership);
  const gone = total - left.length;
  say(`${file} (run ${marker}${facts.targets[0] ? `, target ${facts.targets[0]}` : ''}): ${gone} of ${total} journalled widget(s) proven gone (a retrieve answered 404 or 410 after its delete)`);
  for (const [account, why] of blocked) say(`  problem: ${why}`);
  const untokened = [...facts.created.keys()].filter((account) => !accounts.some((a) => a.account === account));
  for (const l of left) {
    const why = blocked.get(l.account) !== undefined ? 'not tried: see the problem above' : untokened.includes(l.account) ? 'not tried: no token for this account (pass --second-token)' : l.reason;
    say(`  not proven gone: ${l.account} account, id ${JSON.stringify(l.id)}: ${why}`);
  }
  const lost = ownership.lostCreates();
  if (lost.length > 0) say(`  ${describeLost(lost)}`);
  for (const [account, ids] of unjournalled) say(`  ${account} account: ${describeUnjournalled(ids)}`);
  if (left.length > 0 || lost.length > 0 || torn.length > 0 || blocked.size > 0 || unjournalled.size > 0) {
    say(`  journal kept: ${file} (removed only once every journalled widget is proven gone)`);
    return 3;
  }
  rmSync(file, { force: true });
  say('  every journalled widget of that run is proven gone: journal removed');
  return 0;
}

/** Every claim the ledger holds, gone or not. */
function allClaims(ownership: Ownership): Claim[] {
  return ownership.allClaims();
}

/**
 * With both tokens: an id proven gone in one account by this cleanup is retrieved with the
 * other account's token; a widget shown there with the run marker means the 404 was not
 * "gone" but "not this token's" (tokens swapped): nothing is claimed for it.
 */
async function crossCheck(usable: readonly WidgetApi[], ownership: Ownership, goneBefore: ReadonlySet<string>): Promise<void> {
  if (usable.length < 2) return;
  for (const claim of ownership.allClaims().filter((c) => c.gone === true)) {
    if (goneBefore.has(`${claim.account}\n${claim.id}`)) continue;
    const other = usable.find((a) => a.account !== claim.account);
    if (!other || ownership.get(other.account, claim.id)) continue;
    try {
      const res = await other.retrieve(claim.id);
      if (res.status >= 200 && res.status < 300 && idOf(res.json) === claim.id && ownership.isOurs(res.json)) {
        ownership.notGone(claim.account, claim.id, `a retrieve with the ${claim.account} account's token answered 404 or 410, yet the ${other.account} account's token shows it with the run marker (tokens swapped?): not proven gone`);
      }
    } catch (error) {
      if (!isSuiteError(error)) throw error;
    }
  }
}

/**
 * --sweep-markers: every widget a walk lists with a run marker of this suite, and never without
 * one in the same walk, is retrieved and deleted when the retrieve shows a marker too; never an
 * id any journal found holds in its inventory. 0 when the walks were complete and nothing was refused.
 */
export async function sweepMarkers(client: Client, token: string, secondToken: string | undefined, maxPages: number, journals: readonly string[], sayRaw: (line: string) => void): Promise<number> {
  const say = (line: string): void => sayRaw(consoleSafe(line));
  const ownership = new Ownership(carriesAnyMarker);
  for (const file of journals) ownership.load(inventoryOnly(journalFacts(readJournal(file))));
  ownership.sweepMode();
  let code = 0;
  for (const api of accountsOf(client, token, secondToken, ownership)) {
    const candidates = new Set<string>();
    let deleted = 0;
    try {
      const walk = await walkAll(api, maxPages);
      if (walk.end.kind !== 'complete') {
        say(`  problem: ${api.account} account: the list walk did not reach the end; marked widgets beyond it were not seen`);
        code = 3;
      }
      for (const [id, widget] of walk.widgets) if (!walk.duplicates.has(id) && carriesAnyMarker(widget) && idOf(widget) === id) candidates.add(id);
      for (const id of candidates) ownership.sweepCandidate(api.account, id);
      for (const id of candidates) if ((await deleteHeld(api, id)) === 'gone') deleted += 1;
    } catch (error) {
      if (!isSuiteError(error)) throw error;
      say(`  problem: ${api.account} account: ${(error as Error).message}`);
      code = 3;
    }
    say(`${api.account} account: deleted ${deleted} widget(s) carrying a run marker, each proven gone by a retrieve after (--sweep-markers)`);
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
