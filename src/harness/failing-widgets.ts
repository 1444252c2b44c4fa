/**
 * What a failing test leaves for the user to act on. The run's own widgets its failure's
 * exchanges name are recorded with the failure (FailureDetail.runWidgets), so the reports can say
 * what became of each at cleanup (a curl command naming a deleted widget gets a deleted widget's
 * answer). Under --keep-failing, the widgets the test used stay in place: those its exchanges
 * name (in a request's URL, or as the id a create among them answered) and those it said it relied
 * on (RuleContext.uses: the widgets made for the walks it judged). The ledger marks them kept: no
 * cleanup deletes them, and `cleanup` does later, from the journal, under the usual proof. Only
 * ids the ledger holds and has not seen deleted are kept, so nothing the suite did not create is
 * ever affected.
 */
import { idsOf } from '../report/exchange-ids.ts';
import type { FailureDetail } from './failure.ts';
import type { RunContext } from './context.ts';

/**
 * The failure's detail with the run's widgets its exchanges name; under --keep-failing, first
 * marks as kept every live widget of the run among those and `used`.
 */
export function onBrokenTest(run: RunContext, title: string, detail: FailureDetail, used: Iterable<string> = []): FailureDetail {
  const named = idsOf(detail.exchanges ?? []);
  const accounts = [run.primary, ...(run.second ? [run.second] : [])];
  const held = (id: string): boolean => accounts.some((api) => run.ownership.get(api.account, id) !== undefined);
  if (run.settings.keepFailing) {
    for (const id of new Set([...named, ...used])) {
      for (const api of accounts) run.ownership.keep(api.account, id, `kept by --keep-failing: a widget of the failing test "${title}"`);
    }
  }
  const runWidgets = named.filter(held);
  return runWidgets.length === 0 ? detail : { ...detail, runWidgets };
}
