/**
 * `widget-conformance serve` (`npm run serve` in a checkout): the reference server on its own until
 * SIGINT or SIGTERM, optionally shaped like a real deployment: every answer late by `--latency`,
 * behind a gateway's `--rate-limit` (429 with Retry-After, or nginx's default 503). Flags are parsed
 * in serve-options.ts; the gateway is the bench's (rate-limited.ts), not a second limiter.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../errors.ts';
import { PROJECT_ROOT } from '../paths.ts';
import { DelayedHandler } from './latency.ts';
import { RateLimitedHandler } from './rate-limited.ts';
import { parseServeOptions, SERVE_USAGE, serveHelp, type ServeOptions } from './serve-options.ts';
import { startServer, type RequestHandler, type RunningServer } from './server.ts';
import { ReferenceService } from './service.ts';

/**
 * A token for one account of this server, made at start: random, so that a server listening
 * beyond loopback is not opened by a token published in this repository, and named so that it
 * reads as what it is (a test token of the local reference server) wherever it is pasted.
 */
function testToken(account: string): string {
  return `local-test-token-${account}-${randomBytes(12).toString('hex')}`;
}

/** The suite's command as the user types it here: `npm test --` in a checkout, `npx --no-install widget-conformance` where installed (never one that asks the registry). */
function suiteCommand(): string {
  return existsSync(join(PROJECT_ROOT, 'src')) ? 'npm test --' : 'npx --no-install widget-conformance';
}

/** One line saying what the server is made to look like. */
function shapeLine(options: ServeOptions): string {
  const parts = [options.latencyMs > 0 ? `every answer ${options.latencyMs} ms late` : 'no added latency'];
  const limit = options.rateLimit;
  if (limit === undefined) parts.push('no rate limit');
  else {
    const refusal = limit.status === 503 ? "503 with nginx's HTML page and no Retry-After" : '429 with Retry-After: 1';
    parts.push(`rate limit ${limit.rate}/s (burst ${limit.burst}), beyond it ${refusal}${limit.headers ? '; RateLimit-Policy and RateLimit on every answer' : ''}`);
  }
  return `Shape: ${parts.join('; ')}.`;
}

/** Loopback addresses: anything else is reachable from other machines. */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

async function main(argv: string[]): Promise<number> {
  let options: ServeOptions;
  try {
    options = parseServeOptions(argv);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`serve: ${error.message} (${SERVE_USAGE})`);
    return 2;
  }
  if (options.help) {
    console.log(serveHelp());
    return 0;
  }

  const tokens = { [testToken('alice')]: 'alice', [testToken('bob')]: 'bob' };
  const [token, secondToken] = Object.keys(tokens) as [string, string];
  const service = new ReferenceService({ tokens });
  // Latency outermost: a request crosses the network before the gateway sees it, so a refusal is late too.
  let handler: RequestHandler = service;
  if (options.rateLimit) {
    const { rate, burst, status, headers } = options.rateLimit;
    handler = new RateLimitedHandler(handler, { rate, burst, retryAfterSeconds: 1, headers, status });
  }
  if (options.latencyMs > 0) handler = new DelayedHandler(handler, options.latencyMs);

  let server: RunningServer;
  try {
    server = await startServer(handler, { host: options.host, port: options.port });
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    console.error(`serve: cannot listen on ${options.host}:${options.port} (${reason})`);
    return 1;
  }

  // The signal handlers before the first line that says the server is up: a signal sent as soon as
  // that line is read must find them (without one, SIGTERM ends the process with no clean stop).
  const stopped = new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  console.log(`Widget reference server (a conformant implementation, for testing) listening on ${server.baseUrl}`);
  console.log(shapeLine(options));
  if (!isLoopback(options.host)) console.log(`Note: ${options.host} is reachable from other machines; anyone with the tokens below can use this test server.`);
  // Printing tokens is the point here: they are this test server's own, generated just now, and
  // open nothing else. The names say so wherever they are pasted.
  console.log('Test tokens of its two accounts, generated at start (they open this test server only):');
  console.log(`  WIDGET_TOKEN=${token}`);
  console.log(`  WIDGET_SECOND_TOKEN=${secondToken}`);
  console.log('Run the suite against it:');
  // Tokens travel in the environment, never as flags: a flag is visible to every process on
  // the machine and lands in shell history (the README's rule, kept by the suite's own hint).
  console.log(`  WIDGET_TOKEN=${token} WIDGET_SECOND_TOKEN=${secondToken} ${suiteCommand()} --base-url ${server.baseUrl}`);
  console.log('Press Ctrl+C to stop.');

  await stopped;
  await server.close();
  console.log('Widget reference server stopped.');
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
