import { describe, expect, it } from 'vitest';
import { Limiter } from '../../../src/http/limiter.ts';

/** A task the test finishes by hand, and whether it has started. */
function gated(): { started: boolean; finish: () => void; run: () => Promise<void> } {
  let finish!: () => void;
  const task = { started: false, finish: () => finish(), run: () => new Promise<void>((resolve) => ((task.started = true), (finish = resolve))) };
  return task;
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('Limiter', () => {
  it('runs at most max at once, the others in FIFO order as slots free', async () => {
    const limiter = new Limiter(2);
    const tasks = [gated(), gated(), gated()];
    const done = tasks.map((t) => limiter.run(t.run));
    await tick();
    expect(tasks.map((t) => t.started)).toEqual([true, true, false]);
    tasks[0]!.finish();
    await tick();
    expect(tasks[2]!.started).toBe(true);
    tasks[1]!.finish();
    tasks[2]!.finish();
    await Promise.all(done);
  });

  it('growing lets waiters in at once; shrinking takes effect as holders leave', async () => {
    const limiter = new Limiter(1);
    const tasks = [gated(), gated(), gated(), gated()];
    const done = tasks.map((t) => limiter.run(t.run));
    await tick();
    expect(tasks.map((t) => t.started)).toEqual([true, false, false, false]);
    limiter.resize(3);
    await tick();
    expect(tasks.map((t) => t.started)).toEqual([true, true, true, false]);
    limiter.resize(1);
    tasks[0]!.finish();
    tasks[1]!.finish();
    await tick();
    // Two left, one still running: over the new size of 1, so the fourth still waits.
    expect(tasks[3]!.started).toBe(false);
    tasks[2]!.finish();
    await tick();
    expect(tasks[3]!.started).toBe(true);
    tasks[3]!.finish();
    await Promise.all(done);
  });

  it('letOneIn lets the first waiter in beyond the limit, whose slot is given up when it leaves; with none waiting it lets none', async () => {
    const limiter = new Limiter(1);
    const tasks = [gated(), gated(), gated()];
    const done = tasks.map((t) => limiter.run(t.run));
    await tick();
    expect(limiter.letOneIn()).toBe(true);
    await tick();
    expect(tasks.map((t) => t.started)).toEqual([true, true, false]);
    tasks[1]!.finish();
    await tick();
    // Two held one slot: the one let in gave its slot up.
    expect(tasks[2]!.started).toBe(false);
    tasks[0]!.finish();
    await tick();
    expect(tasks[2]!.started).toBe(true);
    expect(limiter.letOneIn()).toBe(false);
    tasks[2]!.finish();
    await Promise.all(done);
  });
});
