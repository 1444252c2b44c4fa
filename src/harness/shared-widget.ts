/**
 * A widget several tests of a file read and none changes: made once, by whichever of them asks
 * first, and deleted by the last of them to end, on its own retrieve (removeWhenDone: the proof
 * the DELETE is sent on, which says to CRUD-4 whether its owner still finds it), so sharing it
 * costs no request the file's cleanup would not send and loses no look at the widget. The tests
 * that use it say so when the file is collected (`SharedWidget.using`): one that never runs (a
 * filter, a second account the run lacks) or that ends otherwise than passing (failed, skipped,
 * inconclusive) leaves the widget to the file's cleanup, which keeps what --keep-failing keeps.
 */
import type { WidgetApi } from '../client/api.ts';
import type { ApiResponse } from '../http/client.ts';
import { createdWidget, removeWhenDone, type Json } from './checks.ts';
import type { RuleContext } from './rule-context.ts';

export class SharedWidget<T extends { readonly res: ApiResponse }> {
  /** Tests declared to use it that have not ended yet. */
  #users = 0;
  /** Whether every test that ended so far passed: a widget a test failed on is the cleanup's to decide. */
  #allPassed = true;
  #made: Promise<T> | undefined;

  /**
   * @param account the account that holds it
   * @param make its create (and whatever else the tests read of it), sent by the first test that asks
   */
  constructor(
    readonly account: (t: RuleContext) => WidgetApi,
    private readonly make: (t: RuleContext) => Promise<T>,
  ) {}

  /** The create's outcome, made by the first test that asks. */
  made(t: RuleContext): Promise<T> {
    this.#made ??= this.make(t);
    return this.#made;
  }

  /** The widget as its create answered it, judged by the asking test (createdWidget: a create at fault ends its check as that fault requires). */
  async widget(t: RuleContext): Promise<Json & { id: string }> {
    const api = this.account(t);
    return createdWidget(t, (await this.made(t)).res, `a create in the ${api.account} account`, api);
  }

  /**
   * A test body that uses these widgets, counted as one of their users now (when the file is
   * collected); when it ends, the last user of each, if every user passed, deletes it.
   */
  static using(widgets: ReadonlyArray<SharedWidget<{ readonly res: ApiResponse }>>, body: (t: RuleContext) => Promise<void>): (t: RuleContext) => Promise<void> {
    for (const w of widgets) w.#users += 1;
    return async (t) => {
      let passed = false;
      try {
        await body(t);
        passed = true;
      } finally {
        for (const w of widgets) await w.#ended(t, passed);
      }
    };
  }

  async #ended(t: RuleContext, passed: boolean): Promise<void> {
    this.#users -= 1;
    this.#allPassed &&= passed;
    if (this.#users > 0 || !this.#allPassed || this.#made === undefined) return;
    await removeWhenDone(t, this.account(t), (await this.#made).res);
  }
}
