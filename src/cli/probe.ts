/**
 * The reachability check made once before any test runs: a target that cannot be reached
 * is a suite error (exit 3), and a token the target refuses is a configuration error
 * (exit 2), never a page of conformance failures.
 */
import type { WidgetApi } from '../client/api.ts';
import { RejectedTokenError, TokenRejectedError, UnreachableError } from '../errors.ts';


/** Lists one page with the account's token; throws UnreachableError or RejectedTokenError. */
export async function probe(api: WidgetApi, tokenSource: string): Promise<void> {
  let status: number;
  try {
    status = (await api.list()).status;
  } catch (error) {
    // The client layer takes a refused token for one that stopped working; here it never worked.
    if (error instanceof TokenRejectedError) status = 401;
    else throw new UnreachableError(`cannot reach the target: ${(error as Error).message}`);
  }
  if (status === 401 || status === 403) {
    throw new RejectedTokenError(`the target refused ${tokenSource} (GET /widgets answered ${status}): check that it is a valid token for this server`);
  }
}
