/**
 * The test whose code is running, in the async context of everything it causes: rule() enters it
 * around each test's body (an AsyncLocalStorage, carried through every await), and what the
 * worker does on the test's behalf reads it: the request tally counts a request for it
 * (request-tally.ts), and the checks registered per exchange give it the evidence they find in
 * an answer it got (exchange-checks.ts), whichever test that is. Held by the run context, one per
 * worker, so that every suite file's modules read the same one.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FailureDetail } from './failure.ts';

/** What a test's code is, to what runs on its behalf. */
export interface TestScope {
  readonly title: string;
  /** The rule the test checks. */
  readonly rule: string;
  /** Records a violation of another rule seen in an answer the test got (RuleContext.evidence). */
  evidence(ruleId: string, detail: FailureDetail): void;
}

/** The worker's running tests, one per async context. */
export class TestScopes {
  readonly #store = new AsyncLocalStorage<TestScope>();

  /** Runs a test's body inside its scope. */
  run<T>(scope: TestScope, body: () => Promise<T>): Promise<T> {
    return this.#store.run(scope, body);
  }

  /** The test whose code is running, if one is. */
  get current(): TestScope | undefined {
    return this.#store.getStore();
  }
}
