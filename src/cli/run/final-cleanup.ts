/**
 * The run's last word on data: delete every id the journal and the workers still hold, sweep
 * each account for the run's marker, and say truthfully what is left. Every delete obeys the
 * one rule (client/ledger.ts deleteVerdict). "Nothing left behind" is said only when the ledger
 * proves every journalled id gone (a retrieve with its account's token answered 404 or 410 after
 * its delete, and no list showed it since), no create's answer was lost, and a complete walk of
 * each account shows no widget with the marker. A list that shows no marker is never proof: the
 * server controls it. Every sentence about the server is built from one recorded fact that says
 * exactly that (a create answer that repeated an id; a journalled id listed yet answered 404).
 */
import type { WidgetApi } from '../../client/api.ts';
import { LINE_MAX } from '../../report/console-report.ts';
import { localSuiteCommand } from '../../report/rerun.ts';
import type { JournalEntry, LostCreate, TornLine } from '../../client/ledger.ts';
import type { Claim, Leftover } from '../../client/ownership.ts';
import { deleteAllHeld, leftovers, proveAllGone, sweep, type SweepResult } from '../../client/sweep.ts';

/** Sweeps after the first, when one deleted something (to verify) or the run was interrupted (a late create may land). */
const MAX_SWEEPS = 3;

export interface CleanupOutcome {
  /** Widgets deleted by the runner (held ids and marked widgets found by the sweeps). */
  readonly deleted: number;
  /** Ids the run could not delete or could not prove its own, with the reason. */
  readonly leftovers: readonly Leftover[];
  /** Widgets of failing tests left in place on purpose (--keep-failing), still journalled for `cleanup`. */
  readonly kept?: readonly Leftover[];
  /** What could not be verified: walks that did not reach the end of a list, creates whose answer was lost, marked ids no create answered. */
  readonly problems: readonly string[];
  /** True only when every journalled id is proven gone, no create was lost, and every account was walked to the end without a marker. */
  readonly verified: boolean;
}

/**
 * Deletes what the journal (every process's creates, inventory and contradictions) and the
 * workers (`held`, with their reasons) left, then sweeps; never throws a SuiteError.
 */
export async function finalCleanup(
  accounts: readonly WidgetApi[],
  held: readonly Claim[],
  options: { maxPages: number; minSweeps: number; journal?: readonly JournalEntry[]; torn?: readonly TornLine[]; onStep?: (step: string) => void },
): Promise<CleanupOutcome> {
  const step = options.onStep ?? ((): void => undefined);
  const byName = new Map(accounts.map((a) => [a.account, a]));
  const ownership = accounts[0]!.ownership;
  if (options.journal) ownership.loadEntries(options.journal);
  for (const c of held) if (byName.has(c.account)) ownership.held(c);
  const before = ownership.outstanding().length;
  step(`deleting the ${before} widget(s) the run still holds`);
  await deleteAllHeld(accounts);
  let deleted = before - ownership.outstanding().length;
  // What the tests deleted themselves is only a 2xx: each is retrieved until it is proven gone.
  step('proving each deleted widget gone (a retrieve answers 404 or 410)');
  await proveAllGone(accounts);
  let sweeps: SweepResult[] = [];
  for (let pass = 1; pass <= MAX_SWEEPS; pass += 1) {
    step(`walking every account for the run's marker (sweep ${pass})`);
    sweeps = [];
    for (const api of accounts) sweeps.push(await sweep(api, options.maxPages));
    deleted += sweeps.reduce((n, s) => n + s.deleted.length, 0);
    const foundNothing = sweeps.every((s) => s.found === 0);
    if (pass >= options.minSweeps && foundNothing) break;
  }
  const all = leftovers(ownership);
  const keptIds = new Set(ownership.outstanding().filter((c) => c.kept !== undefined).map((c) => `${c.account}\u0000${c.id}`));
  const left = all.filter((l) => !keptIds.has(`${l.account}\u0000${l.id}`));
  const kept = all.filter((l) => keptIds.has(`${l.account}\u0000${l.id}`));
  const problems = sweeps.flatMap((s) => s.problems.map((p) => `${s.account} account: ${p}`));
  for (const s of sweeps.filter((x) => x.found > 0)) {
    problems.push(`${s.account} account: the last walk still showed ${s.found} widget(s) with the run marker after ${MAX_SWEEPS} sweeps`);
  }
  for (const s of sweeps.filter((x) => x.unjournalled.length > 0)) problems.push(`${s.account} account: ${describeUnjournalled(s.unjournalled)}`);
  for (const s of sweeps.filter((x) => x.unretrievable.length > 0)) problems.push(`${s.account} account: ${describeUnretrievable(s.account, s.unretrievable)}`);
  const lost = ownership.lostCreates();
  if (lost.length > 0) problems.push(describeLost(lost));
  // Recorded: a create answered the id with the run's widget (marked), and the latest sighting
  // there with the owner's token (a retrieve, or a list entry) showed a widget without the
  // marker. Either the server changes the widget (CRUD-4) or the widget the create made stands
  // at an id the run never learned (the answer named another widget's id): which, no client can
  // tell, so it is said.
  const displaced = ownership.allClaims().filter((c) => c.sighting === 'unmarked' && c.gone !== true && c.answered?.name !== undefined && ownership.isOurs({ name: c.answered.name }));
  if (displaced.length > 0) problems.push(describeDisplaced(displaced));
  // A line of the journal that could not be read may hold an id of the run: nothing can be called verified.
  for (const t of options.torn ?? []) problems.push(`line ${t.line} of the run's journal could not be read (${t.why}): an id of the run may be in it`);
  // Kept widgets are left behind on purpose: the run then never says "nothing left behind".
  const verified = (options.torn ?? []).length === 0 && left.length === 0 && kept.length === 0 && displaced.length === 0 && ownership.allClaims().filter((c) => c.gone !== true).length === 0 && lost.length === 0 && sweeps.every((s) => s.complete && s.found === 0 && s.unjournalled.length === 0 && s.unretrievable.length === 0 && s.problems.length === 0);
  return { deleted, leftovers: left, problems, verified, ...(kept.length > 0 ? { kept } : {}) };
}

/** Names of lost creates shown, at most this many (every id is always shown: ids are what the user needs). */
const IDS_SHOWN = 20;

const idList = (ids: readonly string[]): string => ids.map((id) => JSON.stringify(id)).join(', ');

/** The line for ids listed with the marker that no create of the run answered (none is in the journal). */
export function describeUnjournalled(ids: readonly string[]): string {
  return `${ids.length} widget(s) listed with the run marker at ids no create of this run was answered with (the journal holds none of them: a create whose answer was lost, or a list that shows the marker on someone else's widget): not deleted, ids ${idList(ids)}`;
}

/** The line for journalled ids listed with the marker whose retrieve with the account's token answered 404 or 410. */
export function describeUnretrievable(account: string, items: ReadonlyArray<{ readonly id: string; readonly status: number }>): string {
  const statuses = [...new Set(items.map((i) => i.status))].sort().join(' or ');
  return `${items.length} journalled widget(s) could not be retrieved with the ${account} account's token (${statuses}) though listed with the run marker (a proxy or route that answers for the server?): not deleted, not proven gone, ids ${idList(items.map((i) => i.id))}`;
}

/** The line for creates whose answer never said which widget they made. */
export function describeLost(all: readonly LostCreate[]): string {
  const reused = all.filter((l) => l.reused === true);
  const lost = all.filter((l) => l.reused !== true);
  const parts: string[] = [];
  if (lost.length > 0) parts.push(describeLostOnly(lost));
  // Built from recorded create answers alone (journal 'created' entries, Ownership.claim with a key): never from a retrieve or a list.
  if (reused.length > 0) parts.push(`${reused.length} create(s) were answered with an id an earlier create of this run had, or a widget had before the run: the widget each made may stand at an id the run never learned`);
  return parts.join('; ');
}

/** The line for creates answered with the run's widget at an id where the server later showed a widget without the marker. */
export function describeDisplaced(claims: ReadonlyArray<{ readonly account: string; readonly id: string }>): string {
  return `${claims.length} create(s) were answered with the run's widget at an id where the server later showed the same account a widget without the run marker (ids ${idList(claims.map((c) => c.id).slice(0, IDS_SHOWN))}): not deleted, and the widget each create made may stand at an id the run never learned`;
}

function describeLostOnly(lost: readonly LostCreate[]): string {
  const byAccount = new Map<string, number>();
  for (const l of lost) byAccount.set(l.account, (byAccount.get(l.account) ?? 0) + 1);
  const where = [...byAccount].map(([account, n]) => `${n} in the ${account} account`).join(', ');
  const tags = lost.flatMap((l) => (l.tag === undefined ? [] : [l.tag])).slice(0, IDS_SHOWN);
  return `${lost.length} create(s) lost their answer (${where}): their widgets, if any were made, cannot be found safely${tags.length ? `; they were named ${tags.map((t) => JSON.stringify(t)).join(', ')}` : ''}`;
}

/** The line naming the widgets --keep-failing left in place, and how to delete them later (`command`: the suite command, report/rerun.ts). */
export function describeKept(kept: readonly Leftover[], journal?: string, command = localSuiteCommand()): string {
  const where = journal === undefined ? 'the run\'s journal in the report directory' : `the run's journal (${journal})`;
  return `KEPT (--keep-failing): ${kept.length} widget(s) of failing tests left in place: ${kept.map((k) => `${k.account} account ${JSON.stringify(k.id)}`).join(', ')}; \`${command} cleanup --base-url …\` (tokens in WIDGET_TOKEN / WIDGET_SECOND_TOKEN) deletes them, with the same proof, from ${where}`;
}

/** Ids of one account left for one reason, at most this many named on the console's line for them (the reports name every one). */
export const GROUP_IDS_SHOWN = 10;
/** A reason shared by more ids than this is said once, on one line for all of them. */
const GROUP_FROM = 5;

/**
 * The console's lines for the ids left: one a line, or, where many share one reason in one account
 * (a server that answers every retrieve of a deleted id alike), a line saying the reason once and
 * the first GROUP_IDS_SHOWN ids under it, packed into lines within the console's LINE_MAX, with how
 * many more: conformance.md, conformance.json and the journal hold every id, and a console of
 * hundreds of alike lines hides the rest of the run.
 */
export function leftoverLines(left: readonly Leftover[]): string[] {
  const groups = new Map<string, Leftover[]>();
  for (const l of left) {
    const key = `${l.account}\u0000${l.reason}`;
    groups.set(key, [...(groups.get(key) ?? []), l]);
  }
  return [...groups.values()].flatMap((group) => {
    const first = group[0]!;
    if (group.length <= GROUP_FROM) return group.map((l) => `    ${l.account} account, id ${JSON.stringify(l.id)}: ${l.reason}`);
    const shown = group.slice(0, GROUP_IDS_SHOWN).map((l) => JSON.stringify(l.id));
    const more = group.length - shown.length;
    const words = more > 0 ? [...shown, `and ${more} more (every id in conformance.md, conformance.json and the run's journal)`] : shown;
    return [`    ${group.length} ids of the ${first.account} account: ${first.reason}:`, ...packed(words, '      ', LINE_MAX)];
  });
}

/** `words` joined with ", " into lines of at most `max` characters (a longer word on a line of its own), each starting with `indent`. */
function packed(words: readonly string[], indent: string, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  words.forEach((word, i) => {
    const piece = i < words.length - 1 ? `${word},` : word;
    if (line !== '' && line.length + 1 + piece.length > max) {
      lines.push(line);
      line = '';
    }
    line = line === '' ? `${indent}${piece}` : `${line} ${piece}`;
  });
  if (line !== '') lines.push(line);
  return lines;
}

/** The console's cleanup line; `journal` names the run's journal file when it is kept for `cleanup`; `command` is the suite command the `cleanup` line starts with. */
export function describeCleanup(outcome: CleanupOutcome, journal?: string, command = localSuiteCommand()): string {
  const kept = outcome.kept ?? [];
  if (kept.length > 0 && outcome.leftovers.length === 0 && outcome.problems.length === 0) {
    return `${describeKept(kept, journal, command)}${outcome.deleted ? ` (cleanup deleted ${outcome.deleted} other widget(s) at the end)` : ''}`;
  }
  if (outcome.verified) return `nothing left behind${outcome.deleted ? ` (cleanup deleted ${outcome.deleted} widget(s) at the end)` : ''}: every journalled widget proven gone (a retrieve answered 404 or 410 after its delete), and every account walked to the end shows no run marker`;
  const lines = [`NOT VERIFIED${outcome.deleted ? ` (cleanup deleted ${outcome.deleted} widget(s) at the end)` : ''}:`];
  for (const p of outcome.problems) lines.push(`  ${p}`);
  if (outcome.leftovers.length) lines.push(`  ${outcome.leftovers.length} id(s) of the run not proven gone (not deleted, or deleted with no retrieve since answering 404 or 410), each with the reason:`);
  lines.push(...leftoverLines(outcome.leftovers));
  if (kept.length > 0) lines.push(`  ${describeKept(kept, journal, command)}`);
  const where = journal === undefined ? 'in the report directory' : `(${journal})`;
  if (outcome.problems.length || outcome.leftovers.length) lines.push(`  later, \`${command} cleanup --base-url …\` (tokens in WIDGET_TOKEN / WIDGET_SECOND_TOKEN) deletes, with the same proof, what the run's journal ${where} holds, and nothing else`);
  return lines.join('\n');
}
