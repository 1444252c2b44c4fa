/**
 * Which test sent which request. The worker's client reports every request it sends
 * (ClientOptions.onSent) in the async context of the code that asked for it, where the test scope
 * (test-scope.ts) names the test: a request is counted for the test whose code sent it, a shared
 * walk for the test that started it. What the worker sends after the tests (its
 * cleanup: a widget's proof, its DELETE, the retrieve proving it gone) is counted as the cleanup of
 * the test that created the widget, read from the id in the path. Accounting only: nothing here
 * changes a request or a verdict.
 */
import type { TestRequests } from '../shared/request-account.ts';
import type { TestScopes } from './test-scope.ts';

/** What the worker leaves for the runner: requests by test title, and those no test owns. */
export interface RequestTallyData {
  readonly tests: Readonly<Record<string, TestRequests>>;
  /** Requests sent outside every test and for no widget a test created (a sweep of the worker's). */
  readonly unowned: number;
}

/** The path of one widget under the base URL: `/widgets/{id}`, the id one percent-encoded segment. */
const WIDGET_PATH = /\/widgets\/([^/?#]+)(?:[?#]|$)/;

/** The requests of one worker, by the test that sent them (see the module comment). */
export class RequestTally {
  readonly #scopes: TestScopes;
  readonly #tests = new Map<string, { sent: number; cleanup: number }>();
  /** The title of the test that created each id. */
  readonly #creators = new Map<string, string>();
  #unowned = 0;

  constructor(scopes: TestScopes) {
    this.#scopes = scopes;
  }

  /** The title of the test whose code is running, if one is. */
  get current(): string | undefined {
    return this.#scopes.current?.title;
  }

  /** Notes that the running test (if any) created the widget `id`: its cleanup is counted for that test. */
  created(id: string): void {
    const title = this.current;
    if (title !== undefined && !this.#creators.has(id)) this.#creators.set(id, title);
  }

  /** Counts one request sent to `url` (the client's onSent hook). */
  sent(url: string): void {
    const title = this.current;
    if (title !== undefined) {
      this.#entry(title).sent += 1;
      return;
    }
    const creator = this.#creatorOf(url);
    if (creator === undefined) this.#unowned += 1;
    else this.#entry(creator).cleanup += 1;
  }

  /** What the runner reads (worker-to-runner.ts). */
  get data(): RequestTallyData {
    return { tests: Object.fromEntries([...this.#tests].map(([title, n]) => [title, { ...n }])), unowned: this.#unowned };
  }

  #entry(title: string): { sent: number; cleanup: number } {
    let entry = this.#tests.get(title);
    if (entry === undefined) this.#tests.set(title, (entry = { sent: 0, cleanup: 0 }));
    return entry;
  }

  #creatorOf(url: string): string | undefined {
    const segment = WIDGET_PATH.exec(url)?.[1];
    if (segment === undefined) return undefined;
    try {
      return this.#creators.get(decodeURIComponent(segment));
    } catch {
      return undefined;
    }
  }
}
