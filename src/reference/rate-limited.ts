/**
 * A gateway's rate limit in front of any handler: one token bucket for every caller together
 * (the strictest common form), refilled at `rate` tokens per second up to `burst`. A request
 * finding the bucket empty is answered 429 with `Retry-After` and never reaches the service
 * (or, as nginx's default `limit_req` does, 503 with an HTML page and no Retry-After);
 * optionally every answer carries the IETF draft's `RateLimit-Policy` and `RateLimit` fields.
 * For the bench and the self-tests: a conformant service behind it must be judged conformant.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from './server.ts';

export interface RateLimitOptions {
  /** Tokens per second. */
  readonly rate: number;
  /** Bucket size: requests that may arrive at once after a quiet spell. */
  readonly burst: number;
  /** Seconds, sent as Retry-After on every 429. */
  readonly retryAfterSeconds: number;
  /** Send RateLimit-Policy and RateLimit on every answer. */
  readonly headers?: boolean;
  /** 'nginx': refuse as nginx's limit_req does by default, 503 with an HTML page and no Retry-After. */
  readonly style?: 'nginx';
}

/** nginx's default error page for 503. */
const NGINX_503 = '<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body>\r\n<center><h1>503 Service Temporarily Unavailable</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/** What the limit did: the bench and the self-tests compare it with what the suite reports. */
export interface RateLimitCounts {
  accepted: number;
  refused: number;
}

/** `inner` behind a token-bucket rate limit. */
export class RateLimitedHandler implements RequestHandler {
  readonly counts: RateLimitCounts = { accepted: 0, refused: 0 };
  private tokens: number;
  private refilledAt = performance.now();

  constructor(
    private readonly inner: RequestHandler,
    private readonly options: RateLimitOptions,
  ) {
    this.tokens = options.burst;
  }

  handle(req: IncomingMessage, res: ServerResponse): Promise<void> | void {
    const { rate, burst, retryAfterSeconds } = this.options;
    const now = performance.now();
    this.tokens = Math.min(burst, this.tokens + ((now - this.refilledAt) / 1000) * rate);
    this.refilledAt = now;
    const taken = this.tokens >= 1;
    if (taken) this.tokens -= 1;
    if (this.options.headers) {
      // Seconds until a token is back, at least 1: the draft's reset is a whole number of seconds.
      const reset = Math.max(1, Math.ceil((1 - Math.min(1, this.tokens)) / rate));
      res.setHeader('RateLimit-Policy', `"gateway";q=${rate};w=1`);
      res.setHeader('RateLimit', `"gateway";r=${Math.floor(this.tokens)};t=${reset}`);
    }
    if (!taken) {
      this.counts.refused += 1;
      // The request body is not read: a gateway refuses before the service sees it.
      if (this.options.style === 'nginx') {
        res.writeHead(503, { 'content-type': 'text/html' }).end(NGINX_503);
        return;
      }
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(retryAfterSeconds) });
      res.end(JSON.stringify({ code: 'rate_limited', message: `more than ${rate} requests per second` }));
      return;
    }
    this.counts.accepted += 1;
    return this.inner.handle(req, res);
  }
}
