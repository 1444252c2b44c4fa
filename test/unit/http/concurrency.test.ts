/**
 * The adaptive slots (src/http/concurrency.ts) against simulated servers, in simulated time
 * (test/unit/support/slot-simulation.ts: no timer, no sleep, the same result every run): the
 * slots grow while throughput grows with them, fall back when it does not or when latency rises
 * without it, and a server that serves one connection at a time gets its run done with no request
 * waiting out its timeout; a route that hangs, while the server answers other connections, takes
 * no slots away. Besides, the controller alone, driven event by event, its requests on numbered
 * connections as the wire numbers them (src/http/connection-order.ts).
 */
import { describe, expect, it } from 'vitest';
import { ADAPTIVE_MAX_SLOTS, ADAPTIVE_RATE_BOUND, IDLE_KEEP_ALIVE_MS } from '../../../src/http/client.ts';
import {
  ConcurrencyController,
  HOLD_MS,
  MIN_WINDOW_ANSWERS,
  MIN_WINDOW_MS,
  QUEUED,
  RISE_WINDOWS,
  STALL_MIN_MS,
  STALLED_HOLD_MS,
  START_SLOTS,
  TINY_LATENCY_MS,
  WARM_UP_ANSWERS,
  WINDOW_ANSWERS_PER_SLOT,
} from '../../../src/http/concurrency.ts';
import { simulate, type Simulation } from '../support/slot-simulation.ts';

/** A service time between 20 and 50 ms, the same for the same request: a small web app's worker. */
const app = (i: number): number => 20 + ((i * 7919) % 31);
/** A service time under TINY_LATENCY_MS: a server on the same host. */
const near = (i: number): number => 0.5 + (i % 3) * 0.3;
/** Tests in flight at once in a run (vitest's concurrent tests keep more requests waiting than there are slots). */
const DEMAND = 16;
/** Requests of a run: about what the suite sends. */
const RUN = 3_000;
/** --concurrency's default: the slots a near server gets, and those allowed whatever the latency. */
const UNBOUNDED = 4;

/** The time one worker takes for the run's requests, one after another: what one slot achieves. */
const serial = (service: Simulation['service'], requests = RUN): number => Array.from({ length: requests }, (_, i) => service(i + 1)).reduce((a, b) => a + b, 0);

describe('adaptive slots against simulated servers', () => {
  it(`a far server that serves every request at once (25 ms each) gets ${ADAPTIVE_MAX_SLOTS} slots within the first second, and keeps them`, () => {
    const run = simulate({ server: { kind: 'parallel' }, service: () => 25, demand: DEMAND, requests: RUN });
    expect(run.timedOut).toBe(0);
    const reached = run.slots.find(([, n]) => n === ADAPTIVE_MAX_SLOTS);
    expect(reached, JSON.stringify(run.slots)).toBeDefined();
    expect(reached![0]).toBeLessThan(1_000);
    expect(run.controller.limit).toBe(ADAPTIVE_MAX_SLOTS);
    expect(run.controller.changes.filter((c) => c.why !== 'doubled')).toEqual([]);
    // As fast as 8 fixed slots would be, less the first second.
    expect(run.elapsedMs).toBeLessThan((RUN * 25) / ADAPTIVE_MAX_SLOTS + 1_000);
  });

  it('a far server the client keeps fewer requests busy at than the slots still gets them: a doubling whose slots were not filled is kept while each request takes no longer', () => {
    // Five tests at once: 8 slots are never busy enough to judge their throughput.
    const run = simulate({ server: { kind: 'parallel' }, service: () => 25, demand: 5, requests: RUN });
    expect(run.controller.limit).toBe(ADAPTIVE_MAX_SLOTS);
    expect(run.peakInFlight).toBe(5);
  });

  it(`a near server (answers within ${TINY_LATENCY_MS} ms) gets --concurrency's default after the first answers, and no more: slots beyond it only while slots / latency stays under the rate bound`, () => {
    const run = simulate({ server: { kind: 'parallel' }, service: near, demand: DEMAND, requests: RUN });
    expect(run.controller.changes).toEqual([{ at: expect.any(Number), to: UNBOUNDED, why: 'near' }]);
    expect(run.controller.changes[0]!.at).toBeLessThan(MIN_WINDOW_MS + 2);
    expect(run.peakInFlight).toBe(UNBOUNDED);
  });

  it('a server 6 ms away grows from one slot to --concurrency\'s default and no further: 8 slots would carry more than the rate bound', () => {
    const run = simulate({ server: { kind: 'parallel' }, service: () => 6, demand: DEMAND, requests: RUN });
    expect(Math.ceil((ADAPTIVE_RATE_BOUND * 6) / 1000)).toBeLessThan(UNBOUNDED);
    expect(run.controller.changes.map((c) => c.why)).toEqual(['doubled', 'doubled']);
    expect(run.controller.peak).toBe(UNBOUNDED);
    expect(run.peakInFlight).toBe(UNBOUNDED);
  });

  it('a server with one worker (one request at a time, 20-50 ms each) is kept at one slot: more only wait longer for no more answers', () => {
    const run = simulate({ server: { kind: 'workers', n: 1 }, service: app, demand: DEMAND, requests: RUN });
    expect(run.timedOut).toBe(0);
    expect(run.controller.limit).toBe(1);
    expect(run.meanSlots()).toBeLessThan(1.3);
    // Each doubling tried brought nothing, and was undone, after holds that grew.
    const undone = run.controller.changes.filter((c) => c.why === 'no-gain');
    expect(undone.length).toBeGreaterThan(3);
    expect(run.controller.changes.every((c) => c.why === 'no-gain' || c.why === 'doubled')).toBe(true);
  });

  it('a near server with one worker keeps --concurrency\'s default: each request waits a few ms behind the others, and the run takes no longer than at one slot', () => {
    const run = simulate({ server: { kind: 'workers', n: 1 }, service: near, demand: DEMAND, requests: RUN });
    expect(run.controller.limit).toBe(UNBOUNDED);
    expect(run.elapsedMs).toBeLessThanOrEqual(serial(near));
    expect(Math.max(...run.durations)).toBeLessThan(UNBOUNDED * TINY_LATENCY_MS);
  });

  it('a server with one worker that serves one connection at a time (keep-alive, 20-50 ms each) gets its run done with no request timing out, as fast as at one slot', () => {
    const run = simulate({ server: { kind: 'oneConnection' }, service: app, demand: DEMAND, requests: RUN });
    expect(run.timedOut).toBe(0);
    expect(run.answered).toBe(RUN);
    expect(run.controller.limit).toBe(1);
    expect(run.controller.changes.some((c) => c.why === 'stalled')).toBe(true);
    // Each stall is seen while the other slot is answered, and the idle connections closed then
    // let the server take the waiting one at once: no request waits for an idle timeout.
    expect(Math.max(...run.durations)).toBeLessThan(STALL_MIN_MS * 2);
    expect(run.elapsedMs).toBeLessThanOrEqual(serial(app) + 100);
  });

  it('the same when the requests come in batches of 8 (the cleanup\'s): no request waits for an idle timeout, and the stall holds the slots at one long enough', () => {
    const run = simulate({ server: { kind: 'oneConnection' }, service: app, demand: 1, batch: 8, requests: RUN });
    expect(run.timedOut).toBe(0);
    const stalls = run.controller.changes.filter((c) => c.why === 'stalled').length;
    expect(stalls).toBeGreaterThan(0);
    // The batch's others are answered before the stall shows, and then nothing is sent until its
    // last is answered: no answer shows the stall, the client's look at the clock does (at its
    // bound), and the idle connection closed then lets the server take the waiting one. Without
    // that look, it waited for the served connection's idle close (IDLE_KEEP_ALIVE_MS).
    expect(Math.max(...run.durations)).toBeLessThan(STALL_MIN_MS * 2);
    expect(run.elapsedMs).toBeLessThanOrEqual(serial(app) + stalls * STALL_MIN_MS * 2);
    // Each hold is long: the next try comes STALLED_HOLD_MS later at the soonest.
    const tries = run.controller.changes.filter((c) => c.why === 'doubled');
    for (let i = 1; i < tries.length; i += 1) expect(tries[i]!.at - tries[i - 1]!.at).toBeGreaterThan(STALLED_HOLD_MS);
  });

  it('a near server that serves one connection at a time gets --concurrency\'s default at first, and one slot from its first stall on, with no request waiting for an idle timeout', () => {
    const run = simulate({ server: { kind: 'oneConnection' }, service: near, demand: DEMAND, requests: RUN });
    expect(run.controller.changes.map((c) => [c.to, c.why])).toEqual([[UNBOUNDED, 'near'], [1, 'stalled']]);
    expect(run.timedOut).toBe(0);
    expect(Math.max(...run.durations)).toBeLessThan(STALL_MIN_MS * 2);
    expect(run.elapsedMs).toBeLessThanOrEqual(serial(near) + 100);
  });

  for (const [name, service] of [['near', near], ['20-50 ms away', app]] as const) {
    for (const n of [2, 3]) {
      it(`a ${name} server that serves ${n} connections at a time, each until it closes, settles at ${n} slots, with no request timing out`, () => {
        const run = simulate({ server: { kind: 'connections', n }, service, demand: DEMAND, requests: RUN });
        expect(run.timedOut).toBe(0);
        expect(run.controller.limit).toBe(n);
        expect(run.controller.changes.at(-1)).toMatchObject({ to: n, why: 'stalled' });
      });
    }
  }

  it(`a near server whose route hangs (one request in ten never answered) keeps --concurrency's default: the hung requests wait out their timeouts side by side, as at a fixed ${UNBOUNDED}`, () => {
    const timeoutMs = 1_000;
    const run = simulate({ server: { kind: 'parallel' }, service: near, demand: DEMAND, requests: RUN / 2, timeoutMs, hangs: (i) => i % 10 === 0 });
    expect(run.timedOut).toBe(RUN / 20);
    expect(run.controller.limit).toBe(UNBOUNDED);
    // Every stall it saw (a request that hung while only older connections were answered) undone.
    expect(run.controller.changes.filter((c) => c.why === 'stalled').length).toBe(run.controller.changes.filter((c) => c.why === 'hung').length);
    // Each hung request holds one of the slots for its timeout: no longer than that, and a tenth for the others.
    expect(run.elapsedMs).toBeLessThan(1.1 * ((run.timedOut * timeoutMs) / UNBOUNDED));
  });

  it('a server 20-50 ms away whose route hangs (one request in thirty) keeps its slots: each stall its hung requests show is undone once a newer connection is answered while they wait', () => {
    const run = simulate({ server: { kind: 'parallel' }, service: app, demand: DEMAND, requests: RUN / 2, timeoutMs: 1_000, hangs: (i) => i % 30 === 0 });
    const whys = run.controller.changes.map((c) => c.why);
    expect(whys).toContain('stalled');
    expect(whys.filter((why) => why === 'stalled').length).toBe(whys.filter((why) => why === 'hung').length);
    expect(run.controller.limit).toBe(ADAPTIVE_MAX_SLOTS);
  });

  it('a server with three workers settles where its throughput stops growing: between 4 and 8 slots, 4 most of the time', () => {
    const run = simulate({ server: { kind: 'workers', n: 3 }, service: app, demand: DEMAND, requests: RUN });
    expect(run.timedOut).toBe(0);
    // Held at 4, with a short try of 8 now and then (each after a hold twice as long as the last).
    expect(run.meanSlots(2_000)).toBeLessThan(4.5);
    expect(run.meanSlots(2_000)).toBeGreaterThanOrEqual(3.5);
  });

  it('a client with one request at a time never makes the slots grow past what a window can judge', () => {
    const run = simulate({ server: { kind: 'parallel' }, service: () => 25, demand: 1, requests: 400 });
    expect(run.controller.peak).toBeLessThanOrEqual(2);
  });

  it('a server that goes from serving everything at once to one request at a time gets fewer slots again: latency rose without throughput', () => {
    const run = simulate({ server: (t) => (t < 5_000 ? { kind: 'parallel' } : { kind: 'workers', n: 1 }), service: () => 25, demand: DEMAND, requests: 2_000 });
    expect(run.timedOut).toBe(0);
    expect(run.slots.some(([t, n]) => t < 5_000 && n === ADAPTIVE_MAX_SLOTS)).toBe(true);
    const rises = run.controller.changes.filter((c) => c.why === 'latency-rose');
    expect(rises.map((c) => c.to)).toEqual([4, 2]);
    expect(rises[0]!.at).toBeGreaterThan(5_000);
    // At two slots each request takes twice its time, no more than the rise that is not acted on; more are undone for no gain.
    expect(run.meanSlots(10_000)).toBeLessThan(2.5);
  });
});

describe('the controller, event by event', () => {
  /** A controller on a clock the test moves, of `max` slots at most. */
  function controller(max = ADAPTIVE_MAX_SLOTS) {
    let now = 0;
    const c = new ConcurrencyController({ max, unbounded: UNBOUNDED, rateBound: ADAPTIVE_RATE_BOUND, now: () => now });
    /** `n` requests, `at` a time (the slots kept busy), each answered after `ms`. */
    const answer = (n: number, ms: number, at = c.limit): void => {
      for (let done = 0; done < n; done += at) {
        const tokens = Array.from({ length: Math.min(at, n - done) }, () => c.sent());
        now += ms;
        for (const t of tokens) c.answered(t);
      }
    };
    /** One window of measurement at the slots now, every slot busy, each answer after `ms`. */
    let warm = false;
    const window = (ms: number): void => {
      const slots = c.limit;
      const answers = Math.max(warm ? MIN_WINDOW_ANSWERS : WARM_UP_ANSWERS, WINDOW_ANSWERS_PER_SLOT * slots, Math.ceil(MIN_WINDOW_MS / ms) * slots);
      warm = true;
      answer(answers, ms, slots);
    };
    return { c, answer, window, tick: (ms: number) => void (now += ms), now: () => now };
  }

  it(`starts at ${START_SLOTS} slot and doubles only after a warm-up window and a window that measured the slots busy`, () => {
    const { c, window, answer, tick } = controller();
    expect(c.limit).toBe(START_SLOTS);
    window(25);
    expect(c.limit, 'the warm-up says nothing').toBe(1);
    // Half the time idle: the client's limit, not the server's.
    for (let i = 0; i < MIN_WINDOW_ANSWERS; i += 1) {
      answer(1, 25);
      tick(25);
    }
    expect(c.limit).toBe(1);
    window(25);
    expect(c.limit).toBe(2);
    expect(c.changes).toEqual([{ at: expect.any(Number), to: 2, why: 'doubled' }]);
  });

  it('undoes a doubling that brought no more throughput, and tries again only after a hold that doubles with each try', () => {
    const { c, window } = controller();
    // Busy windows at 25 ms an answer per slot when alone; two at a time take twice as long each.
    const oneWorker = (): void => window(25 * c.limit);
    while (c.changes.length < 6) oneWorker();
    expect(c.changes.map((x) => [x.to, x.why])).toEqual([[2, 'doubled'], [1, 'no-gain'], [2, 'doubled'], [1, 'no-gain'], [2, 'doubled'], [1, 'no-gain']]);
    const held = (i: number): number => c.changes[i + 1]!.at - c.changes[i]!.at;
    expect(held(1)).toBeGreaterThanOrEqual(HOLD_MS);
    expect(held(3)).toBeGreaterThanOrEqual(2 * HOLD_MS);
    // A server whose throughput does grow: kept, and doubled again after the next window.
    while (c.limit === 1) window(25);
    window(25);
    expect(c.limit).toBe(4);
    expect(c.changes.at(-1)).toMatchObject({ to: 4, why: 'doubled' });
  });

  it('judges a doubling by the very next window even when the client did not fill the slots: kept while each request takes no longer, undone when it takes longer', () => {
    for (const [ms, kept] of [[25, true], [50, false]] as const) {
      const { c, window, answer } = controller();
      while (c.limit < UNBOUNDED) window(25);
      window(25);
      expect(c.changes.at(-1)).toMatchObject({ to: ADAPTIVE_MAX_SLOTS, why: 'doubled' });
      // Five requests in flight of the eight slots: not busy enough to judge their throughput.
      answer(WINDOW_ANSWERS_PER_SLOT * ADAPTIVE_MAX_SLOTS + 5, ms, 5);
      expect(c.limit, `${ms} ms`).toBe(kept ? ADAPTIVE_MAX_SLOTS : UNBOUNDED);
      if (!kept) expect(c.changes.at(-1)).toMatchObject({ to: UNBOUNDED, why: 'no-gain' });
    }
  });

  it(`keeps a doubling short of the gain when each request took less than ${QUEUED} times as long (the client's own CPU at work, not a queue at the server), with no further doubling before a hold; undoes it when each took that much longer`, () => {
    for (const [ms, kept] of [[30, true], [40, false]] as const) {
      const { c, window, answer, now } = controller();
      while (c.limit < 2) window(25);
      window(25);
      expect(c.changes.at(-1)).toMatchObject({ to: 4, why: 'doubled' });
      // Three of the four slots busy: twice the answers per second of two slots at 25 ms only if each took no longer.
      answer(6 * 3, ms, 3);
      expect(c.limit, `${ms} ms`).toBe(kept ? 4 : 2);
      if (!kept) continue;
      const keptAt = now();
      window(25);
      expect(c.limit, 'held').toBe(4);
      while (c.limit === 4) window(25);
      expect(c.changes.at(-1)).toMatchObject({ to: ADAPTIVE_MAX_SLOTS, why: 'doubled' });
      expect(c.changes.at(-1)!.at - keptAt).toBeGreaterThanOrEqual(HOLD_MS);
    }
  });

  it('falls back to the requests the server was serving when one waits long while others are answered, and holds long', () => {
    // Four slots at most: the last doubling kept, none under test.
    const { c, window, answer } = controller(4);
    while (c.limit < 4) window(25);
    window(25);
    expect(c.limit).toBe(4);
    const stuck = [c.sent(), c.sent()];
    // The other two slots keep being answered; the stuck ones pass STALL_MIN_MS (and 8 times the latency).
    answer(2 * (Math.ceil(STALL_MIN_MS / 25) + 1), 25, 2);
    expect(c.changes.at(-1)).toMatchObject({ to: 2, why: 'stalled' });
    expect(c.stalledInFlight).toBe(2);
    for (const t of stuck) c.answered(t);
    expect(c.stalledInFlight).toBe(0);
    expect(c.changes.at(-1)).toMatchObject({ to: 2, why: 'stalled' });
    const stalledAt = c.changes.at(-1)!.at;
    while (c.limit === 2) window(25);
    expect(c.changes.at(-1)!.at - stalledAt).toBeGreaterThanOrEqual(STALLED_HOLD_MS);
  });

  it('a request answered long after it was sent, others answered meanwhile, is a stall even when nothing else was in flight at its end (a batch waiting for its last)', () => {
    const { c, window, answer, tick } = controller();
    window(25);
    window(25);
    expect(c.limit).toBe(2);
    const stuck = c.sent();
    answer(7, 25, 1);
    // Nothing in flight but the stuck one: no answer shows its wait until its own.
    tick(IDLE_KEEP_ALIVE_MS);
    expect(c.limit).toBe(2);
    c.answered(stuck);
    expect(c.changes.at(-1)).toMatchObject({ to: 1, why: 'stalled' });
  });

  it('a request overtaken and then alone in flight is found stalled by the clock once its stall bound has passed (stallDueAt, checkStall), before any answer', () => {
    const { c, window, answer, tick, now } = controller();
    window(25);
    window(25);
    expect(c.limit).toBe(2);
    const stuck = c.sent();
    answer(7, 25, 1);
    const due = c.stallDueAt;
    expect(due).toBeGreaterThan(now());
    tick(due! - now());
    c.checkStall();
    expect(c.stalledInFlight, 'not before its bound has passed').toBe(0);
    expect(c.limit).toBe(2);
    tick(1);
    c.checkStall();
    expect(c.changes.at(-1)).toMatchObject({ to: 1, why: 'stalled' });
    expect(c.stalledInFlight, 'the client closes its idle connections now').toBe(1);
    expect(c.stallDueAt, 'counted once: nothing more to look for').toBeUndefined();
    c.answered(stuck);
    expect(c.stalledInFlight).toBe(0);
  });

  it('a request that ends without an answer after waiting long while others were answered is a stall; a refusal, a quick failure, or a timeout of a server that answers nothing is not', () => {
    // Two slots at most: the last doubling kept, none under test.
    const { c, window, answer, tick } = controller(2);
    while (c.limit < 2) window(25);
    window(25);
    const refused = c.sent();
    const quick = c.sent();
    tick(10);
    c.refused(refused);
    c.failed(quick);
    const silent = [c.sent(), c.sent()];
    tick(10_000);
    for (const t of silent) c.failed(t);
    expect(c.limit).toBe(2);
    const timedOut = c.sent();
    answer(10, 25, 1);
    tick(10_000);
    c.failed(timedOut);
    expect(c.changes.at(-1)).toMatchObject({ to: 1, why: 'stalled' });
  });

  it('a pause of the client\'s own (its CPU busy, a collection) is no stall: every request in flight is answered late at once, none promptly', () => {
    const { c, window, tick } = controller(4);
    while (c.limit < 4) window(25);
    window(25);
    const inFlight = [c.sent(), c.sent(), c.sent(), c.sent()];
    tick(4 * STALL_MIN_MS);
    for (const t of inFlight) c.answered(t);
    expect(c.limit).toBe(4);
    expect(c.changes.map((x) => x.why)).not.toContain('stalled');
  });

  it(`halves the slots when latency doubles without more throughput in ${RISE_WINDOWS} busy windows in a row, judged against the latency before the rise; one such window is not enough`, () => {
    const { c, window } = controller();
    while (c.limit < ADAPTIVE_MAX_SLOTS) window(25);
    window(25);
    // The same 8 slots take four times as long each, for one window: the client's own pause, maybe.
    window(100);
    window(25);
    expect(c.limit).toBe(ADAPTIVE_MAX_SLOTS);
    // Then for two.
    window(100);
    window(100);
    expect(c.changes.at(-1)).toMatchObject({ to: 4, why: 'latency-rose' });
    window(100);
    window(100);
    expect(c.changes.at(-1)).toMatchObject({ to: 2, why: 'latency-rose' });
  });

  it(`at a near server, jumps to --concurrency's default after the warm-up; neither a doubling that brought nothing nor a latency rise takes it below, a stall does`, () => {
    const { c, window, answer } = controller();
    window(1);
    expect(c.changes).toEqual([{ at: expect.any(Number), to: UNBOUNDED, why: 'near' }]);
    // Latency four times as long, throughput less: still near, still the default.
    for (let i = 0; i < 2 * RISE_WINDOWS; i += 1) window(4);
    expect(c.limit).toBe(UNBOUNDED);
    const stuck = c.sent();
    answer(3 * (STALL_MIN_MS + 1), 1, 3);
    expect(c.changes.at(-1)).toMatchObject({ to: 3, why: 'stalled' });
    c.answered(stuck);
  });

  describe('a request that waits for a connection, or for its own answer: the order connections are served in', () => {
    /** Four slots, kept: the last doubling judged, none under test; the requests below go on numbered connections. */
    function fourSlots() {
      const run = controller(4);
      while (run.c.limit < 4) run.window(25);
      run.window(25);
      expect(run.c.limit).toBe(4);
      /** One request after another on each of `ids` in turn, for at least `ms`, each answered after 25 ms. */
      const answeredOn = (ids: readonly number[], ms: number): void => {
        for (const end = run.now() + ms; run.now() <= end; ) {
          for (const id of ids) {
            const t = run.c.sent({ id });
            run.tick(25);
            run.c.answered(t);
          }
        }
      };
      return { ...run, answeredOn };
    }

    it('a request on a second connection, waiting while only the first is answered (one worker serving one connection at a time), is a stall: the slots fall to the one connection served, and stay when the request is answered at last', () => {
      const { c, answeredOn } = fourSlots();
      const waiting = c.sent({ id: 2 });
      answeredOn([1], STALL_MIN_MS + 25);
      expect(c.changes.at(-1)).toMatchObject({ to: 1, why: 'stalled' });
      expect(c.stalledInFlight).toBe(1);
      // The first connection closed (the client closes its idle ones): the worker takes the second.
      c.answered(waiting);
      expect(c.changes.at(-1)).toMatchObject({ to: 1, why: 'stalled' });
      expect(c.stalledInFlight).toBe(0);
    });

    it('a request that hangs on the first connection while connections opened after it are answered is no stall: the server has taken its connection, and the slots stay, its timeout included', () => {
      const { c, answeredOn, tick } = fourSlots();
      const hung = c.sent({ id: 1 });
      answeredOn([2, 3], 4 * STALL_MIN_MS);
      expect(c.stalledInFlight).toBe(0);
      tick(10_000);
      c.failed(hung);
      expect(c.limit).toBe(4);
      expect(c.changes.map((x) => x.why)).not.toContain('stalled');
    });

    it('a request that hangs on the newest connection looks like a stall; a connection opened after it, answered while it stays unanswered a stall bound longer, shows it hangs, and the stall is undone', () => {
      const { c, answeredOn } = fourSlots();
      const hung = c.sent({ id: 4 });
      answeredOn([1, 2, 3], STALL_MIN_MS + 25);
      // Three connections were answered at once while it waited: the slots fall to them, not to one.
      expect(c.changes.at(-1)).toMatchObject({ to: 3, why: 'stalled' });
      expect(c.stalledInFlight).toBe(1);
      // The idle connections closed, the next request goes out on a new one, and is answered.
      answeredOn([5], 0);
      expect(c.stalledInFlight, 'it waits for a connection no more').toBe(0);
      expect(c.changes.at(-1)).toMatchObject({ why: 'stalled' });
      answeredOn([5], STALL_MIN_MS);
      expect(c.changes.at(-1)).toMatchObject({ to: 4, why: 'hung' });
      c.failed(hung);
      expect(c.limit).toBe(4);
    });

    it('a stalled request whose connection the server takes only once the stall closed another is answered within the stall bound: the stall stands', () => {
      const { c, answeredOn } = fourSlots();
      const waiting = c.sent({ id: 4 });
      answeredOn([1, 2, 3], STALL_MIN_MS + 25);
      expect(c.changes.at(-1)).toMatchObject({ to: 3, why: 'stalled' });
      // A server of three connections at a time took the waiting one and a new one when two closed.
      answeredOn([5], 0);
      c.answered(waiting);
      answeredOn([5], STALL_MIN_MS);
      expect(c.changes.at(-1)).toMatchObject({ to: 3, why: 'stalled' });
    });

    it('when every slot but the one answered holds a stalled request, one request more is asked for, once until it ends; answered on a new connection, it shows them taken, and their timeouts undo the stall', () => {
      const { c, answeredOn, tick } = fourSlots();
      const hung = [c.sent({ id: 2 }), c.sent({ id: 3 })];
      answeredOn([1], STALL_MIN_MS + 25);
      expect(c.changes.at(-1)).toMatchObject({ to: 1, why: 'stalled' });
      expect(c.stalledInFlight).toBe(2);
      expect(c.checkNow()).toBe(true);
      expect(c.checkNow(), 'once').toBe(false);
      // The idle connections closed, it goes out on a new one: while it is in flight they stay closed.
      const check = c.sent({ id: 4 });
      expect(c.stalledInFlight).toBe(3);
      tick(25);
      c.answered(check);
      expect(c.stalledInFlight).toBe(0);
      expect(c.checkNow(), 'nothing left to show').toBe(false);
      tick(10_000);
      for (const t of hung) c.failed(t);
      expect(c.changes.at(-1)).toMatchObject({ to: 4, why: 'hung' });
    });

    it('at a server serving one connection at a time, the request asked for waits behind the stalled ones, which are answered in turn: the stall stands, and no further one is asked for', () => {
      const { c, answeredOn, tick } = fourSlots();
      const waiting = [c.sent({ id: 2 }), c.sent({ id: 3 })];
      answeredOn([1], STALL_MIN_MS + 25);
      expect(c.checkNow()).toBe(true);
      const check = c.sent({ id: 4 });
      for (const t of waiting) {
        tick(25);
        c.answered(t);
      }
      expect(c.checkNow()).toBe(false);
      expect(c.stalledInFlight, 'the idle connections still close while it waits').toBe(1);
      tick(25);
      c.answered(check);
      expect(c.stalledInFlight).toBe(0);
      expect(c.changes.at(-1)).toMatchObject({ to: 1, why: 'stalled' });
    });

    it('a request that ends after waiting while only an older connection was answered is no stall while another request in flight hangs (seen taken, and unanswered a stall bound since): the server holds it while answering others, which one serving one connection at a time never does', () => {
      const { c, answeredOn, tick } = fourSlots();
      const hung = c.sent({ id: 1 });
      const waiting = c.sent({ id: 3 });
      answeredOn([2], 100);
      tick(10_000);
      c.failed(waiting);
      expect(c.changes.map((x) => x.why)).not.toContain('stalled');
      c.failed(hung);
      expect(c.limit).toBe(4);
    });

    it('a request that ends after waiting while others were answered falls back to as many connections as were answered at once meanwhile: two in turn, two; one after the other (the first closed), one', () => {
      for (const [ids, to] of [[[1, 2], 2], [[1], 1]] as const) {
        const { c, answeredOn, tick } = fourSlots();
        const waiting = c.sent({ id: 3 });
        answeredOn(ids, 100);
        if (to === 1) answeredOn([2], 50);
        // Nothing else to send, then its timeout: the stall shows only at its end.
        tick(10_000);
        c.failed(waiting);
        expect(c.changes.at(-1), ids.join(',')).toMatchObject({ to, why: 'stalled' });
      }
    });
  });
});
