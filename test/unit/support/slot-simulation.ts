/**
 * A discrete-event simulation of the suite's client against a server, in simulated time (no timer,
 * no sleep): `demand` tests each send requests one after another through slots whose number the
 * adaptive controller (src/http/concurrency.ts) sets, over keep-alive connections as the transport
 * keeps them (src/http/transport.ts: one per slot, the one freed last taken first, opened again when
 * taken after it closed; a connection idle for IDLE_KEEP_ALIVE_MS is closed, and every idle one
 * while a request is stalled, as the client does, which also looks for a stall at its bound when
 * no answer comes to show it; a request past its timeout is aborted, its
 * connection with it). The servers:
 * - `parallel`: every request answered after its service time, however many at once;
 * - `workers`: n workers taking requests in arrival order (n = 1: one request at a time);
 * - `oneConnection`: one worker that serves one connection at a time, as a single-threaded server
 *   with keep-alive does: a request on another connection waits until the one being served closes;
 * - `connections`: n such workers (PHP's built-in server with PHP_CLI_SERVER_WORKERS, Apache prefork
 *   with few workers): n connections served at a time, the others waiting in the order they came.
 * Service times come from `service(i)` for the i-th request served: deterministic. The i-th request
 * sent for which `hangs(i)` holds is never answered (a route that hangs: the server takes it and
 * holds no worker, but its connection, at a one-connection server, stays the one served).
 */
import { ConcurrencyController } from '../../../src/http/concurrency.ts';
import { ADAPTIVE_MAX_SLOTS, ADAPTIVE_RATE_BOUND, IDLE_KEEP_ALIVE_MS } from '../../../src/http/client.ts';

export type ServerModel = { readonly kind: 'parallel' } | { readonly kind: 'workers'; readonly n: number } | { readonly kind: 'oneConnection' } | { readonly kind: 'connections'; readonly n: number };

export interface Simulation {
  readonly server: ServerModel | ((t: number) => ServerModel);
  /** Service time of the i-th request the server serves, in ms. */
  readonly service: (i: number) => number;
  /** Tests sending requests one after another, at once. */
  readonly demand: number;
  /** Requests each test sends at once, sending the next ones when all are answered (1 by default; the cleanup's batches are 8: client/sweep.ts). */
  readonly batch?: number;
  /** Requests in all. */
  readonly requests: number;
  /** Slots the run may keep whatever the latency (--concurrency's default). */
  readonly unbounded?: number;
  readonly timeoutMs?: number;
  /** The requests, by the order they were sent (from 1), that the server never answers. */
  readonly hangs?: (i: number) => boolean;
}

export interface SimulationResult {
  readonly controller: ConcurrencyController;
  /** Simulated ms from the first request to the last answer. */
  readonly elapsedMs: number;
  readonly answered: number;
  readonly timedOut: number;
  /** The slots over time: [time, slots] at each change, from the start. */
  readonly slots: ReadonlyArray<readonly [number, number]>;
  /** The most requests in flight at the server at once. */
  readonly peakInFlight: number;
  /** Each answered request's time from sent to answered, in ms, in the order answered. */
  readonly durations: readonly number[];
  /** The time-weighted mean of the slots from `from` ms to the end. */
  meanSlots(from?: number): number;
}

interface Connection {
  readonly id: number;
  busy: boolean;
  idleSince: number;
  open: boolean;
}

interface Request {
  /** Its place in the order requests were sent, from 1. */
  readonly index: number;
  readonly token: number;
  readonly sentAt: number;
  readonly connection: Connection;
  done: boolean;
}

/** Runs the simulation to its end (every request answered or timed out). */
export function simulate(sim: Simulation): SimulationResult {
  let now = 0;
  const events: Array<{ at: number; seq: number; run: () => void }> = [];
  let seq = 0;
  // Kept in order of time, then of scheduling: the next event is always the first.
  const at = (time: number, run: () => void): void => {
    let lo = 0;
    let hi = events.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (events[mid]!.at <= time) lo = mid + 1;
      else hi = mid;
    }
    events.splice(lo, 0, { at: time, seq: (seq += 1), run });
  };
  const controller = new ConcurrencyController({ max: ADAPTIVE_MAX_SLOTS, unbounded: sim.unbounded ?? 4, rateBound: ADAPTIVE_RATE_BOUND, now: () => now });
  const timeoutMs = sim.timeoutMs ?? 10_000;
  const slots: Array<[number, number]> = [[0, controller.limit]];
  const model = (): ServerModel => (typeof sim.server === 'function' ? sim.server(now) : sim.server);

  // The server.
  let served = 0;
  let inFlightAtServer = 0;
  let peakInFlight = 0;
  const queue: Array<() => void> = [];
  let busyWorkers = 0;
  /** The connections a connection-bound server is serving. */
  const active = new Set<Connection>();
  const waitingConnections: Connection[] = [];
  const pendingOn = new Map<number, () => void>();
  const serve = (request: Request, answer: () => void): void => {
    const hangs = sim.hangs?.(request.index) === true;
    if (hangs && (model().kind === 'parallel' || model().kind === 'workers')) return;
    inFlightAtServer += 1;
    peakInFlight = Math.max(peakInFlight, inFlightAtServer);
    const finish = (): void => {
      inFlightAtServer -= 1;
      if (!request.done) answer();
    };
    const m = model();
    if (m.kind === 'parallel') return at(now + sim.service((served += 1)), finish);
    if (m.kind === 'workers') {
      const start = (): void => {
        busyWorkers += 1;
        at(now + sim.service((served += 1)), () => {
          busyWorkers -= 1;
          // The next in line first: the answer's test sends its next request behind it.
          queue.shift()?.();
          finish();
        });
      };
      if (busyWorkers < m.n) start();
      else queue.push(start);
      return;
    }
    // n connections at a time: the request waits until its connection is one being served.
    const start = (): void => void (hangs || at(now + sim.service((served += 1)), finish));
    if (active.has(request.connection) || active.size < (m.kind === 'connections' ? m.n : 1)) {
      active.add(request.connection);
      return start();
    }
    pendingOn.set(request.connection.id, start);
    if (!waitingConnections.includes(request.connection)) waitingConnections.push(request.connection);
  };
  /** A connection closed: a connection-bound server takes the next one waiting. */
  const closed = (c: Connection): void => {
    c.open = false;
    const waiting = waitingConnections.indexOf(c);
    if (waiting >= 0) waitingConnections.splice(waiting, 1);
    pendingOn.delete(c.id);
    if (!active.delete(c)) return;
    const next = waitingConnections.shift();
    if (next === undefined) return;
    active.add(next);
    const start = pendingOn.get(next.id);
    pendingOn.delete(next.id);
    start?.();
  };

  // The client's connections (transport.ts Connections: one per slot, the one freed last taken
  // first, a closed one opened again when taken) and slots (the Limiter, resized as the controller says).
  const agents: Array<Connection | undefined> = Array.from({ length: ADAPTIVE_MAX_SLOTS }, () => undefined);
  const free = agents.map((_, i) => agents.length - 1 - i);
  let nextConnection = 0;
  const take = (): { readonly slot: number; readonly c: Connection } => {
    const slot = free.pop()!;
    let c = agents[slot];
    if (c === undefined || !c.open) agents[slot] = c = { id: (nextConnection += 1), busy: false, idleSince: now, open: true };
    c.busy = true;
    return { slot, c };
  };
  const release = (slot: number, c: Connection): void => {
    c.busy = false;
    c.idleSince = now;
    free.push(slot);
    at(now + IDLE_KEEP_ALIVE_MS, () => {
      if (c.open && !c.busy && now - c.idleSince >= IDLE_KEEP_ALIVE_MS) closed(c);
    });
  };
  /** The client's closeIdle(): while requests are stalled, every connection no request is using is closed. */
  const closeIdleWhileStalled = (): void => {
    if (controller.stalledInFlight === 0) return;
    for (const slot of free) {
      const c = agents[slot];
      if (c?.open) closed(c);
    }
  };
  let activeSlots = 0;
  const waiting: Array<() => void> = [];
  let sent = 0;
  let onWire = 0;
  let answered = 0;
  const durations: number[] = [];
  let timedOut = 0;
  let last = 0;
  const resize = (): void => {
    if (slots.at(-1)![1] !== controller.limit) slots.push([now, controller.limit]);
    while (activeSlots < controller.limit && waiting.length > 0) {
      activeSlots += 1;
      waiting.shift()!();
    }
  };
  /** The client's check of a doubted stall: one waiting test let in beyond the slots. */
  const check = (): void => {
    if (!controller.checkNow() || waiting.length === 0) return;
    activeSlots += 1;
    waiting.shift()!();
  };
  /** The client's look at the clock (client.ts #followSlots): a stall no answer shows is found once its bound has passed. */
  let lookScheduled = false;
  const lookLater = (): void => {
    const due = controller.stallDueAt;
    if (due === undefined || lookScheduled) return;
    lookScheduled = true;
    at(Math.max(now, due) + 1, () => {
      lookScheduled = false;
      controller.checkStall();
      closeIdleWhileStalled();
      resize();
      check();
      lookLater();
    });
  };
  const freeSlot = (): void => {
    const next = activeSlots > controller.limit ? undefined : waiting.shift();
    if (next) next();
    else activeSlots -= 1;
  };
  const send = (then: () => void): void => {
    const { slot, c } = take();
    const request: Request = { index: (onWire += 1), token: controller.sent(c), sentAt: now, connection: c, done: false };
    serve(request, () => {
      request.done = true;
      answered += 1;
      durations.push(now - request.sentAt);
      last = now;
      // As the client: the connection is free once the answer is read, then the controller hears of it.
      release(slot, c);
      controller.answered(request.token);
      closeIdleWhileStalled();
      resize();
      check();
      lookLater();
      then();
    });
    at(now + timeoutMs, () => {
      if (request.done) return;
      // Aborted: undici destroys the connection with it.
      request.done = true;
      timedOut += 1;
      last = now;
      closed(c);
      c.busy = false;
      free.push(slot);
      controller.failed(request.token);
      closeIdleWhileStalled();
      resize();
      check();
      lookLater();
      then();
    });
  };
  const test = (): void => {
    const batch = Math.min(sim.batch ?? 1, sim.requests - sent);
    let left = batch;
    for (let i = 0; i < batch; i += 1) {
      sent += 1;
      const go = (): void => send(() => {
        freeSlot();
        left -= 1;
        if (left === 0) test();
      });
      if (activeSlots < controller.limit) {
        activeSlots += 1;
        go();
      } else waiting.push(go);
    }
  };
  for (let i = 0; i < sim.demand; i += 1) test();
  while (events.length > 0) {
    const e = events.shift()!;
    now = e.at;
    e.run();
  }
  return {
    controller,
    elapsedMs: last,
    answered,
    timedOut,
    slots,
    peakInFlight,
    durations,
    meanSlots(from = 0): number {
      let area = 0;
      for (let i = 0; i < slots.length; i += 1) {
        const [start, value] = slots[i]!;
        const end = i + 1 < slots.length ? slots[i + 1]![0] : last;
        area += value * Math.max(0, end - Math.max(start, from));
      }
      return area / Math.max(1, last - from);
    },
  };
}
