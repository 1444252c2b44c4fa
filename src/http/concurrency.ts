/**
 * Adaptive concurrency (no --concurrency given): how many requests the client keeps in flight,
 * set by what the server serves, not by how far away it is.
 * Long because growth, fall-back, stalls and their undoing change the same slots, windows and hold:
 * one class keeps them in one place; which requests stalled is stalls.ts, the connections' order
 * connection-order.ts.
 *
 * The principle: the slots grow only while the server answers more requests per second with
 * them, and fall back when latency rises without it. From one slot they double after each window
 * in which they were kept busy (slow start). The window right after a doubling judges it: kept,
 * and doubled again, when it brought GAIN more answers per second; undone when it did not and each
 * request took QUEUED times as long (the server, at its capacity, made the added requests wait
 * behind the others), tried again after a hold that doubles with each try that failed; kept
 * without a further doubling before such a hold when it did neither (the client's own CPU, not the
 * server, held the answers back). Latency LATENCY_RISE times the last busy window's, without more
 * answers, RISE_WINDOWS windows in a row, halves the slots.
 *
 * A stall: a request that waits far longer than usual while a request sent after it is answered
 * promptly waits for a connection the server does not serve. A server with one worker thread that
 * serves one keep-alive connection at a time leaves a second connection's request waiting until
 * the first closes, and more connections only wait in turn (the run that used to end INCOMPLETE
 * after 10-second timeouts). The slots fall back to what the server was serving (the requests in
 * flight that do not wait so, or the connections it was seen answering at once while the stalled
 * request waited, whichever is more), and hold long; while such a request waits, the client closes
 * its idle connections (stalledInFlight). A stall no answer would show (nothing else in flight is
 * answered: the last of a batch) is looked for by the clock, at its bound (stallDueAt, checkStall).
 *
 * A stall is told from a request that hangs by the order connections are served in
 * (connection-order.ts, stalls.ts): such a server takes waiting connections in the order they came,
 * so a request during whose wait a connection opened after its own is answered has had its
 * connection taken, and waits for its own answer (a route that hangs, a slow request): no stall is
 * taken from it. Nor from a request that ends, nothing left to show, while another request in
 * flight hangs (taken, and unanswered a stall bound since): the server answers others while holding
 * it, which one serving a connection at a time never does. The stall's own reaction tests the
 * requests it counted: the idle connections closed, the next requests go out on new ones, and when
 * every slot is held, one request more goes out (checkNow). When each of them is seen taken, and
 * then stays unanswered a stall bound longer or fails all the same (one whose connection the server
 * took only because the stall closed another is answered sooner), the stall is undone: the slots
 * and hold before it come back (`hung`). At a server serving one connection at a time none of this
 * happens: no newer connection is answered while an older one waits.
 *
 * The limits of the rule:
 * - A near server (an answer within TINY_LATENCY_MS: loopback, the same host) gets `unbounded`
 *   slots (--concurrency's default) after the first answers, and neither a lack of gain nor a
 *   latency rise takes them below that: there the client's own CPU is the bottleneck, so more
 *   slots show little gain, and a request waits a few milliseconds behind the others at most.
 *   Only a stall does.
 * - Beyond `unbounded` slots, a doubling is allowed only while slots / latency stays under the
 *   rate bound: a far-away server never gets more load than that from the added slots.
 * - A window whose slots were less than SATURATED busy says nothing of the server's throughput:
 *   it judges a doubling by latency alone and changes nothing else.
 * - A request that hangs while only older connections are answered looks like a stall (it is what
 *   a server serving one connection at a time shows), and so do requests that hang in every slot
 *   when the client has nothing more to send, or each ends before a newer connection is answered:
 *   the stall stands. A server that takes waiting connections in another order than they came has
 *   its stalls taken for hangs: its requests wait for its idle timeout or --timeout. Either costs
 *   time, never a verdict.
 * Deterministic: time comes from `now`, and the client reports each request sent (with the
 * connection the wire fills in) and how it ended.
 */
import { Stalls, type Ended } from './stalls.ts';
import type { WireConnection } from './transport.ts';

/** Slots at the start of a run: one, until the server shows it answers more with more. */
export const START_SLOTS = 1;
/** The first window (new connections, a cold server: no baseline) ends after this many answers. */
export const WARM_UP_ANSWERS = 4;
/**
 * A window of measurement ends after this many answers per slot (MIN_WINDOW_ANSWERS at least: the
 * mean of fewer varies too much with what the requests ask), and no sooner than MIN_WINDOW_MS.
 */
export const WINDOW_ANSWERS_PER_SLOT = 4;
export const MIN_WINDOW_ANSWERS = 8;
export const MIN_WINDOW_MS = 100;
/** A window says something of the slots only when they were this busy on average: fewer requests in flight are the client's, not the server's, limit. */
export const SATURATED = 0.75;
/** A doubling is kept when it brought at least this much more throughput (a doubling that helps brings up to twice as much; windows vary by a few percent). */
export const GAIN = 0.3;
/**
 * Without that gain, it is undone when each request took this many times as long as before it: the
 * server queued the added requests (at its capacity, twice the requests in flight take twice as
 * long). Less than that is the client's own CPU at work, which more slots do not harm.
 */
export const QUEUED = 1.5;
/** Latency this many times the level's own, without more throughput, in RISE_WINDOWS busy windows in a row, halves the slots. */
export const LATENCY_RISE = 2;
export const RISE_WINDOWS = 2;
/** A window whose fastest answer took less than this was measured against a near server (see the module comment). */
export const TINY_LATENCY_MS = 5;
/** A request in flight this many times the usual latency (and at least STALL_MIN_MS), overtaken by a prompt answer, has stalled. */
export const STALL_FACTOR = 8;
export const STALL_MIN_MS = 250;
/** At the end of a doubling's window, an overtaken request in flight this long (and STALL_FACTOR times the usual latency) makes it a stall. */
export const SUSPECT_MIN_MS = 50;
/** Wait before trying a doubling again after one that brought nothing; doubled after each, up to MAX_HOLD_MS. */
export const HOLD_MS = 1_000;
/** Wait before trying more slots again after a stall. */
export const STALLED_HOLD_MS = 30_000;
export const MAX_HOLD_MS = 60_000;
/** A latency sample counts for at most this many times the usual latency: one stalled answer does not make the server look far away. */
const SAMPLE_CAP = 4;
/** Changes of the slots kept for the tests and for a reader of the client (the last ones). */
const CHANGES_KEPT = 64;

export interface ConcurrencyOptions {
  /** The most slots (ADAPTIVE_MAX_SLOTS). */
  readonly max: number;
  /** Slots allowed whatever the latency; beyond them, slots / latency stays under `rateBound`. */
  readonly unbounded: number;
  /** Requests per second the slots beyond `unbounded` may never let the client exceed. */
  readonly rateBound: number;
  /** The clock, in ms (performance.now() by default; a simulated one in tests). */
  readonly now?: () => number;
}

/** Why the slots changed: `near` is the jump to `unbounded` at a near server; `hung` undoes stalls whose requests turned out to wait for their own answers. */
export type SlotChange = 'doubled' | 'near' | 'no-gain' | 'latency-rose' | 'stalled' | 'hung';

/** What a stall changed, restored when it is undone: the slots, and the hold on doublings. */
type BeforeStall = { readonly from: number; readonly probeAfter: number; readonly holdMs: number };

interface Window {
  start: number;
  answers: number;
  latencySum: number;
  /** The fastest answer's time: what a request takes that waits behind no other at the server. */
  fastest: number;
  /** Slot-milliseconds with requests in flight (at most the limit at a time). */
  busy: number;
  lastEvent: number;
}

/** The slots of one client, from the requests it sends and their ends (see the module comment). */
export class ConcurrencyController {
  readonly #options: ConcurrencyOptions;
  readonly #now: () => number;
  #limit = START_SLOTS;
  #peak = START_SLOTS;
  #next = 0;
  /**
   * Requests in flight, by token, and their stalls (stalls.ts). Only an overtaken request can be
   * stalled: when the client itself pauses (its CPU busy, a collection), every answer comes late at
   * once, and none is prompt.
   */
  readonly #stalls = new Stalls<BeforeStall>();
  /** Usual latency in ms (an average of capped samples), undefined before the first answer. */
  #latency: number | undefined;
  #window: Window;
  /** The first window is a warm-up (new connections, a cold server): not a baseline. */
  #warm = false;
  /** Just doubled from `from` slots, whose window answered `throughput` per second in `latency` ms each: kept or undone by the next window. */
  #probe: { readonly from: number; readonly throughput: number; readonly latency: number } | undefined;
  /** What the slots gave in the last busy window without a rise: the reference for a latency rise. */
  #level: { throughput: number; latency: number } | undefined;
  /** Busy windows in a row whose latency rose without throughput. */
  #rises = 0;
  /** No doubling before this time; and how long the next hold is. */
  #probeAfter = Number.NEGATIVE_INFINITY;
  #holdMs = HOLD_MS;
  /** Every change of the slots, in order (bounded: the last CHANGES_KEPT). */
  readonly #changes: Array<{ readonly at: number; readonly to: number; readonly why: SlotChange }> = [];

  constructor(options: ConcurrencyOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => performance.now());
    this.#window = this.#freshWindow(this.#now());
  }

  /** Slots now allowed. */
  get limit(): number {
    return this.#limit;
  }

  /** The most slots allowed so far. */
  get peak(): number {
    return this.#peak;
  }

  /** The changes of the slots, oldest first (the last CHANGES_KEPT): when, to how many, and why. */
  get changes(): ReadonlyArray<{ readonly at: number; readonly to: number; readonly why: SlotChange }> {
    return this.#changes;
  }

  /** A request went on the wire, on `connection` (the wire fills it in): its token, for answered() or failed(). */
  sent(connection?: Readonly<WireConnection>): number {
    const now = this.#now();
    this.#advance(now);
    const token = (this.#next += 1);
    this.#stalls.sent(token, now, connection);
    return token;
  }

  /**
   * When a request in flight would have waited long enough to be a stall, if no answer comes first
   * to show it (undefined: none waits so). The client looks again then (checkStall): the last
   * requests of a batch, the others answered on the one connection served and nothing more to send,
   * would otherwise wait for that connection's idle close.
   */
  get stallDueAt(): number | undefined {
    const at = this.#stalls.oldestAt();
    return at === undefined ? undefined : at + this.#stallAfter();
  }

  /** Looks for a stall with no answer to show it: a request in flight, overtaken, has waited past the stall bound. */
  checkStall(): void {
    const now = this.#now();
    this.#advance(now);
    const after = this.#stallAfter();
    if (this.#stalls.oldestAge(now) > after) this.#stall(now, after, 0);
  }

  /** The request was answered (a refusal such as 429 is not: refused()). */
  answered(token: number): void {
    const end = this.#end(token);
    if (end === undefined) return;
    const { now, waited, after } = end;
    this.#stalls.answered(end, now, after);
    this.#undoIfHung(now, after);
    const sample = this.#latency === undefined ? waited : Math.min(waited, SAMPLE_CAP * this.#latency);
    this.#latency = this.#latency === undefined ? sample : 0.9 * this.#latency + 0.1 * sample;
    const w = this.#window;
    w.answers += 1;
    w.latencySum += waited;
    w.fastest = Math.min(w.fastest, waited);
    // Answered after a stall that no answer of another showed while it lasted: the others went on
    // one connection, then none was sent (a batch waiting for its last), and only an idle
    // connection's close let the server take this one.
    if (end.stalled) return this.#stall(now, after, 0, end.request);
    // Another request, overtaken, has waited that long.
    if (this.#stalls.oldestAge(now) > after) return this.#stall(now, after, 1);
    this.#endWindowIfDue(now);
  }

  /** The server refused the request (429, 503): it answered, but served nothing; neither throughput nor a stall. */
  refused(token: number): void {
    const end = this.#end(token);
    if (end === undefined) return;
    this.#stalls.answered(end, end.now, end.after, true);
    this.#undoIfHung(end.now, end.after);
  }

  /** The request ended without an answer (a timeout, a reset): a stall when it had waited long, overtaken. */
  failed(token: number): void {
    const end = this.#end(token, true);
    if (end === undefined) return;
    this.#undoIfHung(end.now, end.after);
    if (end.stalled) this.#stall(end.now, end.after, 0, end.request);
  }

  /**
   * The request is no longer in flight: when it was sent, how long it waited, the stall bound, and
   * whether it stalled unseen (stalls.ts); judged before its own sample moves the usual latency, so
   * that a stall cannot make itself look usual.
   */
  #end(token: number, failed = false): (Ended & { readonly now: number; readonly after: number }) | undefined {
    const now = this.#now();
    this.#advance(now);
    const after = this.#stallAfter();
    const end = this.#stalls.end(token, now, after, failed);
    return end === undefined ? undefined : { ...end, now, after };
  }

  /** Undoes the doubted stalls once every request they counted has shown it hangs (the module comment): the slots and hold before them come back. */
  #undoIfHung(now: number, after: number): void {
    const before = this.#stalls.undone(now, after);
    if (before === undefined) return;
    this.#probeAfter = before.probeAfter;
    this.#holdMs = before.holdMs;
    this.#window = this.#freshWindow(now);
    this.#set(now, Math.max(this.#limit, before.from), 'hung');
  }

  /** The usual latency in ms (undefined before the first answer). */
  get latencyMs(): number | undefined {
    return this.#latency;
  }

  /**
   * Requests in flight counted as stalled, and the check of a doubted stall. While there are any, the
   * client closes its idle connections: a server serving one connection at a time takes the next one
   * waiting only when the one it serves closes (else after an idle timeout for each).
   */
  get stalledInFlight(): number {
    return this.#stalls.stalledInFlight;
  }

  /** Whether the client should send one request now, beyond the slots if every one is held, to show whether stalled requests hang (stalls.ts). */
  checkNow(): boolean {
    return this.#stalls.checkNow();
  }

  #freshWindow(now: number): Window {
    return { start: now, answers: 0, latencySum: 0, fastest: Number.POSITIVE_INFINITY, busy: 0, lastEvent: now };
  }

  /** Counts the slot-time since the last event. */
  #advance(now: number): void {
    const w = this.#window;
    w.busy += Math.min(this.#stalls.size, this.#limit) * Math.max(0, now - w.lastEvent);
    w.lastEvent = now;
  }

  /** How long a request may be in flight before it counts as stalled. */
  #stallAfter(): number {
    return Math.max(STALL_MIN_MS, STALL_FACTOR * (this.#latency ?? STALL_MIN_MS));
  }

  /** A stall: the slots fall back to what the server was serving (stalls.ts), `served` just answered. */
  #stall(now: number, after: number, served: number, ended?: Ended['request']): void {
    const serving = this.#stalls.stall(now, after, served, { from: this.#limit, probeAfter: this.#probeAfter, holdMs: this.#holdMs }, ended);
    this.#fallBack(now, 'stalled', Math.max(1, Math.min(this.#limit, serving)));
  }

  /** The most slots the rate bound allows at the usual latency. */
  #cap(): number {
    const { max, unbounded, rateBound } = this.#options;
    const bounded = this.#latency === undefined ? 0 : Math.ceil((rateBound * this.#latency) / 1000);
    return Math.min(max, Math.max(unbounded, bounded));
  }

  /** Slots no lack of gain or latency rise takes away: `unbounded` at a near server (the window's fastest answer within TINY_LATENCY_MS), else one. */
  #floor(fastest: number): number {
    return fastest < TINY_LATENCY_MS ? Math.min(this.#options.unbounded, this.#options.max) : 1;
  }

  #endWindowIfDue(now: number): void {
    const w = this.#window;
    const span = now - w.start;
    const due = this.#warm ? Math.max(MIN_WINDOW_ANSWERS, WINDOW_ANSWERS_PER_SLOT * this.#limit) : WARM_UP_ANSWERS;
    if (w.answers < due || span < MIN_WINDOW_MS) return;
    this.#window = this.#freshWindow(now);
    const floor = this.#floor(w.fastest);
    if (this.#limit < floor && now >= this.#probeAfter) {
      // Not a doubling under test: a near server's slots are not judged below the floor.
      this.#probe = undefined;
      this.#level = undefined;
      this.#warm = true;
      return this.#set(now, floor, 'near');
    }
    if (!this.#warm) {
      this.#warm = true;
      return;
    }
    const saturated = w.busy >= SATURATED * this.#limit * span;
    const throughput = (w.answers * 1000) / span;
    const latency = w.latencySum / w.answers;
    const probe = this.#probe;
    if (probe !== undefined) {
      // Judged by the window right after it, busy or not, so that both windows saw the same part of the run.
      this.#probe = undefined;
      // A request still waiting many times the usual latency after the whole window: the added
      // connections wait for the server to close another (even if the first answers looked like a gain).
      const suspect = Math.max(SUSPECT_MIN_MS, STALL_FACTOR * (this.#latency ?? 0));
      if (this.#stalls.oldestAge(now) > suspect) return this.#stall(now, suspect, 0);
      const gained = saturated && throughput >= probe.throughput * (1 + GAIN);
      // Each request took far longer: the server made the added requests wait behind the others
      // (at a server already at its capacity, twice the requests in flight take twice as long).
      const queued = latency > probe.latency * QUEUED;
      if (queued && !gained) return this.#fallBack(now, 'no-gain', Math.max(probe.from, floor));
      if (!saturated) return;
      this.#level = { throughput, latency };
      this.#rises = 0;
      // Kept, since no request waited longer for them, but they showed no gain either (the client's
      // own CPU may be what limits it): no further doubling before a hold, as after a failed try.
      if (!gained) return this.#hold(now);
      this.#holdMs = HOLD_MS;
    } else if (!saturated) {
      // The slots were not kept busy: the client had too little to send for this window to say anything of them.
      return;
    } else if (this.#level !== undefined && this.#limit > floor && latency > LATENCY_RISE * this.#level.latency && throughput < this.#level.throughput * (1 + GAIN)) {
      // One window's rise may be the client's own pause (its CPU busy, a collection): two in a row are the server's.
      this.#rises += 1;
      if (this.#rises < RISE_WINDOWS) return;
      // The reference stays: at half the slots the latency is judged against it again.
      const before = this.#level;
      this.#fallBack(now, 'latency-rose', Math.max(floor, Math.floor(this.#limit / 2)));
      this.#level = before;
      return;
    } else {
      // The last busy window without a rise: what the requests of this part of the run take.
      this.#level = { throughput, latency };
      this.#rises = 0;
    }
    this.#double(now, throughput, latency);
  }

  /** Doubles the slots (within the cap) when no hold forbids it, to be judged against this window's throughput and latency. */
  #double(now: number, throughput: number, latency: number): void {
    const to = Math.min(2 * this.#limit, this.#cap());
    if (to <= this.#limit || now < this.#probeAfter) return;
    this.#probe = { from: this.#limit, throughput, latency };
    this.#set(now, to, 'doubled');
  }

  /** No doubling for the next hold; the one after is twice as long (up to MAX_HOLD_MS). */
  #hold(now: number, atLeast = 0): void {
    const hold = Math.max(atLeast, this.#holdMs);
    this.#probeAfter = now + hold;
    this.#holdMs = Math.min(MAX_HOLD_MS, 2 * hold);
  }

  /** Back to `to` slots, holding further doublings: long after a stall, else doubling after each try that failed. */
  #fallBack(now: number, why: Exclude<SlotChange, 'doubled' | 'near'>, to: number): void {
    this.#probe = undefined;
    this.#level = undefined;
    this.#rises = 0;
    this.#hold(now, why === 'stalled' ? STALLED_HOLD_MS : 0);
    this.#window = this.#freshWindow(now);
    this.#set(now, to, why);
  }

  #set(now: number, to: number, why: SlotChange): void {
    if (to === this.#limit) return;
    this.#limit = to;
    this.#peak = Math.max(this.#peak, to);
    this.#changes.push({ at: now, to, why });
    if (this.#changes.length > CHANGES_KEPT) this.#changes.shift();
  }
}
