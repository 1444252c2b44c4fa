/** The target of a run: the given base URL and tokens, or the embedded reference server. */
import type { SuiteConfig } from '../../config.ts';
import { startReferenceServer, type RunningServer } from '../../reference/server.ts';

export interface Target {
  readonly baseUrl: string;
  readonly token: string;
  readonly secondToken?: string;
  /** For people: the base URL, or "embedded reference server". */
  readonly label: string;
  /** The embedded server, to close at the end. */
  readonly server?: RunningServer;
}

export const EMBEDDED_LABEL = 'embedded reference server';

/** The configured target, or the embedded reference server started on a free loopback port. */
export async function chooseTarget(config: SuiteConfig): Promise<Target> {
  if (config.baseUrl && config.token) {
    return { baseUrl: config.baseUrl, token: config.token, ...(config.secondToken ? { secondToken: config.secondToken } : {}), label: config.baseUrl };
  }
  const server = await startReferenceServer();
  process.stdout.write(`\n▶ No --base-url given: testing the ${EMBEDDED_LABEL} at ${server.baseUrl}\n\n`);
  return { baseUrl: server.baseUrl, token: server.tokens[0], secondToken: server.tokens[1], label: EMBEDDED_LABEL, server };
}
