/** Whether a run may go without a second account, decided before any request (main.ts). */
import { ConfigError, type SuiteConfig } from '../../config.ts';
import { ruleById, secondAccountRules } from '../../rules.ts';

/**
 * The rules this run leaves out for want of a second account (the catalogue's `secondAccount`);
 * a ConfigError (one line, exit 2) when the user did not ask for that.
 */
export function secondAccountRulesNotRun(config: SuiteConfig, only: ReadonlySet<string> | undefined): string[] {
  // Before any request: these rules need a second account, and a missing CI secret must not
  // silently drop them. Run without them only when asked, and then never "conformant".
  const needSecond = secondAccountRules().filter((id) => !only || only.has(id));
  const embedded = config.baseUrl === undefined;
  if (!embedded && !config.secondToken && needSecond.length > 0 && !config.withoutSecondToken) {
    throw new ConfigError(`no second token: ${byLevel(needSecond)} need a second account; set --second-token or WIDGET_SECOND_TOKEN (or --second-token-command), or pass --without-second-token to run without them (the verdict is then PASSED (partial: …) at best, never CONFORMANT)`);
  }
  return !embedded && !config.secondToken ? needSecond : [];
}

/** Rule ids grouped by their level as the catalogue gives it: `ISO-1, ISO-2 (MUST) and ISO-5 (SHOULD)`. */
export function byLevel(ids: readonly string[]): string {
  // Every level the ids hold, MUST before SHOULD (alphabetical), so that none is left unsaid.
  const levels = [...new Set(ids.map((id) => ruleById(id).level))].sort();
  const groups = levels.map((level) => ({ level, ids: ids.filter((id) => ruleById(id).level === level) })).filter((g) => g.ids.length > 0);
  return groups.map((g) => `${g.ids.join(', ')} (${g.level})`).join(' and ');
}
