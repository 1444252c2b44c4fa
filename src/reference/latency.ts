/**
 * Network latency in front of any handler: each request waits `latencyMs` on a timer before it is
 * handled, so every answer (a gateway's refusal included, when the gateway sits behind it) is late
 * by that much. A timer, not a busy wait: a thousand requests waiting cost nothing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestHandler } from './server.ts';

/** `inner`, each of whose answers is `latencyMs` late. */
export class DelayedHandler implements RequestHandler {
  constructor(
    private readonly inner: RequestHandler,
    private readonly latencyMs: number,
  ) {}

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.latencyMs > 0) await sleep(this.latencyMs);
    // A client that gave up while we waited has nobody to answer.
    if (res.destroyed) return;
    await this.inner.handle(req, res);
  }
}
