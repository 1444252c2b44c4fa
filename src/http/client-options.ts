/**
 * One place builds an HttpClient's options from the run's settings, for every client of a run
 * (the runner's probe and cleanup, each worker, `cleanup`): the settings carry the user's options
 * under the names config/options.ts gives them, and no option is renamed on the way to the client.
 */
import type { ClientOptions } from './client.ts';
import type { KnownTokens } from '../shared/sent-credential.ts';

/** The settings a client is built from, as config/options.ts (and the worker's settings) name them. */
export interface ClientSettings {
  readonly timeoutMs: number;
  readonly concurrency: number;
  /** --concurrency given: the slots stay fixed; otherwise they follow what the server serves (concurrency.ts). */
  readonly concurrencyGiven?: boolean;
  readonly maxRetries: number;
  readonly maxRetryWaitMs: number;
  readonly maxRateLimitWaitMs: number;
  readonly maxRate?: number | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly secretHeaders?: string | undefined;
}

/** What differs between the clients of one run: where they go, what they must hide, until when. */
export interface ClientRun {
  readonly baseUrl: string;
  readonly secrets: readonly string[];
  readonly deadline: number;
  /** The tokens by the variable each is read from, so replay commands name the variable. */
  readonly tokens?: KnownTokens;
  /** PEM text of the --ca-file, read once by the runner. */
  readonly ca?: string | undefined;
}

/** The options of a client of this run. */
export function clientOptions(s: ClientSettings, run: ClientRun): ClientOptions {
  return {
    baseUrl: run.baseUrl,
    timeoutMs: s.timeoutMs,
    concurrency: s.concurrency,
    adaptConcurrency: !s.concurrencyGiven,
    maxRetries: s.maxRetries,
    maxRetryWaitMs: s.maxRetryWaitMs,
    maxRateLimitWaitMs: s.maxRateLimitWaitMs,
    deadline: run.deadline,
    secrets: run.secrets,
    ...(s.maxRate === undefined ? {} : { maxRate: s.maxRate }),
    ...(s.secretHeaders ? { secretHeaders: s.secretHeaders } : {}),
    ...(s.headers ? { headers: s.headers } : {}),
    ...(run.tokens ? { tokens: run.tokens } : {}),
    ...(run.ca === undefined ? {} : { ca: run.ca }),
  };
}
