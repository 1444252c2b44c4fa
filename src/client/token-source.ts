/**
 * One account's token, and the way to renew it when the target stops accepting it (a
 * --token-command; see token-command.ts). Apart from the command so the API client, and its
 * unit tests, never load child_process.
 */

/** Most times a worker renews one account's token: a target that refuses every fresh token must not loop. */
export const MAX_TOKEN_REFRESHES = 3;

/**
 * One account's current token and the way to renew it. Requests that were refused together
 * share one renewal: one that sent an older token than the current one just retries with it.
 */
export class TokenSource {
  private current: string;
  private refreshes = 0;
  private pending: Promise<string> | undefined;

  constructor(
    token: string,
    /** Runs the command again; absent for a fixed --token. */
    private readonly renew?: () => Promise<string>,
    private readonly maxRefreshes = MAX_TOKEN_REFRESHES,
  ) {
    this.current = token;
  }

  get token(): string {
    return this.current;
  }

  /** How many times the command renewed the token; undefined for a fixed --token. */
  get renewals(): number | undefined {
    return this.renew ? this.refreshes : undefined;
  }

  /**
   * A token to retry with after `refused` was refused, or undefined when there is none (no
   * command, or the refreshes are spent). Throws the command's ConfigError when it fails.
   */
  async renewed(refused: string): Promise<string | undefined> {
    if (this.pending) return this.pending;
    if (refused !== this.current) return this.current;
    if (!this.renew || this.refreshes >= this.maxRefreshes) return undefined;
    this.refreshes += 1;
    this.pending = this.renew().then((token) => (this.current = token));
    try {
      return await this.pending;
    } finally {
      this.pending = undefined;
    }
  }
}
