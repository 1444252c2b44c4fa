/**
 * The shape of a faulty server: the reference service with one fault, the rule it must be caught
 * on, and the exact set of other verdicts it may cause. test/e2e/conformance.test.ts asserts that the
 * rules failed or warned are exactly `rule` plus `alsoBreaks` (plus `wrongBlame`), that the
 * inconclusive ones are exactly `inconclusive`, each explained by the rule named, and that the
 * failure of `rule` says what differed. An undeclared collateral failure is wrong blame until
 * shown otherwise.
 */
import { familyOf, RULES } from '../../../src/rules.ts';
import type { TestServer } from '../test-server.ts';

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
   * Why the fault is timing-sensitive (a race among concurrent tests, ids from the clock): its
   * self-test then checks the exact sets at every setting of SETTINGS (concurrency 1, 4 and 8,
   * both file orders, under CPU load), not only two. There is no escape: a racy fault gives its
   * exact set too.
   */
  readonly timing?: string;
  /** Options the fault's self-test needs beside the setting's (e.g. --allow-collection-writes for a fault only a collection write shows). */
  readonly args?: readonly string[];
  make(): TestServer;
}

/** One way to run the suite that must not change its verdict (issue 20). */
export interface RunSetting {
  /** In the self-test titles. */
  readonly label: string;
  readonly args: readonly string[];
  /** Two busy processes beside the run (a loaded CI machine). */
  readonly load?: true;
}

/** The settings the verdict must not depend on. */
export const SETTINGS: readonly RunSetting[] = [
  { label: 'concurrency 4', args: ['--concurrency', '4'] },
  { label: 'concurrency 1, files in reverse order', args: ['--concurrency', '1', '--file-order', 'reverse'] },
  { label: 'concurrency 8', args: ['--concurrency', '8'] },
  { label: 'concurrency 4, files in reverse order', args: ['--concurrency', '4', '--file-order', 'reverse'] },
  { label: 'concurrency 4 under CPU load', args: ['--concurrency', '4'], load: true },
];

/**
 * The settings a fault's self-test runs at: all for a timing-sensitive fault; one for any other
 * (varied by its index, so that every setting without load is covered across the catalogue). A
 * deterministic fault's verdict cannot move with the setting unless the suite itself is racy, and
 * the racy faults at every setting are what would show that; a second setting each doubled the
 * e2e tier's longest file for no fault it could catch. The CPU-load setting is the racy faults'
 * alone: its two busy processes took a core from the four runs beside each loaded one (the
 * self-test must stay under 30 minutes on 2 cores), and runs side by side load the machine anyway.
 */
export function settingsFor(fault: FaultCase, index: number): readonly RunSetting[] {
  if (fault.timing) return SETTINGS;
  const unloaded = SETTINGS.filter((s) => s.load !== true);
  return [unloaded[index % unloaded.length] as RunSetting];
}

/**
 * Every rule of the run that declares `id` among its own requirements (rules.ts), each explained by it: what a
 * failed foundation rule (`foundation`) leaves inconclusive. `families` are left out (not run).
 */
export function dependentsOf(id: string, leftOut: readonly string[] = ['PROP']): RuleNotes {
  return Object.fromEntries(RULES.filter((r) => r.id !== id && !leftOut.includes(familyOf(r.id)) && (r.requires ?? []).includes(id)).map((r) => [r.id, id]));
}
