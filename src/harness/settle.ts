/**
 * Lists that catch up late (docs/profile.md): when a widget the suite created is missing from a
 * list, or one it deleted is still listed, the list is walked again with back-off, bounded, to
 * say what happened: "appeared in the list 310 ms after create", "still listed after 5 s". By
 * default the verdict stays a failure; --list-settle-ms N accepts a list that caught up within N
 * ms. Either way the profile records the lag. Called from every check that judges "not listed"
 * or "still listed", so the waiting lives here and nowhere else.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { WidgetApi } from '../client/api.ts';
import type { WalkResult } from '../client/walk.ts';
import { runContext } from './context.ts';
import type { RuleContext } from './rule-context.ts';

/** How long the suite keeps looking to diagnose a late list when no longer settle window was asked for. */
export const DIAGNOSE_MS = 5_000;
/** The first pause between walks; each further pause doubles, up to MAX_PAUSE_MS. */
export const FIRST_PAUSE_MS = 50;
const MAX_PAUSE_MS = 1_000;

/** A write the list must reflect: a create (the widget must appear) or a delete (it must leave). */
export type Write = 'create' | 'delete';

export interface Lateness {
  readonly write: Write;
  /** The list caught up within the bound. */
  readonly caughtUp: boolean;
  /** From the write's answer to the start of the walk that showed the list caught up (or to the last look). */
  readonly afterMs: number;
  /** Walks made after the first. */
  readonly walks: number;
  /** The last walk made (the one that caught up, when one did). */
  readonly last?: WalkResult;
}

/** The settle window of this run, in ms (0: lists judged at once). */
export function settleWindowMs(t: RuleContext): number {
  return t.settings.listSettleMs ?? 0;
}

/**
 * Walks the account's list again, pausing with back-off between walks, until `caughtUp` holds
 * or the `until` time (a performance.now() reading) has passed. Each walk is a fresh one begun after the pause.
 */
export async function lookAgain(t: RuleContext, api: WidgetApi, write: Write, writtenAt: number, caughtUp: (walk: WalkResult) => boolean, until: number): Promise<Lateness> {
  let pause = FIRST_PAUSE_MS;
  let walks = 0;
  let last: WalkResult | undefined;
  for (;;) {
    const left = until - performance.now();
    if (left <= 0) break;
    await delay(Math.min(pause, left));
    pause = Math.min(pause * 2, MAX_PAUSE_MS);
    const startedAt = performance.now();
    last = await t.listAfter(api, startedAt);
    walks += 1;
    // A walk cut short shows nothing either way: look again while there is time.
    if (last.end.kind === 'complete' && caughtUp(last)) return { write, caughtUp: true, afterMs: Math.round(startedAt - writtenAt), walks, last };
  }
  return { write, caughtUp: false, afterMs: Math.round(performance.now() - writtenAt), walks, ...(last ? { last } : {}) };
}

/**
 * Set once a list in this worker never caught up within the diagnosis: a list that does not
 * reflect writes at all is diagnosed once, not once per failing check (a property's shrinking
 * would otherwise wait DIAGNOSE_MS per step). The settle window is still given in full.
 */
let neverCaughtUp = false;

/** Looks again for as long as the window (from the write) or the diagnosis (from now) needs: the later of the two. */
export async function diagnose(t: RuleContext, api: WidgetApi, write: Write, writtenAt: number, caughtUp: (walk: WalkResult) => boolean): Promise<Lateness> {
  const diagnosis = neverCaughtUp ? 0 : DIAGNOSE_MS;
  const lateness = await lookAgain(t, api, write, writtenAt, caughtUp, Math.max(writtenAt + settleWindowMs(t), performance.now() + diagnosis));
  if (!lateness.caughtUp && lateness.afterMs >= DIAGNOSE_MS) neverCaughtUp = true;
  return lateness;
}

/** True when the run's settle window accepts this lateness. */
export function withinWindow(t: RuleContext, lateness: Lateness): boolean {
  const windowMs = settleWindowMs(t);
  return windowMs > 0 && lateness.caughtUp && lateness.afterMs <= windowMs;
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s` : `${ms} ms`;
}

/** "appeared in the list 310 ms after create", "still not listed after 5 s", …, and the window when one was set. */
export function describeLateness(t: RuleContext, l: Lateness): string {
  const what = l.caughtUp
    ? l.write === 'create' ? `appeared in the list ${l.afterMs} ms after create` : `left the list ${l.afterMs} ms after delete`
    : l.write === 'create' ? `still not listed after ${seconds(l.afterMs)}` : `still listed after ${seconds(l.afterMs)}`;
  const windowMs = settleWindowMs(t);
  const judged = windowMs > 0 ? ` (lists judged with a settle window of ${windowMs} ms${l.caughtUp && l.afterMs > windowMs ? ': later than the window' : ''})` : l.caughtUp ? ' (without --list-settle-ms, a list must show it at once)' : '';
  return `${what}, looked again ${l.walks} time(s)${judged}`;
}

/** Records in the profile how soon the list reflected a write: "immediate", "N ms", or "never within N s". */
export function recordLag(write: Write, lateness: Lateness | 'immediate', walk?: WalkResult): void {
  const value = lateness === 'immediate' ? 'immediate' : lateness.caughtUp ? `${lateness.afterMs} ms` : `never within ${seconds(lateness.afterMs)}`;
  const shown = lateness === 'immediate' ? walk : lateness.last;
  const exchange = shown?.pages[0]?.response.exchange;
  runContext().profile.add(`list.lag.${write}`, value, exchange);
}

/**
 * Settles a "missing or still listed" finding: looks again; within the window the caller goes on
 * with the walk that caught up; otherwise the caller fails with `describeLateness` in its message.
 */
export async function settleOrDescribe(
  t: RuleContext,
  api: WidgetApi,
  write: Write,
  writtenAt: number,
  caughtUp: (walk: WalkResult) => boolean,
): Promise<{ accepted: true; walk: WalkResult; note: string } | { accepted: false; note: string; lateness: Lateness }> {
  const lateness = await diagnose(t, api, write, writtenAt, caughtUp);
  recordLag(write, lateness);
  const note = describeLateness(t, lateness);
  if (withinWindow(t, lateness) && lateness.last) {
    await t.annotate(note, 'note');
    return { accepted: true, walk: lateness.last, note };
  }
  return { accepted: false, note, lateness };
}
