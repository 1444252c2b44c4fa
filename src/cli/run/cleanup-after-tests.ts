/**
 * The runner's cleanup after the tests: whatever the workers could not delete, and any widget
 * whose create answer was lost (final-cleanup.ts does the deleting). It has its own client and
 * time budget: the tests' client may have given up on the target, or spent the run's time, and
 * the ids the run knows must still be tried. It sends the tokens the workers last renewed.
 */
import { parseJournalText, readJournalFile, type Journal, type JournalEntry, type TornLine } from '../../client/ledger.ts';
import { walkBudget } from '../../client/walk.ts';
import type { SuiteConfig } from '../../config.ts';
import { readHeld, renewedTokens } from '../../harness/worker-to-runner.ts';
import { clientOptions } from '../../http/client-options.ts';
import { HttpClient } from '../../http/client.ts';
import type { ClientStats } from '../../shared/client-stats.ts';
import { finalCleanup, type CleanupOutcome } from './final-cleanup.ts';
import { runnerAccounts } from './runner-accounts.ts';
import type { Target } from './target.ts';

/**
 * The cleanup's own time budget, after the tests: enough to delete what a run holds on a slow
 * server, bounded so that a server that stops answering cannot hold the run.
 */
export function cleanupBudgetMs(timeoutMs: number): number {
  return Math.max(CLEANUP_BUDGET_MIN_MS, CLEANUP_TIMEOUTS * timeoutMs);
}
const CLEANUP_BUDGET_MIN_MS = 60_000;
const CLEANUP_TIMEOUTS = 6;

export interface RunToClean {
  readonly config: SuiteConfig;
  readonly target: Target;
  /** Every secret the run knows, redacted in what the cleaner records. */
  readonly secrets: readonly string[];
  /** PEM text of --ca-file. */
  readonly ca: string | undefined;
  readonly statsDir: string;
  readonly marker: string;
  readonly journal: Journal;
  readonly journalFile: string;
  /** A signal stopped the run: a create still in flight may land after the first walk, so it sweeps twice. */
  readonly interrupted: boolean;
}

/** What the progress line learns of the cleanup: its client (for the requests it sends) and each step as it starts. */
export interface CleanupWatch {
  readonly onClient?: (client: HttpClient) => void;
  readonly onStep?: (step: string) => void;
}

/** What the cleanup did, and the requests its client sent. */
export async function cleanUpAfterTests(run: RunToClean, watch: CleanupWatch = {}): Promise<{ outcome: CleanupOutcome; stats: ClientStats }> {
  const { config, target } = run;
  const cleaner = new HttpClient(clientOptions(config, { baseUrl: target.baseUrl, secrets: run.secrets, deadline: Date.now() + cleanupBudgetMs(config.timeoutMs), ca: run.ca }));
  watch.onClient?.(cleaner);
  let outcome: CleanupOutcome;
  try {
    const current = withRenewedTokens(target, run.statsDir);
    cleaner.redactor.add([current.token, ...(current.secondToken ? [current.secondToken] : [])]);
    outcome = await finalCleanup(runnerAccounts(cleaner, current, run.marker, run.journal), readHeld(run.statsDir), {
      maxPages: walkBudget(config.maxWidgets),
      minSweeps: run.interrupted ? 2 : 1,
      ...journalOf(run.journalFile),
      ...(watch.onStep ? { onStep: watch.onStep } : {}),
    });
  } finally {
    await cleaner.close();
  }
  return { outcome, stats: cleaner.stats };
}

/** The run's journal, with its lines that are not entries (each makes the cleanup NOT VERIFIED: an id may be in it). */
function journalOf(file: string): { journal: JournalEntry[]; torn: TornLine[] } {
  const text = readJournalFile(file);
  if (text === undefined) return { journal: [], torn: [] };
  const { entries, torn } = parseJournalText(text);
  return { journal: entries, torn };
}

/** The target with the tokens the workers renewed last in place of the ones the run started with. */
export function withRenewedTokens(target: Target, statsDir: string): Target {
  const renewed = renewedTokens(statsDir);
  const latest = (account: string, token: string): string => renewed.filter((t) => t.account === account).at(-1)?.token ?? token;
  return { ...target, token: latest('primary', target.token), ...(target.secondToken ? { secondToken: latest('second', target.secondToken) } : {}) };
}
