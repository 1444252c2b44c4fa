import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DECREASE_FACTOR, MIN_RATE, Pacer, STATED_RATE_MARGIN } from '../../../src/http/pacer.ts';

/** A pacer on a clock the test moves: sleeping advances it, so nothing waits for real. */
function clocked(options: { maxRate?: number } = {}): { pacer: Pacer; clock: { now: number }; sends: number[] } {
  const clock = { now: 0 };
  const sends: number[] = [];
  const pacer = new Pacer({
    ...options,
    now: () => clock.now,
    sleep: async (ms) => {
      clock.now += ms;
    },
  });
  const acquire = pacer.acquire.bind(pacer);
  pacer.acquire = async (until?: number) => {
    const granted = await acquire(until);
    if (granted) sends.push(clock.now);
    return granted;
  };
  return { pacer, clock, sends };
}

describe('Pacer: the shared token bucket', () => {
  it('unpaced, it lets every request go at once', async () => {
    const { pacer, sends } = clocked();
    for (let i = 0; i < 100; i++) await pacer.acquire();
    expect(sends.every((t) => t === 0)).toBe(true);
    expect(pacer.pacedRate).toBeUndefined();
  });

  it('--max-rate spaces requests evenly at that rate', async () => {
    const { pacer, sends } = clocked({ maxRate: 40 });
    for (let i = 0; i < 41; i++) await pacer.acquire();
    expect(sends.at(-1)).toBeCloseTo(1000, 6);
    expect(pacer.pacedRate).toBe(40);
  });

  it('a stated RateLimit-Policy caps the rate below the statement, never above --max-rate', () => {
    const { pacer } = clocked({ maxRate: 20 });
    pacer.onAccepted({ rate: 40 });
    expect(pacer.currentRate).toBe(20);
    const free = clocked().pacer;
    free.onAccepted({ rate: 40 });
    expect(free.currentRate).toBeCloseTo(40 * STATED_RATE_MARGIN, 6);
  });

  it('a 429 that asks for a wait cuts the rate to a share of the rate sent; a second within the interval does not cut again', async () => {
    const { pacer, clock } = clocked();
    // 100 requests over one second: measured 100 per second.
    for (let i = 0; i < 100; i++) {
      await pacer.acquire();
      clock.now += 10;
    }
    pacer.onRefused(1000);
    expect(pacer.currentRate).toBeCloseTo(100 * DECREASE_FACTOR, 0);
    pacer.onRefused(1000);
    expect(pacer.currentRate).toBeCloseTo(100 * DECREASE_FACTOR, 0);
    expect(pacer.refused).toBe(2);
  });

  it('a 429 just after a Retry-After pause reads the rate sent while not paused, not the pause as a slow rate', async () => {
    const { pacer, clock } = clocked();
    // One second at 100/s, refused: paced at 70/s, and everyone waits out a Retry-After of 1 s.
    for (let i = 0; i < 100; i++) {
      await pacer.acquire();
      clock.now += 10;
    }
    pacer.onRefused(1000);
    expect(pacer.pause(1000, 60_000)).toBeUndefined();
    // After the pause (and past the decrease interval), 40 requests at the paced rate, then refused again.
    for (let i = 0; i < 40; i++) await pacer.acquire();
    pacer.onRefused(1000);
    // Over the last second, 40 sends took about 0.56 s of unpaused time: about 70/s, cut to about 49/s.
    // Read over the whole second, pause included, it would have been 40/s, cut to 28/s.
    expect(pacer.currentRate).toBeCloseTo(70 * DECREASE_FACTOR, 0);
    expect(pacer.currentRate).toBeGreaterThan(40);
  });

  it('a 429 with too little unpaused sending since a pause keeps the rate in force as the rate refused', async () => {
    const { pacer, clock } = clocked({ maxRate: 50 });
    for (let i = 0; i < 60; i++) await pacer.acquire();
    expect(pacer.pause(2000, 60_000)).toBeUndefined();
    await pacer.acquire();
    clock.now += 100;
    pacer.onRefused(1000);
    expect(pacer.currentRate).toBeCloseTo(50 * DECREASE_FACTOR, 6);
  });

  it('a refusal without Retry-After of a request sent after the last cut cuts again at once; one sent before it does not', async () => {
    const { pacer, clock } = clocked();
    for (let i = 0; i < 100; i++) {
      await pacer.acquire();
      clock.now += 10;
    }
    const before = clock.now - 5;
    pacer.onRefused(undefined, before);
    const first = pacer.currentRate;
    expect(first).toBeCloseTo(100 * DECREASE_FACTOR, 0);
    // Sent at the old rate, refused just after the cut: nothing new.
    clock.now += 10;
    pacer.onRefused(undefined, before);
    expect(pacer.currentRate).toBe(first);
    // Sent at the lowered rate and refused all the same: the rate is still too high.
    const sentAt = clock.now;
    clock.now += 10;
    pacer.onRefused(undefined, sentAt);
    expect(pacer.currentRate).toBeCloseTo(first * DECREASE_FACTOR, 6);
    // With Retry-After the interval holds: the pause, not the pace, answers it.
    pacer.onRefused(1000, clock.now);
    expect(pacer.currentRate).toBeCloseTo(first * DECREASE_FACTOR, 6);
    expect(pacer.refused).toBe(4);
  });

  it('a 429 with Retry-After: 0 is counted but does not slow the run: the server sheds load, it names no rate', async () => {
    const { pacer } = clocked();
    await pacer.acquire();
    pacer.onRefused(0);
    expect(pacer.refused).toBe(1);
    expect(pacer.currentRate).toBe(Number.POSITIVE_INFINITY);
  });

  it('accepted answers raise the rate additively, up to the ceiling', () => {
    const { pacer } = clocked({ maxRate: 12 });
    pacer.onRefused(undefined);
    const low = pacer.currentRate;
    for (let i = 0; i < 1000; i++) pacer.onAccepted();
    expect(pacer.currentRate).toBeGreaterThan(low);
    expect(pacer.currentRate).toBeLessThanOrEqual(12);
  });

  it('a pause holds every request until it ends, and counts its wall-clock time once however many wait', async () => {
    const { pacer, sends } = clocked();
    expect(pacer.pause(1000, 10_000)).toBeUndefined();
    expect(pacer.pause(1000, 10_000)).toBeUndefined();
    await Promise.all([pacer.acquire(), pacer.acquire(), pacer.acquire()]);
    expect(Math.min(...sends)).toBeGreaterThanOrEqual(1000);
    expect(pacer.blockedMs).toBe(1000);
  });

  it('a slot past the deadline is refused at once, not waited for', async () => {
    const { pacer, clock } = clocked({ maxRate: 1 });
    expect(await pacer.acquire(500)).toBe(true);
    expect(await pacer.acquire(500)).toBe(false);
    expect(clock.now).toBe(0);
  });

  it('once stopped, every waiter is let go at once with false: a given-up target costs no more waiting', async () => {
    // A real clock here: the waiter must be woken, not reach its slot.
    const pacer = new Pacer({ maxRate: 1 });
    expect(await pacer.acquire()).toBe(true);
    const started = performance.now();
    const waiting = pacer.acquire();
    pacer.stop();
    expect(await waiting).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('a pause past the budget is refused, says what was left, and blocks nothing', () => {
    const { pacer } = clocked();
    expect(pacer.pause(600, 1000)).toBeUndefined();
    expect(pacer.pause(1500, 1000)).toEqual({ refused: true, left: 400 });
    expect(pacer.blockedMs).toBe(600);
  });

  it('a budget of exactly one pause pays for it at any clock reading (no floating-point remainder of now + ms - now)', () => {
    // 3897.751043693964 + 250 - 3897.751043693964 is 250.00000000000045: a pause of 250 ms then
    // cost more than a budget of 250 ms, once in about 200 runs of the client's budget test.
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e7, noNaN: true }), fc.integer({ min: 1, max: 10_000 }), (now, ms) => {
        const pacer = new Pacer({ now: () => now });
        expect(pacer.pause(ms, ms)).toBeUndefined();
        expect(pacer.blockedMs).toBe(ms);
      }),
      { examples: [[3897.751043693964, 250]] },
    );
  });

  it('property: whatever the refusals and answers, the rate stays within [MIN_RATE, --max-rate] and the blocked time within the budget', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1000 }),
        fc.array(fc.oneof(fc.constant<'ok'>('ok'), fc.record({ wait: fc.option(fc.integer({ min: 0, max: 5000 }), { nil: undefined }) }), fc.record({ policy: fc.double({ min: 0.01, max: 1e6, noNaN: true }) })), { maxLength: 200 }),
        async (maxRate, events) => {
          const { pacer, clock } = clocked({ maxRate });
          const budget = 3000;
          for (const e of events) {
            await pacer.acquire();
            clock.now += 7;
            if (e === 'ok') pacer.onAccepted();
            else if ('policy' in e) pacer.onAccepted({ rate: e.policy });
            else {
              pacer.onRefused(e.wait);
              if (e.wait !== undefined) pacer.pause(e.wait, budget);
            }
            expect(pacer.currentRate).toBeGreaterThanOrEqual(MIN_RATE);
            expect(pacer.currentRate).toBeLessThanOrEqual(maxRate);
            expect(pacer.blockedMs).toBeLessThanOrEqual(budget);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('Pacer: a proven write goes first', () => {
  /** A pacer whose sleeps end only when the test moves its clock past them. */
  function manual(maxRate: number): { pacer: Pacer; tick: (ms: number) => Promise<void> } {
    const clock = { now: 0 };
    const timers: Array<{ at: number; wake: () => void }> = [];
    const pacer = new Pacer({ maxRate, now: () => clock.now, sleep: (ms) => new Promise<void>((wake) => void timers.push({ at: clock.now + ms, wake })) });
    const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
    return {
      pacer,
      tick: async (ms) => {
        clock.now += ms;
        const due = timers.filter((t) => t.at <= clock.now);
        for (const t of due) timers.splice(timers.indexOf(t), 1);
        for (const t of due) t.wake();
        await settle();
      },
    };
  }

  it('a priority request waiting for the next token takes it before every ordinary request that waited longer', async () => {
    const { pacer, tick } = manual(10);
    const granted: string[] = [];
    const take = (name: string, priority = false): Promise<void> => pacer.acquire(Number.POSITIVE_INFINITY, priority).then(() => void granted.push(name));
    await take('first');
    const waiting = [take('list 1'), take('list 2'), take('list 3')];
    await tick(0);
    const write = take('proven write', true);
    for (let i = 0; i < 6; i += 1) await tick(100);
    await Promise.all([...waiting, write]);
    expect(granted).toEqual(['first', 'proven write', 'list 1', 'list 2', 'list 3']);
  });
});
