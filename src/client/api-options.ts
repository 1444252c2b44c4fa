/** What the operations of WidgetApi (api.ts) take beside their arguments, and what the run hooks into them. */
import type { ApiResponse } from '../http/client.ts';
import type { Observation, Unsent } from '../shared/observation.ts';

/** Overrides the Authorization header of one request; `null` sends none. */
export interface AuthOverride {
  readonly authorization: string | null;
  /** Query parameters to add (e.g. a token sent as access_token). */
  readonly query?: Readonly<Record<string, string>>;
}

export interface ListQuery {
  readonly limit?: number | string;
  readonly cursor?: string;
  /** Extra query parameters (e.g. a token sent in the query string). */
  readonly extra?: Readonly<Record<string, string>>;
  /**
   * A body over the cap is answered with its prefix (flagged `truncated`) instead of a transport
   * error. List walks ask for it: they judge the prefix (PAGE-1 counts its complete items) and
   * end as "not a page"; so does the probe, which takes a prefix that opens as JSON for the API
   * answering. A single list elsewhere (FMT checks) must not take a cut body for one that is not JSON.
   */
  readonly keepPrefix?: boolean;
}

export interface CreateOptions {
  readonly auth?: AuthOverride;
  /** The Content-Type header; `null` sends none. Defaults to application/json. */
  readonly contentType?: string | null;
  /** A raw body sent as it is, instead of the JSON of `body` (bytes that are not UTF-8 too: FMT-4); `body` still names the create in the journal. */
  readonly raw?: string | Buffer;
  /** The Accept header instead of application/json; null sends none (a documented failure asked so: FMT-1, FMT-2). */
  readonly accept?: string | null;
}

/** What the run hooks into every account's writes. */
export interface ApiHooks {
  /** Throws to refuse a create before it is sent (once the run is cancelled, nothing new may be created). */
  readonly beforeCreate?: () => void;
  /** Runs each create and delete (see WalkGate: walks that must see everything wait for them). */
  readonly write?: <T>(send: () => Promise<T>) => Promise<T>;
  /**
   * Told once the target refuses the account's own token after accepting it (the run ends with
   * exit 2). The account itself sends nothing more with that token; the worker also stops its
   * whole client here, while the runner's cleanup goes on with the other account.
   */
  readonly onTokenRejected?: (message: string) => void;
  /** Told of every answer with what the request tested: the interoperability profile (report/profile-facts.ts); never judges. */
  readonly observe?: (observation: Observation) => void;
  /** Told of a request the suite did not send, and why: the profile says so instead of a bare "not observed". */
  readonly unsent?: (unsent: Unsent) => void;
  /**
   * Runs `run` while none of the suite's own creates or deletes is in flight and none starts
   * (WalkGate.quiet): the window a second delete of the same id needs (removeAgain). Without
   * it, no second delete is sent.
   */
  readonly quiet?: <T>(run: () => Promise<T>) => Promise<T>;
}

/** A second delete of the same id (WidgetApi.removeAgain): its answer, or why it was not sent. */
export type SecondDelete = { readonly response: ApiResponse } | { readonly notSent: string };
