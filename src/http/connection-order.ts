/**
 * What the order of answers over the client's numbered connections (transport.ts WireConnection:
 * numbered in the order they open) says about a request in flight: whether the server has taken its
 * connection, and how many connections the server was seen answering at once while it waited. The
 * adaptive slots (concurrency.ts) tell a request that waits for a connection from one that waits
 * for its own answer with it.
 *
 * The principle: a server that serves connections one (or k) at a time, each until it closes,
 * takes waiting connections in the order they came (the listen queue's order, or the order of their
 * first requests, which the client sends as each opens). It cannot answer a connection opened after
 * a waiting request's own before it has taken that one. So once a newer connection is answered
 * while a request waits, its connection has been taken: from then on it waits for its own answer (a
 * route that hangs, a slow request), not for a connection. And while a request waits for a
 * connection, the connections answered meanwhile are served k at a time: no more than k of them
 * are answered at once (the span from the first answer on one to the last overlapping the others').
 *
 * The limit: a server that takes waiting connections in another order (last first, at random) shows
 * its waiting requests as taken. A connection whose number is unknown (still opening, or the
 * fresh connection a lost GET is repeated on) shows nothing either way.
 */
import type { WireConnection } from './transport.ts';

/** Connections whose answers a request keeps: more than the slots, so that a few reconnections hide none. */
const SEEN_KEPT = 32;

/** What the answers on other connections showed while one request waited. */
export interface ConnectionOrder {
  /** The connection it went out on, as the wire fills it in. */
  readonly connection: Readonly<WireConnection> | undefined;
  /** When a newer connection was first answered while it waited: from then on its connection was the server's. */
  takenAt: number | undefined;
  /** The connections answered while it waited: the first and last answer on each (at most SEEN_KEPT). */
  readonly seen: Map<number, { readonly first: number; last: number }>;
}

/** A request just sent on `connection`: nothing shown yet. */
export function connectionOrder(connection: Readonly<WireConnection> | undefined): ConnectionOrder {
  return { connection, takenAt: undefined, seen: new Map() };
}

/** An answer at `now` on connection `id`, seen by each request still waiting: recorded, and each one on an older connection is taken from now on. */
export function answerSeen(waiting: Iterable<ConnectionOrder>, id: number | undefined, now: number): void {
  if (id === undefined) return;
  for (const request of waiting) {
    const span = request.seen.get(id);
    if (span !== undefined) span.last = now;
    else if (request.seen.size < SEEN_KEPT) request.seen.set(id, { first: now, last: now });
    const own = request.connection?.id;
    if (request.takenAt === undefined && own !== undefined && own < id) request.takenAt = now;
  }
}

/** The most connections answered at once (their spans from first to last answer overlapping) while the request waited. */
export function answeredAtOnce(request: ConnectionOrder): number {
  let most = 0;
  for (const a of request.seen.values()) {
    let n = 0;
    for (const b of request.seen.values()) if (b.first <= a.first && a.first <= b.last) n += 1;
    most = Math.max(most, n);
  }
  return most;
}
