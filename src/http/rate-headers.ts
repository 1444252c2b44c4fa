/**
 * What a server says about its rate limit in response headers, read the way the common forms
 * spell it: the IETF httpapi draft's `RateLimit-Policy` / `RateLimit` fields (both the
 * structured form `"name";q=100;w=60` / `"name";r=5;t=3` and the earlier `100;w=60` /
 * `limit=100, remaining=5, reset=3`), the earlier drafts' `RateLimit-Limit/-Remaining/-Reset`,
 * and the de-facto `X-RateLimit-Limit/-Remaining/-Reset`. Pure, for unit tests; a value that
 * does not parse is ignored, never trusted (a hostile server may send anything).
 */

/** What the headers of one answer say; every field absent when not said. */
export interface RateHint {
  /** The sustained rate the server allows, in requests per second (quota / window of the most restrictive policy). */
  readonly rate?: number;
  /** Requests left in the current window. */
  readonly remaining?: number;
  /** Milliseconds until the window resets (the quota is available again). */
  readonly resetMs?: number;
}

/** Longest header value looked at: the fields are short, and a server may pad them. */
const MAX_FIELD_CHARS = 1024;
/** Longest reset believed, in seconds: a day. A reset further off than that is not a pacing hint. */
const MAX_RESET_SECONDS = 86_400;
/** A reset given as a Unix time (seconds) rather than a delta is larger than this. */
const EPOCH_SECONDS_FROM = 1_000_000_000;

/** The rate-limit hint in a response's headers (lower-case names), relative to `now` (ms). */
export function readRateHint(headers: Readonly<Record<string, string>>, now = Date.now()): RateHint {
  const field = (name: string): string | undefined => {
    const value = headers[name];
    return value === undefined || value.length > MAX_FIELD_CHARS ? undefined : value;
  };
  const rate = policyRate(field('ratelimit-policy'));
  const current = currentWindow(field('ratelimit'));
  const remaining =
    current.remaining ?? count(field('ratelimit-remaining')) ?? count(field('x-ratelimit-remaining'));
  const resetMs = current.resetMs ?? resetOf(field('ratelimit-reset'), now) ?? resetOf(field('x-ratelimit-reset'), now);
  return { ...(rate === undefined ? {} : { rate }), ...(remaining === undefined ? {} : { remaining }), ...(resetMs === undefined ? {} : { resetMs }) };
}

/** Parameters of one list member: `token;a=1;b=2` → {token, params}. */
function member(text: string): { token: string; params: Map<string, string> } {
  const [head, ...rest] = text.split(';').map((s) => s.trim());
  const params = new Map<string, string>();
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq > 0) params.set(p.slice(0, eq).trim().toLowerCase(), p.slice(eq + 1).trim().replace(/^"|"$/g, ''));
  }
  return { token: head ?? '', params };
}

/** A non-negative finite number, or undefined. */
function number(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+(\.\d+)?$/.test(text.trim())) return undefined;
  const n = Number(text.trim());
  return Number.isFinite(n) ? n : undefined;
}

/** A non-negative count, or undefined. */
function count(text: string | undefined): number | undefined {
  return number(text?.split(',')[0]);
}

/** The most restrictive quota/window of a RateLimit-Policy field, in requests per second. */
function policyRate(field: string | undefined): number | undefined {
  if (field === undefined) return undefined;
  let best: number | undefined;
  for (const item of field.split(',')) {
    const { token, params } = member(item);
    // Structured form: "name";q=100;w=60. Earlier drafts: 100;w=60.
    const quota = number(params.get('q')) ?? number(token);
    const window = number(params.get('w'));
    if (quota === undefined || window === undefined || window <= 0) continue;
    const rate = quota / window;
    if (rate > 0 && (best === undefined || rate < best)) best = rate;
  }
  return best;
}

/** Remaining and reset of a RateLimit field: `"name";r=5;t=3` or `limit=100, remaining=5, reset=3`. */
function currentWindow(field: string | undefined): { remaining?: number; resetMs?: number } {
  if (field === undefined) return {};
  let remaining: number | undefined;
  let reset: number | undefined;
  for (const item of field.split(',')) {
    const { token, params } = member(item);
    const r = number(params.get('r'));
    const t = number(params.get('t'));
    // The most restrictive policy is the one with the fewest requests left.
    if (r !== undefined && (remaining === undefined || r < remaining)) {
      remaining = r;
      reset = t ?? reset;
    }
    const eq = token.indexOf('=');
    if (eq > 0) {
      const key = token.slice(0, eq).trim().toLowerCase();
      const value = number(token.slice(eq + 1));
      if (key === 'remaining' && value !== undefined) remaining = value;
      if (key === 'reset' && value !== undefined) reset = value;
    }
  }
  const resetMs = reset === undefined || reset > MAX_RESET_SECONDS ? undefined : reset * 1000;
  return { ...(remaining === undefined ? {} : { remaining }), ...(resetMs === undefined ? {} : { resetMs }) };
}

/** A reset as delta seconds, or as a Unix time in seconds (GitHub's form); undefined when implausible. */
function resetOf(field: string | undefined, now: number): number | undefined {
  const value = count(field);
  if (value === undefined) return undefined;
  const seconds = value >= EPOCH_SECONDS_FROM ? value - now / 1000 : value;
  if (seconds < 0) return 0;
  return seconds > MAX_RESET_SECONDS ? undefined : Math.round(seconds * 1000);
}
