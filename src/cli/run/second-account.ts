/** Whether a run may go without a second account, decided before any request (main.ts). */
import { ConfigError, type SuiteConfig } from '../../config.ts';
import { secondAccountRules } from '../../rules.ts';

/**
 * The isolation rules this run leaves out for want of a second account; a ConfigError (one line,
 * exit 2) when the user did not ask for that.
 */
export function isolationRulesNotRun(config: SuiteConfig, only: ReadonlySet<string> | undefined): string[] {
  // Before any request: the isolation rules (MUST) need a second account, and a missing CI secret
  // must not silently drop them. Run without them only when asked, and then never "conformant".
  const needSecond = secondAccountRules().filter((id) => !only || only.has(id));
  const embedded = config.baseUrl === undefined;
  if (!embedded && !config.secondToken && needSecond.length > 0 && !config.withoutSecondToken) {
    throw new ConfigError(`no second token: ${needSecond.join(', ')} (account isolation, MUST) need a second account; set --second-token or WIDGET_SECOND_TOKEN (or --second-token-command), or pass --without-second-token to run without them (the verdict is then PASSED (partial: …) at best, never CONFORMANT)`);
  }
  return !embedded && !config.secondToken ? needSecond : [];
}
