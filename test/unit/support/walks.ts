/**
 * Walk results built by hand for the harness's unit tests: pages as a walk keeps them (walk.ts),
 * without a server, and a rule context that records what a check does with them.
 */
import type { WalkEnd, WalkPage, WalkResult } from '../../../src/client/walk.ts';
import type { Exchange } from '../../../src/shared/exchange.ts';
import { Redactor } from '../../../src/shared/redact.ts';
import { ConformanceFailure, type FailureDetail } from '../../../src/harness/failure.ts';
import type { RuleContext } from '../../../src/harness/rule.ts';
import { ruleById } from '../../../src/rules.ts';
import type { PrefixCount } from '../../../src/http/json-prefix.ts';

/** An exchange that names its page, so a test can tell which one a message cites. */
export const exchangeOf = (page: number): Exchange => ({ request: { method: 'GET', url: `http://x/v1/widgets?page=${page}`, headers: {} }, response: { status: 200, headers: {}, body: '' }, durationMs: 1 });

export interface PageSpec {
  readonly json?: unknown;
  readonly status?: number;
  readonly prefix?: PrefixCount;
  readonly jsonError?: string;
}

/** A walk of these pages (numbered from 1), ended as `end`. Ids are read as the walk reads them. */
export function walkOf(pages: readonly PageSpec[], end: WalkEnd = { kind: 'complete' }, limit?: number): WalkResult {
  const kept: WalkPage[] = pages.map((p, i) => {
    const data = (p.json as { data?: unknown } | undefined)?.data;
    const items = Array.isArray(data) ? data : [];
    const idOf = (item: unknown): string | undefined => {
      const id = (item as { id?: unknown } | null)?.id;
      return typeof id === 'string' ? id : Number.isSafeInteger(id) ? String(id) : undefined;
    };
    return {
      number: i + 1,
      response: { status: p.status ?? 200, json: p.json, schemaIssues: [], schemaIssueCount: 0, exchange: exchangeOf(i + 1), ...(p.prefix ? { prefix: p.prefix } : {}), ...(p.jsonError ? { jsonError: p.jsonError } : {}) },
      ids: items.map(idOf).filter((id): id is string => id !== undefined),
      nonStringIds: items.filter((item) => typeof (item as { id?: unknown } | null)?.id !== 'string').length,
    };
  });
  const widgets = new Map<string, Record<string, unknown>>();
  for (const page of kept) for (const item of ((page.response.json as { data?: unknown[] } | undefined)?.data ?? [])) {
    const id = page.ids[((page.response.json as { data: unknown[] }).data).indexOf(item)];
    if (id !== undefined && !widgets.has(id)) widgets.set(id, item as Record<string, unknown>);
  }
  return { ...(limit === undefined ? {} : { limit }), pages: kept, widgets, duplicates: new Map(), end, last: kept[kept.length - 1] as WalkPage };
}

/** What a check did with a rule context: the evidence it recorded for other rules, and the checks of its own rule it evaluated. */
export interface Recorded {
  readonly t: RuleContext;
  readonly evidence: Array<{ rule: string } & FailureDetail>;
  /** Counted as harness/rule.ts makeRuleContext counts them: every check and failure of the rule itself. */
  readonly observed: { checks: number };
}

/** A rule context of `rule` that records evidence, counts observations and fails as the harness does. */
export function contextOf(rule: string): Recorded {
  const evidence: Recorded['evidence'] = [];
  const observed = { checks: 0 };
  const redactor = new Redactor([]);
  const r = ruleById(rule);
  const fail = (detail: FailureDetail): never => {
    observed.checks += 1;
    throw new ConformanceFailure(r, detail, redactor);
  };
  const t = {
    rule: r,
    api: { http: { redactor } },
    fail,
    evidence: (id: string, detail: FailureDetail) => (id === rule ? fail(detail) : void evidence.push({ rule: id, ...detail })),
    check: (ok: boolean, detail: () => FailureDetail) => {
      observed.checks += 1;
      return ok ? undefined : fail(detail());
    },
  };
  return { t: t as unknown as RuleContext, evidence, observed };
}
