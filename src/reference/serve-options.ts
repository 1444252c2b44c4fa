/**
 * The flags of `widget-conformance serve` (and `npm run serve`), parsed apart from starting the
 * server so that every mistake is one line and exit 2, and so that the unit tests can try them
 * without a process.
 */
import { parseArgs } from 'node:util';
import { ConfigError } from '../errors.ts';

/** The one-line usage printed with every flag mistake. */
export const SERVE_USAGE =
  'usage: widget-conformance serve [--port N] [--host ADDRESS] [--latency MS] [--rate-limit N/s] [--rate-limit-burst N] [--rate-limit-status 429|503] [--rate-limit-headers]';

/** Defaults: loopback only, the port the README's examples use, no shaping. */
export const SERVE_DEFAULTS = { host: '127.0.0.1', port: 8080, latencyMs: 0, status: 429 } as const;

/** Longest added latency: a minute is already far beyond any real network. */
export const MAX_LATENCY_MS = 60_000;
/** Highest rate limit: beyond it a loopback server is not limited in practice. */
export const MAX_RATE = 100_000;

/** How a refused request is answered: 429 with Retry-After, or nginx's default `limit_req` answer. */
export type RefusalStatus = 429 | 503;

/** What the server is told to look like. */
export interface ServeOptions {
  readonly host: string;
  readonly port: number;
  /** Milliseconds every answer waits on a timer before the request is handled. */
  readonly latencyMs: number;
  /** A gateway's token bucket in front of the service, or none. */
  readonly rateLimit?: {
    /** Requests per second, every caller together. */
    readonly rate: number;
    /** Requests that may arrive at once after a quiet spell. */
    readonly burst: number;
    readonly status: RefusalStatus;
    /** Send the IETF draft's RateLimit-Policy and RateLimit fields on every answer. */
    readonly headers: boolean;
  };
  readonly help: boolean;
}

/** The help text: every flag with its default. */
export function serveHelp(): string {
  return [
    SERVE_USAGE,
    'Runs the reference Widget Service (a conformant implementation) until Ctrl+C, SIGINT or SIGTERM.',
    `  --port N                 port to listen on (default ${SERVE_DEFAULTS.port}; 0 picks a free port)`,
    `  --host ADDRESS           address to listen on (default ${SERVE_DEFAULTS.host}, loopback only)`,
    `  --latency MS             delay every answer by MS milliseconds (default 0, at most ${MAX_LATENCY_MS})`,
    '  --rate-limit N/s         refuse requests beyond N per second, every caller together (default: no limit)',
    '  --rate-limit-burst N     requests accepted at once after a quiet spell (default: a quarter of N, at least 1)',
    '  --rate-limit-status S    429 (default): 429 with Retry-After: 1; 503: 503 with an HTML body and no',
    "                           Retry-After, as nginx's default limit_req answers",
    '  --rate-limit-headers     send RateLimit-Policy and RateLimit (IETF draft) on every answer',
    'The two accounts\' tokens are generated at start and printed: they open this test server only.',
  ].join('\n');
}

/** A non-negative integer flag value within [min, max], or a ConfigError naming the flag. */
function integer(flag: string, text: string, min: number, max: number): number {
  if (!/^[0-9]{1,9}$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new ConfigError(`${flag} must be an integer from ${min} to ${max}, got "${text}"`);
  }
  return Number(text);
}

/** `N/s` (N a positive number, decimals allowed) as requests per second. */
function rate(text: string): number {
  const match = /^([0-9]{1,6}(?:\.[0-9]{1,3})?)\/s$/.exec(text);
  const value = match ? Number(match[1]) : NaN;
  if (!(value > 0 && value <= MAX_RATE)) {
    throw new ConfigError(`--rate-limit must be requests per second as N/s, N above 0 and at most ${MAX_RATE} (e.g. 40/s), got "${text}"`);
  }
  return value;
}

/** Parses the serve flags; throws ConfigError (one line) on any mistake. */
export function parseServeOptions(argv: readonly string[]): ServeOptions {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        latency: { type: 'string' },
        'rate-limit': { type: 'string' },
        'rate-limit-burst': { type: 'string' },
        'rate-limit-status': { type: 'string' },
        'rate-limit-headers': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    // node:util's messages run over several lines for some mistakes; the first says what is wrong.
    throw new ConfigError((error instanceof Error ? error.message : String(error)).split('\n')[0]!);
  }
  const text = (name: string): string | undefined => values[name] as string | undefined;
  const port = integer('--port', text('port') ?? String(SERVE_DEFAULTS.port), 0, 65535);
  const host = text('host') ?? SERVE_DEFAULTS.host;
  if (host.trim() === '') throw new ConfigError('--host must not be empty');
  const latencyMs = integer('--latency', text('latency') ?? '0', 0, MAX_LATENCY_MS);
  const limit = text('rate-limit');
  const limitOnly = ['rate-limit-burst', 'rate-limit-status', 'rate-limit-headers'].filter((name) => values[name] !== undefined);
  if (limit === undefined) {
    // A shaping flag that would silently do nothing is a mistake, not a default.
    if (limitOnly.length > 0) throw new ConfigError(`--${limitOnly[0]} needs --rate-limit N/s`);
    return { host, port, latencyMs, help: values.help === true };
  }
  const perSecond = rate(limit);
  const burstText = text('rate-limit-burst');
  const burst = burstText === undefined ? Math.max(1, Math.floor(perSecond / 4)) : integer('--rate-limit-burst', burstText, 1, 1_000_000);
  const statusText = text('rate-limit-status') ?? String(SERVE_DEFAULTS.status);
  if (statusText !== '429' && statusText !== '503') {
    throw new ConfigError(`--rate-limit-status must be 429 or 503, got "${statusText}"`);
  }
  return {
    host,
    port,
    latencyMs,
    rateLimit: { rate: perSecond, burst, status: Number(statusText) as RefusalStatus, headers: values['rate-limit-headers'] === true },
    help: values.help === true,
  };
}
