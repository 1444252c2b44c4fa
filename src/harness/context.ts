/**
 * The worker-side state of a run: one HTTP client shared by every test (so --concurrency
 * holds across them), the two accounts, and the register of widgets created, for cleanup.
 */
import { randomUUID } from 'node:crypto';
import { SuiteError, TokenRejectedError } from '../errors.ts';
import { isCancelled } from './cancel.ts';
import type { WidgetApi } from '../client/api.ts';
import { openAccounts } from '../client/accounts.ts';
import { secretHeaderValues } from '../shared/header-secrecy.ts';
import { clientOptions } from '../http/client-options.ts';
import { HttpClient } from '../http/client.ts';
import { Ownership } from '../client/ownership.ts';
import { Journal, readJournal } from '../client/ledger.ts';
import { deleteAllHeld, proveAllGone } from '../client/sweep.ts';
import { markRefusedBeyondBudget, markTokenRejected, recordToken } from './worker-to-runner.ts';
import { commandRunner } from './renewal.ts';
import { TokenSource } from '../client/token-source.ts';
import { carriesMarker } from './marker.ts';
import { settings, type SuiteSettings } from './settings.ts';
import { WalkGate } from './walk-gate.ts';
import { Snapshots } from './snapshots.ts';
import { ProfileTally } from '../report/profile-facts.ts';
import { noteDeleteSent } from './prerequisites.ts';
import { RequestTally } from './request-tally.ts';
import { TestScopes } from './test-scope.ts';
import { ExchangeRegistry } from './exchange-checks.ts';
import { idOf } from '../client/api.ts';

export interface RunContext {
  /** Unique per worker: names the worker's stats file (random, not from --seed: it shapes no request). */
  readonly id: string;
  readonly settings: SuiteSettings;
  readonly http: HttpClient;
  readonly primary: WidgetApi;
  readonly second?: WidgetApi;
  /** Shared full walks of each account (see snapshots.ts). */
  readonly snapshots: Snapshots;
  /** Keeps the suite's own writes out of walks that must see every widget (see walk-gate.ts). */
  readonly gate: WalkGate;
  /** Every id a create claimed, with the server's proof that it is the suite's own (see ownership.ts). */
  readonly ownership: Ownership;
  /** What every answer showed of the choices the spec leaves open (report/profile-facts.ts): recorded, never judged. */
  readonly profile: ProfileTally;
  /** Which test sent which request (request-tally.ts): accounting only. */
  readonly tally: RequestTally;
  /** The test whose code is running, in each async context (test-scope.ts). */
  readonly scopes: TestScopes;
  /** The format rules' checks of every documented answer, and the answers they keep (exchange-checks.ts). */
  readonly exchanges: ExchangeRegistry;
}

const KEY = Symbol.for('widget-conformance.run-context');
type GlobalSlot = { [KEY]?: RunContext };

/**
 * What the worker keeps for every suite file it runs (test files each load their own modules):
 * the value under `key` on globalThis, made by `make` on first use. Symbol keys only, so no global
 * (fetch among them) is ever read through it; the network check lets this module alone hold the
 * global object (test/unit/support/network-check.ts).
 */
export function perWorker<T>(key: symbol, make: () => T): T {
  const holder = globalThis as { [key: symbol]: unknown };
  if (!(key in holder)) holder[key] = make();
  return holder[key] as T;
}

/** The run context of this worker, made on first use. Kept on globalThis so every test file in the worker shares it. */
export function runContext(): RunContext {
  const holder = globalThis as GlobalSlot;
  const existing = holder[KEY];
  if (existing) return existing;
  const s = settings();
  const scopes = new TestScopes();
  const tally = new RequestTally(scopes);
  const exchanges = new ExchangeRegistry(scopes);
  const http = new HttpClient({
    ...clientOptions(s, {
      baseUrl: s.baseUrl,
      deadline: s.deadline,
      secrets: [s.token, ...(s.secondToken ? [s.secondToken] : []), ...secretHeaderValues(s.headers, s.secretHeaders)],
      // Named so that replay commands in failures read the variables, never the values.
      tokens: [{ variable: 'WIDGET_TOKEN', value: s.token }, ...(s.secondToken ? [{ variable: 'WIDGET_SECOND_TOKEN' as const, value: s.secondToken }] : [])],
      ca: s.ca,
    }),
    // Refusals past the wait budget: the client has stopped, each test after ends with a
    // RateLimitError the report counts as not run, and the runner says why in one line (exit 3).
    onRefusedBeyondBudget: (message) => markRefusedBeyondBudget(s.statsDir, message),
    onSent: (_method, url) => tally.sent(url),
  });
  // Once the run is interrupted nothing new is created, so what the final sweep finds is all there is.
  const beforeCreate = (): void => {
    if (isCancelled(s.statsDir)) throw new SuiteError('the run was interrupted: no more widgets are created', 'ERR_CANCELLED');
  };
  const gate = new WalkGate();
  // The run has no verdict from here on (exit 2): the worker's requests stop at once, each test
  // ending with a TokenRejectedError that the report counts as not run, never as a failure.
  const onTokenRejected = (message: string): void => {
    markTokenRejected(s.statsDir, message);
    http.giveUp(message, TokenRejectedError);
  };
  const profile = new ProfileTally();
  const hooks = {
    beforeCreate,
    onTokenRejected,
    write: <T>(send: () => Promise<T>) => gate.write(send),
    // One worker runs every suite file (run-vitest.ts), so this gate holds back every write of the run.
    quiet: <T>(run: () => Promise<T>) => gate.quiet(run),
    // Each reader of an answer on its own: one that throws keeps none of the others from it.
    observe: (o: Parameters<ProfileTally['observe']>[0]) => observeEach([
      // The test that created a widget is charged with its cleanup (request-tally.ts).
      () => {
        const id = o.op === 'create' && o.status >= 200 && o.status < 300 ? idOf(o.json) : undefined;
        if (id !== undefined) tally.created(id);
      },
      () => profile.observe(o),
      // Every documented answer is judged by the format rules, whichever test got it.
      () => exchanges.observe(o),
      // Which ids a DELETE went out for: a widget no delete touched and its owner cannot retrieve is lost (CRUD-4).
      () => noteDeleteSent(o),
    ]),
    unsent: (u: Parameters<ProfileTally['unsent']>[0]) => profile.unsent(u),
  };
  // The journal's inventory and contradictions so far (the runner took the inventory before any worker started).
  const ownership = new Ownership((widget) => carriesMarker(widget, s.marker), new Journal(s.journal, (text) => http.redactor.text(text)));
  if (s.journal !== undefined) ownership.loadEntries(readJournal(s.journal).filter((e) => e.kind === 'inventory' || e.kind === 'contradiction'));
  // A token a command renews is a secret from before it is first sent: here and in the runner.
  const source = (token: string, command: string | undefined, label: string, account: string): TokenSource =>
    new TokenSource(token, command === undefined ? undefined : async () => {
      const renewed = await commandRunner()(command, label);
      http.redactor.add([renewed]);
      recordToken(s.statsDir, account, renewed);
      return renewed;
    });
  const [primary, second] = openAccounts(http, ownership, [
    { name: 'primary', token: source(s.token, s.tokenCommand, '--token-command', 'primary') },
    ...(s.secondToken ? [{ name: 'second', token: source(s.secondToken, s.secondTokenCommand, '--second-token-command', 'second') }] : []),
  ], hooks, { allowCollectionWrites: s.allowCollectionWrites }) as [WidgetApi, WidgetApi | undefined];
  const ctx: RunContext = { id: randomUUID(), settings: s, http, primary, ...(second ? { second } : {}), snapshots: new Snapshots(s.maxWidgets, gate), gate, ownership, profile, tally, scopes, exchanges };
  holder[KEY] = ctx;
  return ctx;
}

/** Runs each reader of an observation; what one throws is dropped (recording never changes what a check sees). */
function observeEach(readers: ReadonlyArray<() => void>): void {
  for (const read of readers) {
    try {
      read();
    } catch {
      // The next reader still reads.
    }
  }
}

/**
 * Deletes every widget this worker holds and has not yet seen deleted (with proof first, see
 * ownership.ts), and proves gone those the tests deleted themselves (a retrieve answering 404 or
 * 410, journalled): here, so that the requests are counted for the test that made each widget
 * (request-tally.ts), and the runner's final cleanup finds them proven already.
 */
export async function deleteCreated(ctx: RunContext): Promise<void> {
  const accounts = [ctx.primary, ...(ctx.second ? [ctx.second] : [])];
  await deleteAllHeld(accounts);
  await proveAllGone(accounts);
}
