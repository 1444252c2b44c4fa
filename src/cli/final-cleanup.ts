/**
 * The run's last word on data: delete every id the workers still hold, sweep each account for
 * the run's marker, and say truthfully what is left. "Nothing left behind" is said only when
 * every held id was deleted (or found gone) and a complete walk of each account, after the
 * deletes, shows no widget with the marker.
 */
import type { WidgetApi } from '../client/api.ts';
import type { Claim, Leftover } from '../client/ownership.ts';
import { deleteAllHeld, leftovers, sweep, type SweepResult } from '../client/sweep.ts';

/** Sweeps after the first, when one deleted something (to verify) or the run was interrupted (a late create may land). */
const MAX_SWEEPS = 3;

export interface CleanupOutcome {
  /** Widgets deleted by the runner (held ids and marked widgets found by the sweeps). */
  readonly deleted: number;
  /** Ids the run could not delete or could not prove its own, with the reason. */
  readonly leftovers: readonly Leftover[];
  /** What could not be verified: walks that did not reach the end of a list. */
  readonly problems: readonly string[];
  /** True only when nothing is left and every account was walked to the end without a marker. */
  readonly verified: boolean;
}

/** Deletes what the workers left (`held`), then sweeps; never throws a SuiteError. */
export async function finalCleanup(accounts: readonly WidgetApi[], held: readonly Claim[], options: { maxPages: number; minSweeps: number }): Promise<CleanupOutcome> {
  const byName = new Map(accounts.map((a) => [a.account, a]));
  const ownership = accounts[0]!.ownership;
  for (const c of held) {
    if (!byName.has(c.account)) continue;
    const claim = ownership.claim(c.account, c.id);
    if (c.problem) claim.problem = c.problem;
  }
  const before = ownership.outstanding().length;
  await deleteAllHeld(accounts);
  let deleted = before - ownership.outstanding().length;
  let sweeps: SweepResult[] = [];
  for (let pass = 1; pass <= MAX_SWEEPS; pass += 1) {
    sweeps = [];
    for (const api of accounts) sweeps.push(await sweep(api, options.maxPages));
    deleted += sweeps.reduce((n, s) => n + s.deleted.length, 0);
    const foundNothing = sweeps.every((s) => s.found === 0);
    if (pass >= options.minSweeps && foundNothing) break;
  }
  const left = leftovers(ownership);
  const problems = sweeps.flatMap((s) => s.problems.map((p) => `${s.account} account: ${p}`));
  for (const s of sweeps.filter((x) => x.found > 0)) {
    problems.push(`${s.account} account: the last walk still showed ${s.found} widget(s) with the run marker after ${MAX_SWEEPS} sweeps`);
  }
  const verified = left.length === 0 && sweeps.every((s) => s.complete && s.found === 0);
  return { deleted, leftovers: left, problems, verified };
}

/** The console's cleanup line. */
export function describeCleanup(outcome: CleanupOutcome): string {
  if (outcome.verified) return `nothing left behind${outcome.deleted ? ` (cleanup deleted ${outcome.deleted} widget(s) at the end)` : ''}; every account walked to the end shows no run marker`;
  const lines = [`NOT VERIFIED${outcome.deleted ? ` (cleanup deleted ${outcome.deleted} widget(s) at the end)` : ''}:`];
  for (const p of outcome.problems) lines.push(`  ${p}`);
  if (outcome.leftovers.length) lines.push(`  ${outcome.leftovers.length} id(s) the run held and did not delete, each with the reason:`);
  for (const l of outcome.leftovers) lines.push(`    ${l.account} account, id ${JSON.stringify(l.id)}: ${l.reason}`);
  if (outcome.problems.length || outcome.leftovers.length) lines.push('  later, `npm run cleanup -- --base-url …` (tokens in WIDGET_TOKEN / WIDGET_SECOND_TOKEN) deletes every widget carrying a run marker of this suite, and nothing else');
  return lines.join('\n');
}
