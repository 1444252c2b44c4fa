/**
 * Refusals met inside a property (PROP-1, PROP-3). The property judges what it is about: that
 * the server refused (a 4xx, never a 2xx or a 5xx) and, elsewhere, that nothing was created.
 * Whether the refusal's body is an Error object is what FMT-1 (JSON) and FMT-2 (the Error
 * schema) judge on every failure the suite provokes; a property that failed for that alone
 * would blame itself for another rule's fault, and shrink at length to show it. So a body
 * defect is noted and the property goes on checking its own part: if it holds, the rule ends
 * inconclusive, naming the rule that explains it (see InconclusiveError), with the simplest
 * refusal that showed the defect.
 */
import { InconclusiveError } from '../errors.ts';
import type { ApiResponse } from '../http/client.ts';
import type { Exchange } from '../shared/exchange.ts';
import { formatIssues, validateSchema } from '../schema.ts';
import { statusClass } from './checks.ts';
import type { RuleContext } from './rule-context.ts';

/** A refusal whose body the property could not confirm to be an Error object. */
interface BodyDefect {
  /** The rule that judges the defect. */
  readonly rule: 'FMT-1' | 'FMT-2';
  readonly action: string;
  readonly status: number;
  readonly problem: string;
  /** The refusal, as recorded: the evidence of the defect for the rule that judges it. */
  readonly exchange: Exchange;
}

/** Per rule test: the simplest defect seen so far (a rule test runs one property at a time). */
const defects = new WeakMap<RuleContext, BodyDefect>();

/**
 * A documented failure met by a property: fails the rule unless the status is 4xx; a body
 * that is not an Error object is noted for `takeBodyDefect` instead of failing the rule.
 */
export function expectRefusal(t: RuleContext, res: ApiResponse, action: string): void {
  t.check(res.status >= 400 && res.status < 500, () => ({
    expected: `a 4xx status for ${action}`,
    received: `${res.status} (${statusClass(res.status)})`,
    exchanges: [res.exchange],
  }));
  const defect = bodyDefect(res);
  if (defect === undefined) return;
  const seen = defects.get(t);
  // The shortest description of what was refused stands for the simplest input.
  if (seen === undefined || action.length < seen.action.length) defects.set(t, { ...defect, action, status: res.status, exchange: res.exchange });
}

function bodyDefect(res: ApiResponse): Pick<BodyDefect, 'rule' | 'problem'> | undefined {
  if (res.jsonError !== undefined) return { rule: 'FMT-1', problem: `a body that is not JSON (${res.jsonError})` };
  const issues = validateSchema('error', res.json);
  if (issues.length === 0) return undefined;
  return { rule: 'FMT-2', problem: `a body that is not an Error object (schemas/error.schema.json): ${formatIssues(issues.slice(0, 3)).split('\n').join('; ')}` };
}

/**
 * The inconclusive verdict for the defects noted in this rule test, if any (recorded as evidence of
 * the rule that judges them), and forgets them: called once the property held in every other respect.
 */
export function takeBodyDefect(t: RuleContext): InconclusiveError | undefined {
  const defect = defects.get(t);
  if (defect === undefined) return undefined;
  defects.delete(t);
  const judge = defect.rule === 'FMT-1' ? 'JSON bodies' : 'Error objects';
  // The defect is that rule's evidence, whichever test saw it: the rule this depends on fails with it.
  t.evidence(defect.rule, {
    expected: defect.rule === 'FMT-1' ? `a JSON body for ${defect.action} (a documented failure, §7)` : `an Error object for ${defect.action} (a documented failure, §7)`,
    received: `${defect.status} with ${defect.problem}`,
    exchanges: [defect.exchange],
  });
  return new InconclusiveError(
    `${t.rule.id} held in every other respect, but could not confirm that refusals are Error objects: ${defect.action} was refused with ${defect.status} and ${defect.problem}. ` +
      `${defect.rule} judges ${judge}: this depends on ${defect.rule}.`,
    [defect.rule],
  );
}
