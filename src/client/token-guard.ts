/**
 * One account's token on the wire: every request of the account is sent with the current token,
 * and a 401 or 403 the same token's list confirms means the target stopped accepting it: a
 * --token-command renews it and the request goes once more (a refused request was not applied);
 * refused again, or with no way to renew, the run ends (exit 2). Split from the operations
 * (api.ts), which only say what they send.
 */
import { TokenRejectedError } from '../errors.ts';
import type { ApiResponse, Reader } from '../http/client.ts';
import type { AuthOverride } from './api-options.ts';
import { TokenSource } from './token-source.ts';

/** One account's token, renewed when the target stops accepting it. */
export class TokenGuard {
  private readonly source: TokenSource;
  /** Set once the target refused this account's token for good: no request is sent with it again. */
  private refusedBecause: string | undefined;

  constructor(
    token: string | TokenSource,
    /** "primary" or "second", for messages. */
    private readonly account: string,
    /** Told once the target refuses the account's token for good (ApiHooks.onTokenRejected). */
    private readonly onRejected?: (message: string) => void,
  ) {
    this.source = typeof token === 'string' ? new TokenSource(token) : token;
  }

  /** The token the account sends now. */
  get token(): string {
    return this.source.token;
  }

  /**
   * Sends with the account's current token (unless `auth` overrides the credential); on a
   * confirmed refusal (confirmed) a token command renews the token and the request is sent once
   * more. `via`: what sends the confirming list (the client, or a write's lane).
   */
  async send(auth: AuthOverride | undefined, request: string, send: (token: string) => Promise<ApiResponse>, via: Reader): Promise<ApiResponse> {
    // A token refused for good is not sent again: each further request would only be refused too.
    if (!auth && this.refusedBecause !== undefined) throw new TokenRejectedError(`${request} not sent: ${this.refusedBecause}`);
    const token = this.source.token;
    const res = await send(token);
    if ((await this.confirmed(res, auth, request, token, via)) === 'accepted') return res;
    let renewed: string | undefined;
    try {
      renewed = await this.source.renewed(token);
    } catch (error) {
      this.rejected(`the target stopped accepting the ${this.account} account's token during the run (${request} answered ${res.status}), and renewing it failed: ${(error as Error).message}`, res);
    }
    if (renewed !== undefined) {
      const again = await send(renewed);
      if ((await this.confirmed(again, auth, request, renewed, via)) === 'accepted') return again;
      this.rejected(`the target stopped accepting the ${this.account} account's token during the run: ${request} answered ${res.status}, and ${again.status} again with the token the command renewed`, again);
    }
    // No renewal left: say so, or a run with a command would read as one without.
    const renewals = this.source.renewals;
    const spent = renewals === undefined ? '' : `, after the token command had renewed the token ${renewals} time(s), the most a run allows`;
    this.rejected(`the target stopped accepting the ${this.account} account's token during the run: ${request} answered ${res.status}${request === 'GET /widgets' ? '' : ', and a list with the same token was refused too'}${spent}`, res);
  }

  /**
   * A 401 or 403 to the account's own token after the target accepted it: a 403 may be the
   * server's answer for another account's widget, so a list with the same token decides.
   * When that is refused too, the token stopped working: a setup problem, never a verdict.
   */
  private async confirmed(res: ApiResponse, auth: AuthOverride | undefined, request: string, token: string, via: Reader): Promise<'accepted' | 'refused'> {
    if (auth || (res.status !== 401 && res.status !== 403)) return 'accepted';
    const list = request === 'GET /widgets' ? res : await via.request('GET', '/widgets', { headers: { authorization: `Bearer ${token}` } });
    return list.status === 401 || list.status === 403 ? 'refused' : 'accepted';
  }

  private rejected(message: string, res?: ApiResponse): never {
    this.refusedBecause ??= message;
    this.onRejected?.(message);
    throw new TokenRejectedError(message, res ? { status: res.status, ...serverMessage(res) } : undefined);
  }
}

/** The message a refusal carried: the Error object's message, or the start of a body that is not one. */
function serverMessage(res: ApiResponse): { message?: string } {
  const json = res.json as { message?: unknown; error?: unknown } | undefined;
  const said = typeof json?.message === 'string' ? json.message : typeof json?.error === 'string' ? json.error : res.text.trim();
  const flat = said.replace(/\s+/g, ' ').trim();
  return flat === '' ? {} : { message: flat.length > 200 ? `${flat.slice(0, 200)}…` : flat };
}
