/**
 * WalkGate: the walks that must see every widget run only while none of the suite's own
 * writes is in flight, without starving either side.
 */
import { describe, expect, it } from 'vitest';
import { WalkGate } from '../../../src/harness/walk-gate.ts';
import { deferred, settled, type Deferred } from '../support/deferred.ts';

/** A write or walk held open until the test ends it, and a promise of its start. */
interface Held {
  readonly started: Promise<void>;
  readonly done: Promise<string>;
  readonly finish: Deferred<string>;
  hasStarted(): boolean;
}

function hold(run: (fn: () => Promise<string>) => Promise<string>): Held {
  const start = deferred();
  const finish = deferred<string>();
  let began = false;
  const done = run(() => {
    began = true;
    start.resolve();
    return finish.promise;
  });
  return { started: start.promise, done, finish, hasStarted: () => began };
}

describe('WalkGate', () => {
  it('a walk waits for writes in flight', async () => {
    const gate = new WalkGate();
    const write = hold((fn) => gate.write(fn));
    await write.started;
    const walk = hold((fn) => gate.quiet(fn));
    await settled();
    expect(walk.hasStarted()).toBe(false);
    write.finish.resolve('written');
    await walk.started;
    expect(await write.done).toBe('written');
  });

  it('a write waits while a walk runs', async () => {
    const gate = new WalkGate();
    const walk = hold((fn) => gate.quiet(fn));
    await walk.started;
    const write = hold((fn) => gate.write(fn));
    await settled();
    expect(write.hasStarted()).toBe(false);
    walk.finish.resolve('walked');
    await write.started;
    expect(await walk.done).toBe('walked');
  });

  it('a write asked for while a walk waits on earlier writes goes after that walk, so walks are not starved', async () => {
    const gate = new WalkGate();
    const order: string[] = [];
    const first = hold((fn) => gate.write(fn));
    await first.started;
    const walk = hold((fn) => gate.quiet(fn));
    const second = hold((fn) => gate.write(fn));
    void walk.started.then(() => order.push('walk'));
    void second.started.then(() => order.push('second write'));
    await settled();
    expect([walk.hasStarted(), second.hasStarted()]).toEqual([false, false]);
    first.finish.resolve('first');
    await walk.started;
    await settled();
    expect(second.hasStarted()).toBe(false);
    walk.finish.resolve('walked');
    await second.started;
    expect(order).toEqual(['walk', 'second write']);
  });

  it('several walks run together', async () => {
    const gate = new WalkGate();
    const first = hold((fn) => gate.quiet(fn));
    await first.started;
    const second = hold((fn) => gate.quiet(fn));
    await second.started;
    expect(first.hasStarted() && second.hasStarted()).toBe(true);
    first.finish.resolve('one');
    second.finish.resolve('two');
    expect(await Promise.all([first.done, second.done])).toEqual(['one', 'two']);
  });

  it('several writes run together', async () => {
    const gate = new WalkGate();
    const first = hold((fn) => gate.write(fn));
    await first.started;
    const second = hold((fn) => gate.write(fn));
    await second.started;
    first.finish.resolve('one');
    second.finish.resolve('two');
    expect(await Promise.all([first.done, second.done])).toEqual(['one', 'two']);
  });

  it('a write that throws passes its error on and lets the waiting walk run', async () => {
    const gate = new WalkGate();
    const write = hold((fn) => gate.write(fn));
    await write.started;
    const walk = hold((fn) => gate.quiet(fn));
    const failure = new Error('create refused');
    write.finish.reject(failure);
    await expect(write.done).rejects.toBe(failure);
    await walk.started;
  });

  it('a walk that throws passes its error on and lets the waiting write run', async () => {
    const gate = new WalkGate();
    const walk = hold((fn) => gate.quiet(fn));
    await walk.started;
    const write = hold((fn) => gate.write(fn));
    const failure = new Error('list timed out');
    walk.finish.reject(failure);
    await expect(walk.done).rejects.toBe(failure);
    await write.started;
  });
});
