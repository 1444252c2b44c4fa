/**
 * Shared list walks. Many checks ask one question of the list: "after my write, does the
 * account's list show (or not show) this widget?". Each needs a walk begun after its write;
 * one walk serves every check waiting at that moment, so concurrent tests do not each walk
 * the whole account.
 */
import type { WidgetApi } from '../client/api.ts';
import { InconclusiveError, OverCapError } from '../errors.ts';
import { preview } from '../schema.ts';
import type { FailureDetail } from './failure.ts';
import type { RuleContext } from './rule-context.ts';

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

/** What an incomplete walk shows: a rule's violation with its evidence, or a page the suite could not judge within its body cap. */
export type WalkEndFinding = { readonly rule: 'PAGE-1' | 'PAGE-2' | 'PAGE-5'; readonly detail: FailureDetail } | { readonly overCap: string };

/**
 * Why a walk did not complete, as the rule whose statement its end breaks, with the exchanges that
 * show it (the same reading as those rules' own checks in suites/pagination.test.ts): a page that
 * is not a page (PAGE-1), has_more true without a cursor (PAGE-2), a walk that does not terminate
 * (PAGE-5). A page over the body cap is PAGE-1's only when the part read holds more complete
 * widgets than the limit; otherwise nothing is known against the server. Undefined for a walk
 * that completed, or that the suite cut short on purpose (a cap of its own: no rule's fault).
 */
export function walkEndFinding(walk: WalkResult): WalkEndFinding | undefined {
  const last = walk.last;
  const at = `page ${last.number} of the walk at ${walk.limit === undefined ? 'the default limit' : `limit ${walk.limit}`}`;
  switch (walk.end.kind) {
    case 'complete':
    case 'stopped':
      return undefined;
    case 'not-a-page': {
      const res = last.response;
      const cap = res.status >= 200 && res.status < 300 ? res.prefix : undefined;
      if (cap !== undefined) {
        if (walk.limit !== undefined && cap.completeItems > walk.limit) {
          return { rule: 'PAGE-1', detail: { expected: `at most ${walk.limit} widgets on ${at}`, received: `${cap.completeItems} complete widgets in the part read of a body larger than the cap (${res.jsonError})`, exchanges: [res.exchange] } };
        }
        return { overCap: `${at} is larger than the body cap, and the part read shows ${cap.completeItems} complete widget(s)${walk.limit === undefined ? '' : `, not more than the limit ${walk.limit}`}: the page cannot be judged within the cap (${res.jsonError})` };
      }
      return { rule: 'PAGE-1', detail: { expected: `a Widget page on ${at}: a 2xx with a JSON object whose data is an array and has_more a boolean`, received: walk.end.reason, exchanges: [res.exchange] } };
    }
    case 'missing-cursor': {
      const next = (last.response.json as { next_cursor?: unknown } | undefined)?.next_cursor;
      return { rule: 'PAGE-2', detail: { expected: `a non-empty string next_cursor on ${at}, which says has_more true`, received: `next_cursor ${preview(next)}`, exchanges: [last.response.exchange] } };
    }
    default:
      return {
        rule: 'PAGE-5',
        detail: {
          expected: `a walk at ${walk.limit === undefined ? 'the default limit' : `limit ${walk.limit}`} that reaches has_more false within ${walk.pages.length} pages`,
          received: `the walk ${describeEnd(walk)}`,
          ...(walk.end.kind === 'page-budget' ? { note: 'budget: one page per widget the account holds, plus slack (raise --max-widgets if it really holds more)' } : {}),
          exchanges: walk.pages.slice(-2).map((p) => p.response.exchange),
        },
      };
  }
}

/**
 * Ends a check that needs a complete walk when the walk did not complete: absence from an
 * incomplete list proves nothing either way. What the walk's end shows is evidence of the rule it
 * breaks (walkEndFinding), recorded whichever test saw it, and the check is inconclusive naming
 * that rule, so the rule named has failed too; a page the suite could not judge within its body
 * cap ends the check as a suite error saying so. A walk cut short on purpose never reaches here:
 * the walks that must be whole (listAfter, walkAll, PAGE-3's and PAGE-7's) have no stopAfter.
 */
export function requireComplete(t: RuleContext, walk: WalkResult, purpose: string): void {
  if (walk.end.kind === 'complete') return;
  const said = `could not ${purpose}: the list walk ${describeEnd(walk)}`;
  const finding = walkEndFinding(walk);
  if (finding === undefined) throw new Error(`${said}; a walk the suite cut short where it needs a whole one: a problem of the suite (please report it)`);
  if ('overCap' in finding) throw new OverCapError(`${said}; ${finding.overCap}`);
  if (finding.rule === t.rule.id) t.fail(finding.detail);
  t.evidence(finding.rule, finding.detail);
  throw new InconclusiveError(`${said} (${finding.rule} reports why)`, [finding.rule]);
}
