/**
 * vitest's default reporter, minus its error summary once the target stopped accepting a token:
 * every test after that point ends with the same refusal, and a page of them on stderr would
 * bury the one line the runner prints about it (the reports still hold each test's message).
 */
import { DefaultReporter } from 'vitest/node';
import { refusedBeyondBudget, tokenRejected } from '../../harness/worker-to-runner.ts';

export class SetupAwareReporter extends DefaultReporter {
  constructor(private readonly statsDir: string) {
    super();
  }

  /** The error summary (and vitest's leak summary, off for this run) goes; the counts stay. */
  override reportSummary(...args: Parameters<DefaultReporter['reportSummary']>): void {
    if (tokenRejected(this.statsDir) === undefined && refusedBeyondBudget(this.statsDir) === undefined) return super.reportSummary(...args);
    const [files, errors] = args;
    this.reportTestSummary(files, errors, 0);
  }
}
