/**
 * Targets set up in a way the suite cannot test, each as a user meets it: a base URL without
 * /v1, a redirect, a web page, an outage, a token that stops working mid-run. And targets that
 * look odd but are conformant, which the probe must let through. Each serves on loopback.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_TOKENS, ReferenceService } from '../../src/reference/service.ts';
import type { RequestHandler } from '../../src/reference/server.ts';

// Not from support.ts: that module reaches the suite runner, and the probe's unit tests (no child process) use these servers.
/** The reference's tokens: the account under test first, then the second account. */
export const TOKENS = Object.keys(DEFAULT_TOKENS) as [string, string];

/** A reference service whose unexpected errors are not logged. */
class QuietService extends ReferenceService {
  protected override onUnexpectedError(): void {}
}

const handler = (handle: (req: IncomingMessage, res: ServerResponse) => void): RequestHandler => ({ handle });

/** The reference itself: run with the base URL cut before /v1, its /widgets is a 404. */
export const reference = (): RequestHandler => new QuietService();

/** A login wall: every request is sent to a sign-in page, with a session id in its query. */
export const REDIRECT_SESSION = 'sess-9f8e7d6c5b4a';
export const redirecting = (): RequestHandler =>
  handler((req, res) => {
    res.writeHead(302, { location: `/login?session=${REDIRECT_SESSION}&next=${encodeURIComponent(req.url ?? '/')}` }).end();
  });

/** A moved API: every request is sent, permanently, to the same path under /api. */
export const moved = (): RequestHandler =>
  handler((req, res) => {
    res.writeHead(308, { location: `/api${req.url ?? '/'}` }).end();
  });

/** A web site at the base URL: every request answers 200 with an HTML page. */
export const HTML_TITLE = 'Acme Widgets — Home';
export const webPage = (): RequestHandler =>
  handler((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>\n<html><head><title>${HTML_TITLE}</title></head><body><h1>Welcome</h1></body></html>\n`);
  });

/**
 * Asks to be retried, every time: 503 with Retry-After (down for maintenance) or 429 (a spent
 * rate limit), answering at once (Retry-After: 0) so the test does not wait.
 */
export const comeBackLater = (status: 503 | 429): RequestHandler & { readonly requests: () => number } => {
  let requests = 0;
  return {
    handle: (_req, res) => {
      requests += 1;
      res.writeHead(status, { 'content-type': 'application/json', 'retry-after': '0' }).end(JSON.stringify({ error: { code: status === 503 ? 'maintenance' : 'rate_limited', message: 'come back later' } }));
    },
    requests: () => requests,
  };
};

/** An outage: `status` (503 by default) to everything, without Retry-After, with a gateway's HTML page. */
export const outage = (status = 503): RequestHandler & { readonly requests: () => number } => {
  let requests = 0;
  return {
    handle: (_req, res) => {
      requests += 1;
      res.writeHead(status, { 'content-type': 'text/html' }).end(`<html><body>${status} Service Temporarily Unavailable</body></html>`);
    },
    requests: () => requests,
  };
};

/** A list that answers 500 while the rest of the service works: a fault for the rules, not an outage. */
export const brokenList = (): RequestHandler => {
  const service = new QuietService();
  return handler((req, res) => {
    if (req.method === 'GET' && /^\/v1\/widgets(\?|$)/.test(req.url ?? '')) {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"code":"internal","message":"boom"}');
      return;
    }
    void service.handle(req, res);
  });
};

/** A target restarting: the first `failures` requests answer `status` (503 by default), then the reference answers. */
export const restarting = (failures: number, status = 503): RequestHandler => {
  const service = new QuietService();
  let seen = 0;
  return handler((req, res) => {
    seen += 1;
    if (seen <= failures) {
      res.writeHead(status).end();
      return;
    }
    void service.handle(req, res);
  });
};

/**
 * Conformant, with unusual choices: errors as application/problem+json (with code and message),
 * successes as `application/json;charset=UTF-8` without a space.
 */
export const unusualMediaTypes = (): RequestHandler => {
  const service = new QuietService();
  return handler((req, res) => {
    const writeHead = res.writeHead.bind(res) as (status: number, headers?: Record<string, string>) => ServerResponse;
    (res as { writeHead: unknown }).writeHead = (status: number, headers: Record<string, string> = {}) => {
      const rest = Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'content-type'));
      const had = Object.keys(headers).some((k) => k.toLowerCase() === 'content-type');
      return writeHead(status, had ? { ...rest, 'content-type': status >= 400 ? 'application/problem+json' : 'application/json;charset=UTF-8' } : rest);
    };
    void service.handle(req, res);
  });
};

/**
 * The reference, where the account under test's token stops being accepted after `lifetime`
 * requests (the probe and a few tests pass), answering 401 with an Error object from then on;
 * `renewed` is a token of the same account that keeps working, for --token-command runs.
 */
export const RENEWED_TOKEN = 'tok-renewed-0a1b2c3d';
export const expiringToken = (lifetime: number): RequestHandler => {
  const [first] = TOKENS;
  const service = new QuietService({ tokens: { ...DEFAULT_TOKENS, [RENEWED_TOKEN]: DEFAULT_TOKENS[first]! } });
  let requests = 0;
  return handler((req, res) => {
    requests += 1;
    if (requests > lifetime && req.headers.authorization === `Bearer ${first}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"code":"token_expired","message":"The access token expired."}');
      return;
    }
    void service.handle(req, res);
  });
};

/**
 * A server that fails an account until it has held a widget (a per-account map made on the
 * first create, read without a default): every GET with the token of an account that has not
 * yet created one answers 500. The account under test has held widgets before the run (its map
 * exists); the second account has not. One account's errors while the other is answered are
 * for the first-contact rules to judge, not an outage.
 */
export const failsFreshAccount = (): RequestHandler => {
  const service = new QuietService();
  const held = new Set<string>([`Bearer ${TOKENS[0]}`]);
  return handler((req, res) => {
    const auth = req.headers.authorization ?? '';
    if (req.method === 'GET' && DEFAULT_TOKENS[auth.replace(/^Bearer /, '')] !== undefined && !held.has(auth)) {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"code":"internal","message":"no such account map"}');
      return;
    }
    if (req.method === 'POST') res.on('finish', () => void (res.statusCode === 201 && held.add(auth)));
    void service.handle(req, res);
  });
};

/**
 * A server whose id parser never returns on an id in a format it never issues (a regular
 * expression that backtracks without end): a GET of such an id is never answered; every other
 * request, ids of its own format that name nothing included, is answered as the reference does.
 */
export const hangsOnForeignIds = (): RequestHandler => {
  const service = new QuietService();
  return handler((req, res) => {
    if (req.method === 'GET' && /^\/v1\/widgets\/(?!wgt_)[^/?]+/i.test(req.url ?? '')) return;
    void service.handle(req, res);
  });
};
