/** One exchange's time box (src/http/time-box.ts): it aborts as AbortSignal.timeout() does, its clock stops while the suite holds the exchange back, and the run's deadline still holds. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TimeBox } from '../../../src/http/time-box.ts';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A wait of `ms` on the fake clock, resolved when the test advances it. */
const waitOf = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('TimeBox', () => {
  it('aborts with a TimeoutError once its time is up, as AbortSignal.timeout() does', () => {
    const box = new TimeBox(100);
    vi.advanceTimersByTime(99);
    expect(box.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect([box.signal.aborted, (box.signal.reason as Error).name, box.byDeadline]).toEqual([true, 'TimeoutError', false]);
  });

  it('does not run while the suite holds the exchange back: the time left before the wait is the time left after it', async () => {
    const box = new TimeBox(100);
    vi.advanceTimersByTime(40);
    const held = box.stopped(() => waitOf(500));
    await vi.advanceTimersByTimeAsync(500);
    await held;
    expect(box.signal.aborted, 'a wait five times the box is not charged to it').toBe(false);
    vi.advanceTimersByTime(59);
    expect(box.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(box.signal.aborted).toBe(true);
  });

  it('a box closed once its exchange is over never aborts', () => {
    const box = new TimeBox(100, Date.now() + 50);
    box.close();
    vi.advanceTimersByTime(1_000);
    expect(box.signal.aborted).toBe(false);
  });

  it('never runs past the run\'s deadline, a wait included, and says the deadline ended it', async () => {
    const box = new TimeBox(1_000, Date.now() + 100);
    const held = box.stopped(() => waitOf(300));
    await vi.advanceTimersByTimeAsync(99);
    expect(box.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect([box.signal.aborted, box.byDeadline], 'at the deadline, in the middle of the wait').toEqual([true, true]);
    await vi.advanceTimersByTimeAsync(200);
    await held;
  });

  it('a timer that fires before Date.now() reaches the deadline does not end the exchange: it waits out the rest', () => {
    const deadline = Date.now() + 100;
    const box = new TimeBox(1_000, deadline);
    // The wall clock a millisecond behind the timers' clock, as Node's timers fire on about 1 run in 300.
    const timersNow = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => timersNow() - 1);
    vi.advanceTimersByTime(100);
    expect([box.signal.aborted, Date.now()], 'the timer fired, the deadline not yet reached').toEqual([false, deadline - 1]);
    vi.advanceTimersByTime(1);
    expect([box.signal.aborted, box.byDeadline, Date.now()]).toEqual([true, true, deadline]);
  });
});
