/**
 * Conformance failures: the server broke a rule. The message stands alone: the rule and
 * the spec text it rests on, what was expected beside what was received, and the redacted
 * HTTP exchanges that show it.
 */
import { formatExchange, type Exchange } from '../shared/exchange.ts';
import type { Redactor } from '../shared/redact.ts';
import { consoleSafe } from '../report/console.ts';
import { replayLines } from '../report/curl.ts';
import { mayDependOn, type Rule } from '../rules.ts';

export interface FailureDetail {
  readonly expected: string;
  readonly received: string;
  /** Extra context: what the test did, the ids involved, the walk's page numbers. */
  readonly note?: string;
  readonly exchanges?: readonly Exchange[];
  /**
   * Rules whose failure in the same run would explain this one (an Error object's shape is
   * FMT-2's): when one of them fails too, the report shows this rule inconclusive under it
   * instead of blaming it for the same fault (cli/outcomes.ts deferToRootCauses). When none
   * fails, this is a failure of the rule as usual.
   */
  readonly explainedBy?: readonly string[];
  /** The run's own widgets the exchanges name (harness/failing-widgets.ts), added when the test ends with it. */
  readonly runWidgets?: readonly string[];
  /**
   * Set on CRUD-4's failure when the owner's retrieve did not find a widget this run created in
   * its account and sent no delete for (harness/prerequisites.ts requireRetrievable): the server
   * loses, splits or hides widgets, so what any check saw at an id may not be the widget's state.
   * The runner then voids the rules that declare CRUD-4 among their requirements, as a failed
   * foundation rule does (cli/run/outcomes.ts voidOnFoundations).
   */
  readonly lost?: true;
}

/**
 * A violation of a rule's statement seen by a test of another rule (an id given twice, a deleted
 * id given again, a retrieve that differs from its create): it belongs to that rule, which the
 * runner fails with it whichever test saw it (cli/outcomes.ts). Carried as a test annotation of
 * type `evidence`, this JSON.
 */
export interface Evidence {
  /** The rule whose statement was seen broken. */
  readonly rule: string;
  /** The whole failure text, redacted, as a failure of that rule would read. */
  readonly message: string;
  readonly expected: string;
  readonly received: string;
  readonly note?: string;
  readonly exchanges?: readonly Exchange[];
  /** The run's own widgets the exchanges name (failing-widgets.ts). */
  readonly runWidgets?: readonly string[];
  /** As FailureDetail.lost. */
  readonly lost?: true;
}

/** The evidence record of a violation of `rule` seen elsewhere. */
export function evidenceOf(rule: Rule, detail: FailureDetail, redactor: Redactor): Evidence {
  return {
    rule: rule.id,
    message: redactor.text(renderFailure(rule, detail)),
    expected: detail.expected,
    received: detail.received,
    ...(detail.note === undefined ? {} : { note: detail.note }),
    ...(detail.exchanges ? { exchanges: detail.exchanges } : {}),
    ...(detail.runWidgets === undefined ? {} : { runWidgets: detail.runWidgets }),
    ...(detail.lost ? { lost: true as const } : {}),
  };
}

/** Thrown by checks; the rule wrapper turns it into a failure (MUST) or a warning (SHOULD). */
export class ConformanceFailure extends Error {
  readonly detail: FailureDetail;

  constructor(
    readonly rule: Rule,
    detail: FailureDetail,
    redactor: Redactor,
  ) {
    // Secrets leave the data, not the text: what the server sent (in received, note and the
    // expectation built from its answers) is redacted field by field; the rule's own text and the
    // exchanges (redacted as recorded) are never passed through the redactor again.
    const clean = sanitizeDetail(detail, redactor);
    // The message is what the console shows (vitest prints it): escaped for a terminal and a CI log.
    super(consoleSafe(renderFailure(rule, clean)));
    this.detail = clean;
    this.name = 'ConformanceFailure';
    // No stack: the place in the suite's code that noticed the failure helps no implementer.
    this.stack = `${this.name}: ${this.message}`;
  }
}

/** The detail with every field that may hold server text redacted (exchanges are, as recorded). */
export function sanitizeDetail(detail: FailureDetail, redactor: Redactor): FailureDetail {
  return {
    ...detail,
    expected: redactor.text(detail.expected),
    received: redactor.text(detail.received),
    ...(detail.note === undefined ? {} : { note: redactor.text(detail.note) }),
  };
}

/** The full text of a failure. */
export function renderFailure(rule: Rule, detail: FailureDetail): string {
  const lines = [
    `${rule.id} (${rule.level}, ${rule.section}): ${rule.statement}`,
    `  expected: ${detail.expected}`,
    `  received: ${detail.received}`,
  ];
  if (detail.note) lines.push(...detail.note.split('\n').map((l) => `  ${l}`));
  lines.push(`  spec: ${rule.basis}`);
  for (const exchange of detail.exchanges ?? []) lines.push('', formatExchange(exchange), ...replayLines(exchange, '  '));
  return lines.join('\n');
}

/**
 * Runs a check whose failure another rule's failure would explain (see FailureDetail.explainedBy):
 * only rules the catalogue declares `own` to require (rules.ts requirementsOf) may explain it, and
 * a rule is never explained by itself.
 */
export function explainedBy<T>(rules: readonly string[], own: Rule, check: () => T): T {
  const others = rules.filter((id) => mayDependOn(own.id, id));
  try {
    return check();
  } catch (error) {
    if (error instanceof ConformanceFailure && others.length > 0) {
      (error as { detail: FailureDetail }).detail = { ...error.detail, explainedBy: [...new Set([...(error.detail.explainedBy ?? []), ...others])] };
    }
    throw error;
  }
}

/** Like explainedBy, for an async check, and only when `applies()` holds once the check has failed. */
export async function explainedByWhen(applies: () => boolean, rules: readonly string[], own: Rule, check: () => Promise<void>): Promise<void> {
  try {
    await check();
  } catch (error) {
    if (error instanceof ConformanceFailure && applies()) explainedBy(rules, own, () => { throw error; });
    throw error;
  }
}
