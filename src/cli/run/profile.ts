/** The runner's side of the interoperability profile: the workers' tallies, merged and summed up. */
import { writeFileSync } from 'node:fs';
import { profileFile, readProfiles } from '../../harness/worker-to-runner.ts';
import { buildProfile, type ProfileReport } from '../../report/profile.ts';
import { ProfileTally, type TallyData } from '../../report/profile-facts.ts';
import type { Observation } from '../../shared/observation.ts';

/**
 * The runner's own answers that the profile takes: those of the first contact
 * (harness/first-contact.ts), recorded like a worker's and left beside the workers' tallies.
 * It sends the run's only DELETE of an id in a format no server issues (status.delete.foreign-id)
 * and the only requests made while an account holds nothing of the run's. The probe and the
 * inventory walks are not recorded: they judge nothing.
 */
export class RunnerProfile {
  private tally: ProfileTally | undefined;

  /** The hook for the runner's accounts (ApiHooks.observe): counts only while `recording`. */
  readonly observe = (o: Observation): void => this.tally?.observe(o);

  /** Records the answers of `run` and leaves them in the stats folder, whatever `run` ends with. */
  async recording<T>(statsDir: string, run: () => Promise<T>): Promise<T> {
    const tally = (this.tally = new ProfileTally());
    try {
      return await run();
    } finally {
      this.tally = undefined;
      writeFileSync(profileFile(statsDir, 'runner-first-contact'), JSON.stringify(tally.data));
    }
  }
}

/** The run's profile from every worker's tally in the stats folder (a second attempt's workers included). */
export function runProfile(statsDir: string, listSettleMs: number): ProfileReport {
  const tally = new ProfileTally();
  for (const data of readProfiles<TallyData>(statsDir)) tally.merge(data);
  return buildProfile(tally.data, listSettleMs);
}
