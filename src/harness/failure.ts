/**
 * Conformance failures: the server broke a rule. The message stands alone: the rule and
 * the spec text it rests on, what was expected beside what was received, and the redacted
 * HTTP exchanges that show it.
 */
import { formatExchange, type Exchange } from '../http/exchange.ts';
import type { Redactor } from '../http/redact.ts';
import { replayLines } from '../report/curl.ts';
import type { Rule } from '../rules.ts';

export interface FailureDetail {
  readonly expected: string;
  readonly received: string;
  /** Extra context: what the test did, the ids involved, the walk's page numbers. */
  readonly note?: string;
  readonly exchanges?: readonly Exchange[];
}

/** Thrown by checks; the rule wrapper turns it into a failure (MUST) or a warning (SHOULD). */
export class ConformanceFailure extends Error {
  constructor(
    readonly rule: Rule,
    readonly detail: FailureDetail,
    redactor: Redactor,
  ) {
    super(redactor.text(renderFailure(rule, detail)));
    this.name = 'ConformanceFailure';
    // No stack: the place in the suite's code that noticed the failure helps no implementer.
    this.stack = `${this.name}: ${this.message}`;
  }
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
