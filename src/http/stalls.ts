/**
 * The requests in flight of the adaptive slots (concurrency.ts, whose module comment states the
 * rule and its limits), and which of them wait for a connection the server does not serve: a
 * request is overtaken when a request sent after it is answered promptly, stalled when it then waits
 * long, and taken when a connection opened after its own is answered meanwhile (connection-order.ts:
 * the server has its connection, it waits for its own answer). Stalls that counted only requests
 * still in flight are doubted until those show which they were; while they are, one request more may
 * go out to show it (checkNow). The controller owns the slots; this module tells it how many
 * requests the server was serving, and when doubted stalls turn out to be requests that hang.
 */
import { answeredAtOnce, answerSeen, connectionOrder, type ConnectionOrder } from './connection-order.ts';
import type { WireConnection } from './transport.ts';

/** A request in flight: when it was sent, whether a request sent after it was answered promptly while it waited, and what the connections' order showed. */
interface InFlight extends ConnectionOrder {
  readonly at: number;
  overtaken: boolean;
}

/** A request no longer in flight, as end() judged it. */
export interface Ended {
  readonly at: number;
  readonly waited: number;
  /** It stalled unseen: overtaken, longer than the bound, its connection not seen taken, not yet counted, and no request in flight hangs. */
  readonly stalled: boolean;
  readonly request: InFlight;
}

/** The requests in flight and their stalls; `Before` is what the controller restores when doubted stalls are undone. */
export class Stalls<Before> {
  readonly #inFlight = new Map<number, InFlight>();
  /** Requests counted as stalled, still waiting for a connection as far as the client knows: each counts once. */
  readonly #stalled = new Set<number>();
  /** Stalls in a row that may yet be undone: the controller's state before the first, and the requests they counted not yet shown to hang. */
  #doubted: { readonly before: Before; readonly counted: Set<number> } | undefined;
  /** The request that checks doubted stalls: `wanted` once checkNow() asked for it, its token while in flight. */
  #check: 'wanted' | number | undefined;

  /** Requests in flight. */
  get size(): number {
    return this.#inFlight.size;
  }

  /** Requests counted as stalled, and the check while it is in flight: while there are any, the client closes its idle connections. */
  get stalledInFlight(): number {
    return this.#stalled.size + (typeof this.#check === 'number' ? 1 : 0);
  }

  /** Request `token` went out at `now` on `connection`. */
  sent(token: number, now: number, connection: Readonly<WireConnection> | undefined): void {
    this.#inFlight.set(token, { at: now, overtaken: false, ...connectionOrder(connection) });
    // Asked for while stalls were doubted: no check once they are settled.
    if (this.#check === 'wanted') this.#check = this.#doubted === undefined ? undefined : token;
  }

  /**
   * Request `token` is no longer in flight (`failed`: without an answer); `after` is the stall
   * bound. A request a stall counted that ends before it showed it hangs settles the doubted
   * stalls: they stand. One whose connection was taken shows it by failing all the same, or by an
   * answer a stall bound after (one the server took only once the stall closed another comes sooner).
   */
  end(token: number, now: number, after: number, failed: boolean): Ended | undefined {
    const request = this.#inFlight.get(token);
    if (request === undefined) return undefined;
    this.#inFlight.delete(token);
    if (this.#check === token) this.#check = undefined;
    const counted = this.#stalled.delete(token);
    const shown = request.takenAt !== undefined && (failed || hangs(request, now, after));
    if (this.#doubted?.counted.delete(token) === true && !shown) this.#doubted = undefined;
    const waited = now - request.at;
    // While the server holds another request it has taken, answering others, it does not serve one
    // connection at a time: this one's end, with nothing left to show, is no stall.
    const stalled = !counted && request.overtaken && request.takenAt === undefined && waited > after && ![...this.#inFlight.values()].some((other) => hangs(other, now, after));
    return { at: request.at, waited, stalled, request };
  }

  /** An answer (a refusal too) of an ended request: the others learn of its connection; a prompt one overtakes those sent before it. */
  answered(end: Ended, now: number, after: number, refused = false): void {
    answerSeen(this.#inFlight.values(), end.request.connection?.id, now);
    // Taken: it waits for a connection no more.
    for (const token of this.#stalled) if (this.#inFlight.get(token)?.takenAt !== undefined) this.#stalled.delete(token);
    if (!refused && end.waited <= after / 2) for (const other of this.#inFlight.values()) if (other.at < end.at) other.overtaken = true;
  }

  /** The controller's state before the doubted stalls, once every request they counted has shown it hangs (they are then undone); else undefined. */
  undone(now: number, after: number): Before | undefined {
    const doubted = this.#doubted;
    if (doubted === undefined) return undefined;
    for (const token of doubted.counted) {
      const request = this.#inFlight.get(token);
      if (request !== undefined && hangs(request, now, after)) doubted.counted.delete(token);
    }
    if (doubted.counted.size > 0) return undefined;
    this.#doubted = undefined;
    return doubted.before;
  }

  /** When the oldest overtaken request in flight, its connection not seen taken and not yet counted as stalled, was sent (undefined: none is). */
  oldestAt(): number | undefined {
    let oldest: number | undefined;
    for (const [token, { at, overtaken, takenAt }] of this.#inFlight) if (overtaken && takenAt === undefined && !this.#stalled.has(token)) oldest = Math.min(oldest ?? at, at);
    return oldest;
  }

  /** How long the oldest overtaken request in flight, its connection not seen taken and not yet counted as stalled, has waited. */
  oldestAge(now: number): number {
    const at = this.oldestAt();
    return at === undefined ? 0 : Math.max(0, now - at);
  }

  /**
   * A stall: counts each request found waiting (overtaken, longer than `after`, not taken) once,
   * and returns what the server was serving: the requests in flight that do not wait so and
   * `served` just answered, or the connections it was seen answering at once while a stalled
   * request (`ended`, or one found waiting) waited, whichever is more. Stalls in a row are doubted
   * together, `before` the first; one that counted no request in flight cannot be undone.
   */
  stall(now: number, after: number, served: number, before: Before, ended?: InFlight): number {
    let serving = served;
    let atOnce = ended === undefined ? 0 : answeredAtOnce(ended);
    const counted: number[] = [];
    for (const [token, request] of this.#inFlight) {
      if (request.overtaken && request.takenAt === undefined && now - request.at > after) {
        counted.push(token);
        atOnce = Math.max(atOnce, answeredAtOnce(request));
      } else serving += 1;
    }
    for (const token of counted) this.#stalled.add(token);
    const doubted = this.#doubted ?? { before, counted: new Set<number>() };
    this.#doubted = counted.length === 0 ? undefined : { before: doubted.before, counted: new Set([...doubted.counted, ...counted]) };
    return Math.max(serving, atOnce);
  }

  /**
   * Whether the client should send one request now, beyond the slots if every one is held: a
   * doubted stall's requests show they hang only by a request answered on a connection opened
   * after theirs, and when each slot holds one that never answers, none would go out before their
   * timeouts. True once, while a counted request is not yet seen taken, until that request ends;
   * while it is in flight the idle connections keep closing (stalledInFlight), so that a server
   * serving one connection at a time serves it in its turn.
   */
  checkNow(): boolean {
    const doubted = this.#doubted;
    if (doubted === undefined || this.#check !== undefined || [...doubted.counted].every((token) => this.#inFlight.get(token)?.takenAt !== undefined)) return false;
    this.#check = 'wanted';
    return true;
  }
}

/** Whether a request was seen taken a stall bound ago and is still unanswered: it waits for its own answer, whatever it waited for before. */
function hangs(request: InFlight, now: number, after: number): boolean {
  return request.takenAt !== undefined && now - request.takenAt > after;
}
