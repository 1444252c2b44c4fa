/** The bench's server side: the reference service behind added latency, with what the server saw. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestHandler } from '../src/reference/server.ts';
import type { ReferenceService } from '../src/reference/service.ts';

/** What the server side saw during one run. */
export interface ServerStats {
  requests: number;
  peakInFlight: number;
  /** Sum over requests of arrival → response finished, in ms; divided by wall time it is the mean number in flight. */
  busyMs: number;
}

/**
 * The reference service behind a wrapper that waits `latencyMs` on a timer before handling each
 * request (a stand-in for network latency), and counts requests and how many are in flight.
 */
export function slowHandler(service: ReferenceService, latencyMs: number, stats: ServerStats): RequestHandler {
  let inFlight = 0;
  return {
    async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      const arrived = performance.now();
      stats.requests += 1;
      inFlight += 1;
      stats.peakInFlight = Math.max(stats.peakInFlight, inFlight);
      res.once('close', () => {
        inFlight -= 1;
        stats.busyMs += performance.now() - arrived;
      });
      if (latencyMs > 0) await sleep(latencyMs);
      await service.handle(req, res);
    },
  };
}
