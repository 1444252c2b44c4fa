/**
 * The creates a worker sent, by the id each answered: what a failing test's replay recreates
 * (failing-widgets.ts). Fed by the API's observe hook (context.ts).
 */
import type { Exchange } from '../shared/exchange.ts';
import { createdId } from '../report/replay.ts';

/** Most creates remembered for replays: a run makes hundreds; the oldest go first. */
const MAX_CREATES = 5000;

/** The creates this worker sent, by the id each answered: the requests a replay sends again. */
export class CreateLog {
  private readonly byId = new Map<string, Exchange>();

  /** Records a create's exchange when its 2xx answer gave an id (the request only: the answer is the server's). */
  record(exchange: Exchange): void {
    const id = createdId(exchange);
    if (id === undefined) return;
    this.byId.delete(id);
    this.byId.set(id, { request: exchange.request, durationMs: exchange.durationMs });
    if (this.byId.size > MAX_CREATES) this.byId.delete(this.byId.keys().next().value as string);
  }

  /** The create that answered `id` last, if it is remembered. */
  get(id: string): Exchange | undefined {
    return this.byId.get(id);
  }
}
