/**
 * What a rule test gets (made by rule(), rule.ts): its own module, so that the shared checks
 * and walks that take it need not import rule() and the run context behind it.
 */
import type { WidgetApi } from '../client/api.ts';
import type { WalkResult } from '../client/walk.ts';
import type { Rule } from '../rules.ts';
import type { FailureDetail } from './failure.ts';
import type { SeededRandom } from './random.ts';
import type { SuiteSettings } from './settings.ts';
import type { ExchangeRegistry } from './exchange-checks.ts';

/** What a rule test gets: the accounts, the settings, and the means to fail with a full message. */
export interface RuleContext {
  readonly rule: Rule;
  readonly settings: SuiteSettings;
  /** The account under test. */
  readonly api: WidgetApi;
  /**
   * The second account. A rule that needs it is marked `secondAccount` in the catalogue (rules.ts)
   * and skipped when the run has none; any other test asks `settings.secondToken` first.
   */
  readonly second: WidgetApi;
  /**
   * A fresh widget name: the run marker (so the sweep finds it), the rule id and a number.
   * At most 32 printable ASCII characters: ordinary input that every conformant server
   * accepts (PROP-2), whatever length and character limits it chose. The number is the test's
   * own count of names and its place among its rule's tests: unique in the run, and the same
   * on a rerun of the test alone (rule.ts nameNumber).
   */
  name(): string;
  /** The test's random choices, from the run seed and its title (random.ts): a rerun with the seed draws the same. */
  readonly random: SeededRandom;
  /**
   * The name and random choices of the `n`-th thing several tests share (a widget one of them
   * makes for all), under the rule that names it (default this test's): the same whichever test
   * makes it, so a rerun with the seed sends the same; its number is below any test's own names'
   * (rule.ts nameNumber).
   */
  shared(n: number, ruleId?: string): { readonly name: string; readonly random: SeededRandom };
  /** Records a note on the test (an annotation the runner reads back): e.g. how many property runs completed (`runs`). */
  annotate(message: string, type: string): Promise<void>;
  /** Fails the rule with the expectation beside what was received. */
  fail(detail: FailureDetail): never;
  /**
   * Records a violation of another rule's statement that this test saw (an id given twice, a
   * deleted id given again): it is that rule's evidence, and the runner fails that rule with it
   * whatever this test concludes. For this rule itself, use fail.
   */
  evidence(ruleId: string, detail: FailureDetail): void;
  /**
   * Fails the rule unless the condition holds; the detail is built only on failure. Each call is
   * an observation of the server: a test that ends having evaluated none (nor failed) is
   * inconclusive, never passed (rule.ts).
   */
  check(condition: boolean, detail: () => FailureDetail): void;
  /** Ends the test as skipped: the rule does not apply to a choice this server made (the reason says which). */
  skip(reason: string): Promise<never>;
  /** A complete walk of the account's list begun after `since` (a performance.now() reading), shared with other tests. */
  listAfter(api: WidgetApi, since: number): Promise<WalkResult>;
  /** Runs a walk while none of the suite's own writes is in flight (see walk-gate.ts). */
  quietly<T>(walk: () => Promise<T>): Promise<T>;
  /**
   * Says which widgets the test relies on beyond those its failure's exchanges name (the widgets of
   * a walk it judges): under --keep-failing, a failure keeps the run's own among them in place.
   */
  uses(ids: Iterable<string>): void;
  /** The documented answers the run recorded, and the one request for a situation nobody exercised (exchange-checks.ts). */
  readonly exchanges: Pick<ExchangeRegistry, 'recorded' | 'exercise'>;
}
