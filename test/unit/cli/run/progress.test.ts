/**
 * The run's progress line (cli/run/progress.ts): every PROGRESS_EVERY_MS (10–15 s) from the first
 * request to the summary, the current phase's own words, the requests of the whole run and their
 * pace since the line before; driven by an injected clock and timer (no sleep), stopped before
 * the summary.
 */
import { describe, expect, it, vi } from 'vitest';
import { PROGRESS_EVERY_MS, RunProgress, unrefEvery } from '../../../../src/cli/run/progress.ts';

function harness() {
  let now = 1_000;
  let requests = 40;
  const written: string[] = [];
  const timers: Array<{ ms: number; tick: () => void; stopped: boolean }> = [];
  const progress = new RunProgress({
    write: (l) => written.push(l),
    now: () => now,
    every: (ms, tick) => {
      const t = { ms, tick, stopped: false };
      timers.push(t);
      return () => void (t.stopped = true);
    },
    requests: () => requests,
  });
  const advance = (ms: number, sent: number): void => {
    now += ms;
    requests += sent;
    for (const t of timers.filter((x) => !x.stopped)) t.tick();
  };
  return { progress, written, timers, advance };
}

describe('the progress line', () => {
  it('every 10–15 s, says the phase in its own words, the run\'s requests and their pace since the line before, through every phase until stopped', () => {
    const { progress, written, timers, advance } = harness();
    progress.phase(() => 'checking the target');
    progress.start();
    progress.start();
    expect(timers, 'one timer').toHaveLength(1);
    expect(timers[0]!.ms).toBe(PROGRESS_EVERY_MS);
    expect(PROGRESS_EVERY_MS).toBeGreaterThanOrEqual(10_000);
    expect(PROGRESS_EVERY_MS).toBeLessThanOrEqual(15_000);
    advance(12_000, 60);
    let done = 3;
    progress.phase(() => `${done} of 42 rules done`);
    advance(12_000, 600);
    done = 9;
    advance(12_000, 240);
    let step = 'proving each deleted widget gone';
    progress.phase(() => `cleanup: ${step}`);
    advance(12_000, 120);
    step = 'walking every account';
    advance(12_000, 24);
    progress.phase(() => 'writing the reports: exchanges.har (5 of 6)');
    advance(12_000, 0);
    expect(written).toEqual([
      '… 12 s: checking the target; 100 requests (5.0/s lately)',
      '… 24 s: 3 of 42 rules done; 700 requests (50/s lately)',
      '… 36 s: 9 of 42 rules done; 940 requests (20/s lately)',
      '… 48 s: cleanup: proving each deleted widget gone; 1060 requests (10/s lately)',
      '… 60 s: cleanup: walking every account; 1084 requests (2.0/s lately)',
      '… 72 s: writing the reports: exchanges.har (5 of 6); 1084 requests (0.0/s lately)',
    ]);
    progress.stop();
    expect(timers[0]!.stopped).toBe(true);
    advance(12_000, 5);
    expect(written).toHaveLength(6);
  });

  it('a real timer never keeps the process alive', () => {
    const spy = vi.spyOn(globalThis, 'setInterval');
    const stop = unrefEvery(60_000, () => undefined);
    const timer = spy.mock.results[0]?.value as NodeJS.Timeout;
    spy.mockRestore();
    expect(timer.hasRef()).toBe(false);
    stop();
  });
});
