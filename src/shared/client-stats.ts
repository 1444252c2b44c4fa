/** What the HTTP client counted (http/client.ts): the runner sums the workers', the report shows them. */
/** Requests sent, retried and refused, and the pace the client ended at. */
export interface ClientStats {
  requests: number;
  retries: number;
  /** Wall-clock time the client was blocked by the server's pauses (Retry-After, backoff, a spent window). */
  rateLimitWaitMs: number;
  /** Answers 429, or 503 asking for a wait: requests the server refused. */
  refused: number;
  /** Requests per second the client was paced at when it finished; absent while never paced. */
  pacedRate?: number;
  /** The most requests the client allowed in flight at once (adaptive concurrency may raise it). */
  slots?: number;
}
