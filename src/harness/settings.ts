/**
 * What the runner hands to the test workers through vitest's provide/inject: the resolved
 * target, tokens and limits. It never leaves memory: nothing here is printed or written.
 */
import { inject } from 'vitest';
import type { SuiteConfig } from '../config.ts';

/**
 * The run's settings: the configuration as resolved (one source: an option added to config/options.ts
 * reaches the workers with nothing else to change), with the target filled in and what the
 * runner adds. Only what makes no sense in a worker is left out.
 */
export type SuiteSettings = Readonly<Omit<SuiteConfig, 'baseUrl' | 'token' | 'secondToken' | 'help' | 'list'>> & {
  readonly baseUrl: string;
  readonly token: string;
  readonly secondToken?: string;
  /** Human-readable target, e.g. "embedded reference server". */
  readonly targetLabel: string;
  /** A Date.now() value after which no request is sent (--max-run-time from the start). */
  readonly deadline: number;
  /** Unique to this run; every widget the suite creates carries it, so a sweep can find them all. */
  readonly marker: string;
  /** Where workers drop their request counts for the runner to add up. */
  readonly statsDir: string;
  /** The run's ownership journal (client/ledger.ts): the inventory to read, creates and deletes to append. */
  readonly journal?: string;
  /** PEM text of --ca-file, read once by the runner. */
  readonly ca?: string;
};

declare module 'vitest' {
  export interface ProvidedContext {
    suiteSettings: SuiteSettings;
  }
}

declare module '@vitest/runner' {
  interface TaskMeta {
    /** Rule id of a rule test; the runner groups outcomes by it. */
    rule?: string;
  }
}

/** The settings of this run, as provided by the runner. */
export function settings(): SuiteSettings {
  const value = inject('suiteSettings');
  if (!value) throw new Error('no suite settings were provided: run the suite with `npm test`, not vitest directly');
  return value;
}
