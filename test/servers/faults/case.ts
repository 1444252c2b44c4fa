/**
 * The shape of a faulty server: the reference service with one fault, the rule it must be caught
 * on, and the exact set of other verdicts it may cause. test/conformance.test.ts asserts that the
 * rules failed or warned are exactly `rule` plus `alsoBreaks` (plus `wrongBlame`), that the
 * inconclusive ones are exactly `inconclusive`, each explained by the rule named, and that the
 * failure of `rule` says what differed. An undeclared collateral failure is wrong blame until
 * shown otherwise.
 */
import type { TestServer } from '../serve.ts';

/** Rule id → one line saying why. */
export type RuleNotes = Readonly<Record<string, string>>;

export interface FaultCase {
  /** Stable, kebab-case: the self-test titles carry it. */
  readonly name: string;
  /** The rule the suite must fail (or warn, for a SHOULD rule) on this server. */
  readonly rule: string;
  readonly description: string;
  /** Other rules the fault genuinely breaks too, each with why: they must fail (or warn). */
  readonly alsoBreaks?: RuleNotes;
  /** Rules left inconclusive: rule id → the rule whose failure explains it. */
  readonly inconclusive?: RuleNotes;
  /** Rules blamed though the fault does not break them: known wrong blame, each a TODO to fix in its check. */
  readonly wrongBlame?: RuleNotes;
  /**
   * Rules whose verdict varies from run to run on this server (a race the fault provokes among
   * concurrent tests), with why: any outcome is accepted. Kept as short as the fault allows.
   */
  readonly unsteady?: RuleNotes;
  make(): TestServer;
}
