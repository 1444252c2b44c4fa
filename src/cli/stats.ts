/** Request counts: each worker leaves its own in the run's stats folder; the runner adds them up with its own. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClientStats } from '../http/client.ts';

/** The sum of the workers' stats files in `dir` and the runner's own client stats. */
export function totalStats(dir: string, own: ClientStats): ClientStats {
  const total: ClientStats = { ...own };
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const s = JSON.parse(readFileSync(join(dir, file), 'utf8')) as ClientStats;
    total.requests += s.requests;
    total.retries += s.retries;
    total.rateLimitWaitMs += s.rateLimitWaitMs;
  }
  return total;
}
