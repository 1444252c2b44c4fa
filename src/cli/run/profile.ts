/** The runner's side of the interoperability profile: the workers' tallies, merged and summed up. */
import { readProfiles } from '../../harness/worker-to-runner.ts';
import { buildProfile, type ProfileReport } from '../../report/profile.ts';
import { ProfileTally, type TallyData } from '../../report/profile-facts.ts';

/** The run's profile from every worker's tally in the stats folder (a second attempt's workers included). */
export function runProfile(statsDir: string, listSettleMs: number): ProfileReport {
  const tally = new ProfileTally();
  for (const data of readProfiles<TallyData>(statsDir)) tally.merge(data);
  return buildProfile(tally.data, listSettleMs);
}
