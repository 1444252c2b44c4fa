/**
 * Lists that catch up late (harness/settle.ts): the list is walked again with back-off until it
 * catches up or the bound passes, and the words say which: "appeared in the list N ms after
 * create", "still listed after N s", with the settle window when one was set.
 */
import { describe, expect, it } from 'vitest';
import type { WidgetApi } from '../../../src/client/api.ts';
import type { WalkResult } from '../../../src/client/walk.ts';
import type { RuleContext } from '../../../src/harness/rule.ts';
import { describeLateness, FIRST_PAUSE_MS, lookAgain, withinWindow } from '../../../src/harness/settle.ts';

/** A rule context whose list walks come from `walks`, one per call (the last repeats). */
function context(listSettleMs: number, walks: ReadonlyArray<'caught-up' | 'late' | 'cut'>): RuleContext & { calls: number[] } {
  const calls: number[] = [];
  const walk = (kind: string): WalkResult => ({ pages: [], widgets: new Map(kind === 'caught-up' ? [['w', {}]] : []), duplicates: new Map(), end: { kind: kind === 'cut' ? 'stopped' : 'complete' } } as unknown as WalkResult);
  return {
    settings: { listSettleMs },
    calls,
    listAfter: async (_api: WidgetApi, since: number) => {
      calls.push(since);
      return walk(walks[Math.min(calls.length - 1, walks.length - 1)]!);
    },
  } as unknown as RuleContext & { calls: number[] };
}

const api = {} as WidgetApi;
const listed = (w: WalkResult): boolean => w.widgets.has('w');

describe('looking again at a list', () => {
  it('walks again with growing pauses until the list catches up, and says how long after the write', async () => {
    const t = context(0, ['late', 'late', 'caught-up']);
    const writtenAt = performance.now();
    const late = await lookAgain(t, api, 'create', writtenAt, listed, writtenAt + 5_000);
    expect(late).toMatchObject({ write: 'create', caughtUp: true, walks: 3 });
    // Pauses of 50, 100 and 200 ms before the three walks: at least their sum.
    expect(late.afterMs).toBeGreaterThanOrEqual(FIRST_PAUSE_MS * 7 - 5);
    expect(t.calls[2]! - t.calls[1]!).toBeGreaterThan(t.calls[1]! - t.calls[0]! - 5);
    expect(describeLateness(t, late)).toMatch(/^appeared in the list \d+ ms after create, looked again 3 time\(s\) \(without --list-settle-ms, a list must show it at once\)$/);
    expect(withinWindow(t, late)).toBe(false);
  });

  it('gives up at the bound and says the list never caught up; a walk cut short never counts as caught up', async () => {
    const t = context(300, ['cut', 'late']);
    const writtenAt = performance.now();
    const never = await lookAgain(t, api, 'delete', writtenAt, () => false, writtenAt + 400);
    expect(never.caughtUp).toBe(false);
    expect(never.afterMs).toBeGreaterThanOrEqual(400);
    expect(describeLateness(t, never)).toMatch(/^still listed after \d+ ms, looked again \d+ time\(s\) \(lists judged with a settle window of 300 ms\)$/);
    expect(withinWindow(t, never)).toBe(false);
  });

  it('accepts a list that caught up within the window, and only then', async () => {
    const t = context(2_000, ['caught-up']);
    const writtenAt = performance.now();
    const late = await lookAgain(t, api, 'create', writtenAt, listed, writtenAt + 2_000);
    expect(withinWindow(t, late)).toBe(true);
    expect(withinWindow(t, { ...late, afterMs: 2_001 })).toBe(false);
    expect(describeLateness(t, { ...late, afterMs: 2_500 })).toContain('later than the window');
  });
});
