/** Request counts: each worker leaves its own in the run's stats folder; the runner adds them up with its own. */
import { readStats } from '../harness/handoff.ts';
import type { ClientStats } from '../http/client.ts';

/** The sum of the workers' stats files in `dir` and the runner's own client stats. */
export function totalStats(dir: string, own: ClientStats): ClientStats {
  const total: ClientStats = { ...own };
  for (const s of readStats<ClientStats>(dir)) {
    total.requests += s.requests;
    total.retries += s.retries;
    total.rateLimitWaitMs += s.rateLimitWaitMs;
  }
  return total;
}

/** The sum of two clients' stats. */
export function sumStats(a: ClientStats, b: ClientStats): ClientStats {
  return { requests: a.requests + b.requests, retries: a.retries + b.retries, rateLimitWaitMs: a.rateLimitWaitMs + b.rateLimitWaitMs };
}
