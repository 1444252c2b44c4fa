/** Request counts: each worker leaves its own in the run's stats folder; the runner adds them up with its own. */
import { readStats } from '../../harness/worker-to-runner.ts';
import type { ClientStats } from '../../shared/client-stats.ts';

/** The sum of the workers' stats files in `dir` and the runner's own client stats. */
export function totalStats(dir: string, own: ClientStats): ClientStats {
  return readStats<ClientStats>(dir).reduce(sumStats, own);
}

/**
 * Two clients' stats together: counts and blocked time add up (the clients run one after
 * another); the pace is the slower of the two that were paced.
 */
export function sumStats(a: ClientStats, b: ClientStats): ClientStats {
  const rates = [a.pacedRate, b.pacedRate].filter((r): r is number => typeof r === 'number');
  return {
    requests: a.requests + b.requests,
    retries: a.retries + b.retries,
    rateLimitWaitMs: a.rateLimitWaitMs + b.rateLimitWaitMs,
    refused: (a.refused ?? 0) + (b.refused ?? 0),
    ...(rates.length > 0 ? { pacedRate: Math.min(...rates) } : {}),
    ...(a.slots !== undefined || b.slots !== undefined ? { slots: Math.max(a.slots ?? 0, b.slots ?? 0) } : {}),
  };
}
