/** Never a silent pass: the guard's exit code is failure until the verdict settles it (src/cli/run/verdict-guard.ts). */
import { EventEmitter } from 'node:events';
import { describe, expect, test } from 'vitest';
import { guardVerdict, NO_VERDICT_EXIT } from '../../../../src/cli/run/verdict-guard.ts';

/** A stand-in for `process`: its events, exit code, exit() and stderr, recorded. */
function fakeProcess() {
  const proc = new EventEmitter() as EventEmitter & { exitCode?: number; exits: number[]; written: string[] };
  proc.exits = [];
  proc.written = [];
  Object.assign(proc, {
    stderr: { write: (text: string) => proc.written.push(text) },
    exit: (code: number) => {
      proc.exits.push(code);
      proc.emit('exit', code);
    },
  });
  return proc;
}

describe('verdict guard', () => {
  test('arming it sets the exit code to failure before anything else runs', () => {
    const proc = fakeProcess();
    guardVerdict('wc', proc as unknown as NodeJS.Process);
    expect(proc.exitCode).toBe(NO_VERDICT_EXIT);
  });

  test('an empty event loop before the verdict (a promise never settled) exits 3 with one line saying why', () => {
    const proc = fakeProcess();
    guardVerdict('wc', proc as unknown as NodeJS.Process);
    proc.emit('beforeExit', NO_VERDICT_EXIT);
    expect(proc.exits).toEqual([NO_VERDICT_EXIT]);
    expect(proc.written).toHaveLength(1);
    expect(proc.written[0]).toMatch(/^wc: the run ended without a verdict: .*never/);
  });

  test('an exit 0 before the verdict is turned into failure, with one line', () => {
    const proc = fakeProcess();
    guardVerdict('wc', proc as unknown as NodeJS.Process);
    proc.exitCode = 0;
    proc.emit('exit', 0);
    expect(proc.exitCode).toBe(NO_VERDICT_EXIT);
    expect(proc.written.join('')).toMatch(/^wc: the run ended without a verdict: .*exit code 0/);
  });

  test('a non-zero exit before the verdict (a usage error) keeps its own code and adds nothing', () => {
    const proc = fakeProcess();
    guardVerdict('wc', proc as unknown as NodeJS.Process);
    proc.exitCode = 2;
    proc.emit('exit', 2);
    expect(proc.exitCode).toBe(2);
    expect(proc.written).toEqual([]);
  });

  test('once settled, the verdict exit code stands and nothing is written', () => {
    const proc = fakeProcess();
    const guard = guardVerdict('wc', proc as unknown as NodeJS.Process);
    guard.settle();
    proc.exitCode = 0;
    proc.emit('beforeExit', 0);
    proc.emit('exit', 0);
    expect(proc.exitCode).toBe(0);
    expect(proc.exits).toEqual([]);
    expect(proc.written).toEqual([]);
  });
});
