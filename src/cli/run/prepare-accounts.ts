/**
 * The accounts before the first test: each one answers the probe with its token, the first
 * contact is recorded while the run has created nothing, and what each account already holds is
 * journalled as never to be deleted. A setup problem found here ends the run before any write.
 */
import type { WidgetApi } from '../../client/api.ts';
import { targetOf, type Journal } from '../../client/ledger.ts';
import { takeInventory } from '../../client/sweep.ts';
import { walkBudget } from '../../client/walk.ts';
import type { SuiteConfig } from '../../config.ts';
import { isSuiteError, RejectedTokenError, SetupProblemError } from '../../errors.ts';
import { recordFirstContact } from '../../harness/first-contact.ts';
import { collectLargeBodyGarbage } from '../../http/memory-valve.ts';
import { SeededRandom } from '../../harness/random.ts';
import type { Redactor } from '../../shared/redact.ts';
import { consoleSafe } from '../../report/console.ts';
import type { Interrupt } from './interrupt.ts';
import { outageOf, probe, type ProbeFailure } from './probe.ts';
import type { RunnerProfile } from './profile.ts';

export interface AccountsBeforeTests {
  readonly accounts: readonly WidgetApi[];
  readonly config: Pick<SuiteConfig, 'token' | 'tokenCommand' | 'secondTokenCommand' | 'maxWidgets' | 'seed'>;
  readonly statsDir: string;
  readonly marker: string;
  readonly journal: Journal;
  /** The run's target: the journal records its origin and base path, and `cleanup` refuses any other. */
  readonly target?: { readonly baseUrl: string };
  readonly interrupt: Interrupt;
  readonly redactor: Redactor;
  readonly runnerProfile: RunnerProfile;
}

/** Probes, records first contact and takes the inventory; the exit code when the run must stop there, else undefined. */
export async function prepareAccounts(run: AccountsBeforeTests): Promise<number | undefined> {
  const problem = await probeAccounts(run);
  if (problem !== undefined) return problem;
  if (run.interrupt.exitCode !== undefined) return run.interrupt.exitCode;
  await takeInventories(run);
  // The runner's thread mostly waits from here until the tests end: garbage its large answers left
  // (a probe, a first contact and an inventory may each be a list at the body cap) would wait with it.
  collectLargeBodyGarbage();
  return run.interrupt.exitCode;
}

/** Where an account's token came from, as the user gave it: a rejected token's message names it. */
export function tokenOrigin(config: AccountsBeforeTests['config'], account: number): string {
  if (account === 0) return config.tokenCommand ? 'the token --token-command printed' : config.token ? '--token / WIDGET_TOKEN' : 'the reference server token';
  return config.secondTokenCommand ? 'the token --second-token-command printed' : '--second-token / WIDGET_SECOND_TOKEN';
}

/** A setup problem's one line on stderr and its exit code; undefined when every account answered. */
async function probeAccounts(run: AccountsBeforeTests): Promise<number | undefined> {
  try {
    const errors: Array<ProbeFailure | undefined> = [];
    for (const [i, api] of run.accounts.entries()) errors.push(await probe(api, tokenOrigin(run.config, i)));
    // An outage only when every account fails every request: one account's errors are the rules'.
    const outage = outageOf(errors);
    if (outage) throw outage;
    // Before any test writes: what each account answers while the run has created nothing in it.
    await run.runnerProfile.recording(run.statsDir, () => recordFirstContact(run.accounts, run.statsDir, SeededRandom.of(run.config.seed, 'first contact')));
    return undefined;
  } catch (error) {
    if (!isSuiteError(error)) throw error;
    process.stderr.write(`widget-conformance: ${consoleSafe(run.redactor.text((error as Error).message))}\n`);
    return error instanceof RejectedTokenError ? 2 : error instanceof SetupProblemError ? error.exitCode : 3;
  }
}

/** Journals the run's start and each account's widgets; an inventory that could not be completed is a warning. */
async function takeInventories(run: AccountsBeforeTests): Promise<void> {
  // Before the first create: every id the accounts hold now is never deleted, whatever a later answer says.
  run.journal.append({ kind: 'run', marker: run.marker, at: new Date().toISOString(), ...(run.target ? { target: targetOf(run.target.baseUrl) } : {}) });
  for (const api of run.accounts) {
    const inventory = await takeInventory(api, walkBudget(run.config.maxWidgets));
    if (inventory.problem) process.stderr.write(`widget-conformance: warning: the ${api.account} account's inventory (the widgets it holds before the run, never deleted) is incomplete: ${run.redactor.text(inventory.problem)}\n`);
  }
}
