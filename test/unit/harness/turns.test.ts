/**
 * Turns: tests that share something take it together when their requests cannot change it, one
 * at a time when they may, in the order they asked, an error ending only its own turn.
 */
import { describe, expect, it } from 'vitest';
import { Turns } from '../../../src/harness/turns.ts';
import { deferred, settled, type Deferred } from '../support/deferred.ts';

/** A turn held open until the test ends it. */
interface Held {
  readonly done: Promise<string>;
  readonly finish: Deferred<string>;
  hasStarted(): boolean;
}

function hold(take: (fn: () => Promise<string>) => Promise<string>): Held {
  const finish = deferred<string>();
  let began = false;
  const done = take(() => {
    began = true;
    return finish.promise;
  });
  return { done, finish, hasStarted: () => began };
}

describe('Turns', () => {
  it('turns taken together run side by side', async () => {
    const turns = new Turns();
    const [a, b] = [hold((fn) => turns.together(fn)), hold((fn) => turns.together(fn))];
    await settled();
    expect([a.hasStarted(), b.hasStarted()]).toEqual([true, true]);
    a.finish.resolve('a');
    b.finish.resolve('b');
    expect(await Promise.all([a.done, b.done])).toEqual(['a', 'b']);
  });

  it('a turn alone waits for the turns before it and holds back those after it, of either kind', async () => {
    const turns = new Turns();
    const reader = hold((fn) => turns.together(fn));
    const alone = hold((fn) => turns.alone(fn));
    const [after, otherAlone] = [hold((fn) => turns.together(fn)), hold((fn) => turns.alone(fn))];
    await settled();
    expect([reader.hasStarted(), alone.hasStarted(), after.hasStarted(), otherAlone.hasStarted()]).toEqual([true, false, false, false]);
    reader.finish.resolve('r');
    await settled();
    expect([alone.hasStarted(), after.hasStarted()]).toEqual([true, false]);
    alone.finish.resolve('w');
    await settled();
    expect([after.hasStarted(), otherAlone.hasStarted()]).toEqual([true, false]);
    after.finish.resolve('r2');
    await settled();
    expect(otherAlone.hasStarted()).toBe(true);
    otherAlone.finish.resolve('w2');
    expect(await Promise.all([reader.done, alone.done, after.done, otherAlone.done])).toEqual(['r', 'w', 'r2', 'w2']);
  });

  it('a turn that throws ends, and the next one starts', async () => {
    const turns = new Turns();
    const failing = turns.alone(async () => {
      throw new Error('the test failed');
    });
    await expect(failing).rejects.toThrow('the test failed');
    expect(await turns.together(async () => 'next')).toBe('next');
    expect(await turns.alone(async () => 'alone')).toBe('alone');
  });

  it('a turn taken together after the last one ended starts at once', async () => {
    const turns = new Turns();
    expect(await turns.together(async () => 'first')).toBe('first');
    const later = hold((fn) => turns.together(fn));
    await settled();
    expect(later.hasStarted()).toBe(true);
    later.finish.resolve('later');
    expect(await later.done).toBe('later');
  });
});
