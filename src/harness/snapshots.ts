/**
 * Shared list walks. Many checks ask one question of the list: "after my write, does the
 * account's list show (or not show) this widget?". Each needs a walk begun after its write;
 * one walk serves every check waiting at that moment, so concurrent tests do not each walk
 * the whole account.
 */
import type { WidgetApi } from '../client/api.ts';
import { InconclusiveError } from '../errors.ts';

import { describeEnd, walkAll, walkBudget, type WalkResult } from '../client/walk.ts';
import type { WalkGate } from './walk-gate.ts';

interface Walk {
  readonly startedAt: number;
  readonly promise: Promise<WalkResult>;
  settled: boolean;
  /** Threw (a timeout, a rate limit): a failure is shared by the callers waiting on it, never handed to later ones. */
  failed: boolean;
}

/** Coalesces full walks of each account. */
export class Snapshots {
  private readonly latest = new Map<WidgetApi, Walk>();
  private readonly queued = new Map<WidgetApi, Promise<WalkResult>>();

  constructor(
    private readonly maxWidgets: number,
    private readonly gate: WalkGate,
  ) {}

  /** A complete walk of the account begun after `since` (a performance.now() reading). */
  after(api: WidgetApi, since: number): Promise<WalkResult> {
    const latest = this.latest.get(api);
    if (latest && latest.startedAt >= since && !latest.failed) return latest.promise;
    if (!latest || latest.settled) return this.start(api).promise;
    // A walk is under way but began too early: share the one that starts when it ends.
    let next = this.queued.get(api);
    if (!next) {
      next = latest.promise.then(
        () => this.start(api).promise,
        () => this.start(api).promise,
      );
      this.queued.set(api, next);
    }
    return next;
  }

  private start(api: WidgetApi): Walk {
    this.queued.delete(api);
    const walk: Walk = { startedAt: performance.now(), promise: this.walk(api), settled: false, failed: false };
    walk.promise.then(
      () => (walk.settled = true),
      () => (walk.settled = walk.failed = true),
    );
    this.latest.set(api, walk);
    return walk;
  }

  private walk(api: WidgetApi): Promise<WalkResult> {
    return walkOnce(api, this.maxWidgets, this.gate);
  }
}

/**
 * A whole-account walk. One page is one response, which writes in flight around it cannot make
 * skip or repeat a widget (that takes a write between two pages); so the walk first asks for one
 * page without holding the suite's writes back, and only an account that needs more than one
 * page is walked again inside a quiet window. Most accounts under test fit in one page: the
 * other tests keep writing meanwhile, and the request slots stay busy.
 */
async function walkOnce(api: WidgetApi, maxWidgets: number, gate: WalkGate): Promise<WalkResult> {
  const single = await walkAll(api, 1);
  if (single.end.kind === 'complete') return single;
  return gate.quiet(() => walkAll(api, walkBudget(maxWidgets)));
}

/** Where a widget was found in a walk, or undefined. */
export function findInWalk(walk: WalkResult, match: (widget: Record<string, unknown>) => boolean): { page: number; widget: Record<string, unknown> } | undefined {
  for (const page of walk.pages) {
    const body = page.response.json as { data?: unknown[] } | undefined;
    for (const item of body?.data ?? []) {
      if (item !== null && typeof item === 'object' && match(item as Record<string, unknown>)) return { page: page.number, widget: item as Record<string, unknown> };
    }
  }
  return undefined;
}

/**
 * The rules that judge why a walk did not complete: a page that is not a page (PAGE-1), has_more
 * without a cursor (PAGE-2), a walk that does not terminate (PAGE-5). A walk stopped on purpose
 * (a cap) is no rule's fault.
 */
export function rulesExplaining(walk: WalkResult): string[] {
  switch (walk.end.kind) {
    case 'not-a-page': return ['PAGE-1'];
    case 'missing-cursor': return ['PAGE-2'];
    case 'complete': case 'stopped': return [];
    default: return ['PAGE-5'];
  }
}

/** Throws when a walk stopped early: absence from an incomplete list proves nothing either way. */
export function requireComplete(walk: WalkResult, purpose: string): void {
  if (walk.end.kind !== 'complete') {
    const rules = rulesExplaining(walk);
    throw new InconclusiveError(`could not ${purpose}: the list walk ${describeEnd(walk)}${rules.length ? ` (${rules.join(', ')} reports why)` : ''}`, rules);
  }
}
