/**
 * What a failing test leaves for the user to act on: the replay script of each failure
 * (report/replay.ts), which recreates the widgets the failing requests name from the creates
 * this worker recorded, and under --keep-failing the widgets themselves, left in place (the
 * ledger marks them kept: no cleanup deletes them, `cleanup` does later, under the usual proof).
 * A widget belongs to a failing test when the failure's exchanges name it: in a request's URL,
 * or as the id a create among them answered. Only ids the ledger holds and has not seen deleted
 * are kept, so nothing the suite did not create is ever affected.
 */
import type { Exchange } from '../shared/exchange.ts';
import { idInUrl, idsOf, replayScript } from '../report/replay.ts';
import type { FailureDetail } from './failure.ts';
import type { RunContext } from './context.ts';

/**
 * The failure's detail with its replay script; under --keep-failing, first marks the widgets its
 * exchanges name as kept (the ledger's claims of this run only).
 */
export function onBrokenTest(run: RunContext, title: string, detail: FailureDetail): FailureDetail {
  const exchanges = detail.exchanges ?? [];
  if (exchanges.length === 0) return detail;
  const kept = new Set<string>();
  if (run.settings.keepFailing) {
    for (const id of idsOf(exchanges)) {
      for (const api of [run.primary, ...(run.second ? [run.second] : [])]) {
        const claim = run.ownership.get(api.account, id);
        if (!claim || claim.deleted) continue;
        claim.kept ??= `kept by --keep-failing: a widget of the failing test "${title}"`;
        kept.add(id);
      }
    }
  }
  const creates = new Map<string, Exchange>();
  for (const x of exchanges) {
    const id = idInUrl(x.request.url);
    const create = id === undefined ? undefined : run.creates.get(id);
    if (id !== undefined && create) creates.set(id, create);
  }
  const replay = replayScript({ exchanges, creates, kept });
  // Built from redacted recordings only; redacted once more as a whole, as every failure field is.
  return replay === undefined ? detail : { ...detail, replay: run.http.redactor.text(replay) };
}
