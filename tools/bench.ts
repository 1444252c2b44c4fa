/**
 * `npm run bench [-- --concurrency 8 …]`: how fast the full suite runs, whether it uses its
 * concurrency against a slow server, and whether its memory stays bounded against large answers.
 *
 * Serves the reference server in this process on loopback and runs the real suite against it
 * as a child process (`node bin/widget-conformance.mjs …`, exactly as a user does), three times:
 *   1. start-up: `--only FMT-1` with no added latency: process start, bundling, vitest start-up,
 *      collecting every suite file, probe, sweep and reports, with almost no test work;
 *   2. the full suite with no added latency;
 *   3. the full suite with `--latency` ms (default 20) added to every response: a wrapper handler
 *      waits on a timer before handing each request to the reference service, as network
 *      latency would;
 *   4. the same against an account that already holds 30 widgets, as a team's staging account
 *      does: the case the time-to-verdict target is stated for;
 *   5. the full suite at 50 ms, a server a continent away;
 *   6. the full suite against a gateway limit of 40 requests per second, burst 10, answering
 *      429 with Retry-After: 1 (src/reference/rate-limited.ts), checked against the pacing
 *      target: wall ≤ 1.5 × requests / 40 s + 5 s, at most 10% of requests refused;
 *   7. the same gateway sending the RateLimit-Policy and RateLimit fields too (almost none refused).
 * Then three memory runs of the full suite, each against a conformant server that answers large:
 *   8. every list page padded to just under the 8 MiB body cap with an extra field of the page;
 *   9. the same with the padding spread over an extra field of each Widget;
 *  10. an account that already holds 20,000 widgets.
 * For each it prints wall time, requests (conformance.json), requests refused (429/503, from
 * conformance.json), the mean number of requests in flight at the server, and the suite
 * process's peak resident set size (all its threads; tools/bin/record-peak-rss.mjs writes it at exit).
 * During the 0 ms run and the 30-widget run the server logs every request, and the plain sequential
 * checker (tools/sequential.ts) replays them one after another against a fresh server: the suite
 * must take at most 2.2 times as long on loopback (npm start-up added) and 0.6 times at latency.
 * For the slow run it checks the bound
 *     wall time ≤ start-up + 2 × requests × latency / concurrency
 * for the rate-limited runs the pacing target above, and for the memory runs peak RSS ≤ 400 MiB;
 * it exits 1 when one is broken or when a run does not exit 0; 2 on a usage error.
 * `--part speed` or `--part memory` runs only one half.
 *
 * Every argument other than the bench's own (`--latency`, `--help`) goes to the suite; the
 * bench sets the target, the tokens and the report directory itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_RESPONSE_BYTES } from '../src/http/client.ts';
import { PROJECT_ROOT } from '../src/paths.ts';
import { mib, PADDED_PAGE_BYTES, PEAK_RSS_BOUND_BYTES, PEAK_RSS_FILE_VARIABLE, PEAK_RSS_NODE_ARGS, readPeakRss } from './peak-rss.ts';
import { PaddedService } from './padded.ts';
import { prefilledStore } from '../src/reference/prefill.ts';
import { RateLimitedHandler } from '../src/reference/rate-limited.ts';
import { slowHandler, type ServerStats } from './bench-server.ts';
import { recordingHandler, type LoggedRequest } from './request-log.ts';
import { requestsTable, type RequestsReport } from './requests-per-rule.ts';
import { startServer, type RunningServer } from '../src/reference/server.ts';
import { DEFAULT_TOKENS, ReferenceService } from '../src/reference/service.ts';
import { ConfigError } from '../src/errors.ts';

const USAGE = 'usage: npm run bench -- [--latency ms] [--part speed|memory] [suite flags, e.g. --concurrency 8 --runs 50 --seed 1]';
/** Flags the bench sets itself. */
const RESERVED = ['--base-url', '--token', '--second-token', '--report-dir', '--list', '--help', '-h'];
const DEFAULT_CONCURRENCY = 4;
const DEFAULT_LATENCY_MS = 20;
const PARTS = ['speed', 'memory', 'all'] as const;
type Part = (typeof PARTS)[number];

const MIB = 1024 * 1024;
/** Widgets in the pre-filled account. */
const PREFILLED_WIDGETS = 20_000;
/** Widgets the account of the speed target's run holds before the suite starts. */
const PRE_EXISTING_WIDGETS = 30;
/** Latency of the far-away run. */
const FAR_LATENCY_MS = 50;
/** The gateway limit of the pacing target: requests per second, burst, Retry-After seconds. */
const GATEWAY = { rate: 40, burst: 10, retryAfterSeconds: 1 } as const;
/** The pacing target: wall ≤ PACE_SLACK × requests / rate + PACE_FIXED_S, refused ≤ REFUSED_SHARE of requests. */
const PACE_SLACK = 1.5;
const PACE_FIXED_S = 5;
const REFUSED_SHARE = 0.1;
/** A conformant verdict behind the gateway within this many seconds (issue 37's target). */
const VERDICT_WITHIN_S = 55;
/**
 * The time-to-verdict targets (issue 22): a full run at most this many times as long as the plain
 * sequential checker making the same requests, at --latency over 30 widgets and on loopback.
 */
const LATENCY_RATIO = 0.6;
const LOOPBACK_RATIO = 2.2;


interface BenchArgs {
  readonly latencyMs: number;
  readonly concurrency: number;
  /** Passed to every suite run. */
  readonly suiteArgs: readonly string[];
  /** The value of a --only the user gave, if any (the measured runs are then not the full suite). */
  readonly only?: string;
  readonly part: Part;
  readonly help: boolean;
}

/** The value of `flag` in `args` (`--flag v` or `--flag=v`), and the args without it. */
function takeFlag(args: readonly string[], flag: string): { value?: string; rest: string[] } {
  const rest: string[] = [];
  let value: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === flag) {
      value = args[i + 1];
      if (value === undefined) throw new ConfigError(`${flag} needs a value`);
      i++;
    } else if (arg.startsWith(`${flag}=`)) {
      value = arg.slice(flag.length + 1);
    } else {
      rest.push(arg);
    }
  }
  return { ...(value === undefined ? {} : { value }), rest };
}

function parseBenchArgs(argv: readonly string[]): BenchArgs {
  if (argv.includes('--help') || argv.includes('-h')) return { latencyMs: 0, concurrency: 0, suiteArgs: [], part: 'all', help: true };
  const partFlag = takeFlag(argv, '--part');
  const part = (partFlag.value ?? 'all') as Part;
  if (!PARTS.includes(part)) throw new ConfigError(`--part must be one of ${PARTS.join(', ')}, got "${partFlag.value}"`);
  const latency = takeFlag(partFlag.rest, '--latency');
  const latencyMs = latency.value === undefined ? DEFAULT_LATENCY_MS : Number(latency.value);
  if (!Number.isInteger(latencyMs) || latencyMs < 1 || latencyMs > 10_000) {
    throw new ConfigError(`--latency must be an integer number of milliseconds from 1 to 10000, got "${latency.value}"`);
  }
  const suiteArgs = latency.rest;
  for (const arg of suiteArgs) {
    const name = arg.split('=')[0]!;
    if (RESERVED.includes(name)) throw new ConfigError(`${name} is set by the bench itself`);
  }
  // The suite validates it; the bench only needs the number for the bound.
  const concurrencyText = takeFlag(suiteArgs, '--concurrency').value;
  const concurrency = concurrencyText === undefined ? DEFAULT_CONCURRENCY : Number(concurrencyText);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new ConfigError(`--concurrency must be a positive integer, got "${concurrencyText}"`);
  const only = takeFlag(suiteArgs, '--only').value;
  return { latencyMs, concurrency, suiteArgs, ...(only === undefined ? {} : { only }), part, help: false };
}

interface Measured {
  readonly label: string;
  readonly latencyMs: number;
  readonly exitCode: number | null;
  readonly seconds: number;
  /** From conformance.json; undefined when the run wrote none. */
  readonly requests?: number;
  /** Requests the server refused (429/503), from conformance.json. */
  readonly refused?: number;
  /** The rate the run ended paced at, from conformance.json; null when never paced. */
  readonly pacedRate?: number | null;
  readonly server: ServerStats;
  /** The slowest tests by their own duration, from conformance.json. */
  readonly slowest: ReadonlyArray<{ title: string; ms: number }>;
  /** The suite process's peak resident set size; undefined when it wrote none. */
  readonly peakRssBytes?: number;
  readonly outputTail: string;
  /** The run's conformance.json, for the requests per rule (requests-per-rule.ts) and the verdict. */
  readonly report?: ReportJson;
}

interface ReportJson extends RequestsReport {
  requests?: number;
  refused?: number;
  pacedRate?: number | null;
  verdict?: string;
  rules?: Array<{ id: string; tests?: Array<{ title: string; durationMs?: number; requests?: { sent: number; cleanup: number } }> }>;
}

/** What a run is served by: the reference service (or a variant), optionally behind a gateway's rate limit. */
interface Served {
  /** A fresh service (the plain sequential checker replays against one of its own); default the reference. */
  readonly service?: () => ReferenceService;
  readonly rateLimit?: { readonly headers: boolean };
  /** Logs every request of the run here, for the plain sequential checker. */
  readonly record?: LoggedRequest[];
}

/** Serves `service` with `latencyMs` of added latency and runs the suite against it once. */
async function measure(label: string, latencyMs: number, args: readonly string[], served: Served = {}): Promise<Measured> {
  const service = served.service?.() ?? new ReferenceService();
  const tokens = Object.entries(service.tokens);
  const first = tokens[0]!;
  const second = tokens.find(([, account]) => account !== first[1])!;
  const stats: ServerStats = { requests: 0, peakInFlight: 0, busyMs: 0 };
  const slow = served.record ? recordingHandler(slowHandler(service, latencyMs, stats), served.record) : slowHandler(service, latencyMs, stats);
  // The gateway counts in front of the latency: a refused request is answered at once, as a gateway does.
  const handler = served.rateLimit ? new RateLimitedHandler(slow, { ...GATEWAY, headers: served.rateLimit.headers }) : slow;
  const server: RunningServer = await startServer(handler);
  const reportDir = mkdtempSync(join(tmpdir(), 'widget-bench-'));
  try {
    const started = performance.now();
    const peakFile = join(reportDir, 'peak-rss');
    const { exitCode, output } = await runChild(
      [...PEAK_RSS_NODE_ARGS, join(PROJECT_ROOT, 'bin/widget-conformance.mjs'), '--base-url', server.baseUrl, '--token', first[0], '--second-token', second[0], '--report-dir', reportDir, ...args],
      reportDir,
      { [PEAK_RSS_FILE_VARIABLE]: peakFile },
    );
    const seconds = (performance.now() - started) / 1000;
    let report: ReportJson | undefined;
    try {
      report = JSON.parse(readFileSync(join(reportDir, 'conformance.json'), 'utf8')) as ReportJson;
    } catch {
      report = undefined;
    }
    const slowest = (report?.rules ?? [])
      .flatMap((r) => r.tests ?? [])
      .map((t) => ({ title: t.title, ms: t.durationMs ?? 0 }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 5);
    return {
      label,
      latencyMs,
      exitCode,
      seconds,
      ...(typeof report?.requests === 'number' ? { requests: report.requests } : {}),
      ...(typeof report?.refused === 'number' ? { refused: report.refused } : {}),
      ...(report && report.pacedRate !== undefined ? { pacedRate: report.pacedRate } : {}),
      server: stats,
      slowest,
      ...peakOf(peakFile),
      outputTail: output.split('\n').slice(-40).join('\n'),
      ...(report ? { report } : {}),
    };
  } finally {
    await server.close();
    rmSync(reportDir, { recursive: true, force: true });
  }
}

function peakOf(file: string): { peakRssBytes?: number } {
  const bytes = readPeakRss(file);
  return bytes === undefined ? {} : { peakRssBytes: bytes };
}

/** The first SIGINT or SIGTERM the bench received: no further run starts. */
let interrupted: NodeJS.Signals | undefined;
let running: ChildProcess | undefined;

/**
 * The suite runs in its own process group, so a Ctrl+C reaches it once, forwarded from here: a
 * second signal would make it exit without deleting what it created. It then stops, cleans up
 * against the server still served here, and exits; the bench exits after it.
 */
function onSignal(signal: NodeJS.Signals): void {
  if (interrupted) return;
  interrupted = signal;
  process.stderr.write(`\nwidget-bench: ${signal}: stopping the run in progress\n`);
  running?.kill(signal);
}

/** Runs node with `args` in `cwd`, in a clean environment plus `extraEnv`, and collects its output. */
function runChild(args: readonly string[], cwd: string, extraEnv: Record<string, string>): Promise<{ exitCode: number | null; output: string }> {
  // No WIDGET_* variable of the caller's and no job summary: the flags above are the whole configuration.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('WIDGET_') && k !== 'GITHUB_STEP_SUMMARY'));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...env, ...extraEnv, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running = child;
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (exitCode) => {
      running = undefined;
      resolve({ exitCode, output });
    });
  });
}

function line(m: Measured): string {
  const requests = m.requests === undefined ? 'no report' : `${m.requests} requests`;
  const rate = m.requests === undefined ? '' : `, ${(m.requests / m.seconds).toFixed(0)} req/s, ${m.refused ?? '?'} refused${m.pacedRate ? `, paced at ${m.pacedRate}/s` : ''}`;
  const meanInFlight = m.server.busyMs / 1000 / m.seconds;
  const peak = m.peakRssBytes === undefined ? 'not measured' : mib(m.peakRssBytes);
  return (
    `${m.label.padEnd(28)} ${m.seconds.toFixed(2).padStart(6)} s wall, ${requests}${rate}; exit ${m.exitCode}; peak RSS ${peak}; ` +
    `server saw ${m.server.requests}, peak ${m.server.peakInFlight} / mean ${meanInFlight.toFixed(2)} in flight`
  );
}

async function main(): Promise<number> {
  let args: BenchArgs;
  try {
    args = parseBenchArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`widget-bench: ${error.message}\n${USAGE}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(
      `${USAGE}\nRuns the suite against the reference server on loopback with no added latency and with --latency ms\n` +
        `(default ${DEFAULT_LATENCY_MS}) per response, and checks: wall time <= start-up + 2 x requests x latency / concurrency,\n` +
        `where start-up is the wall time of a run with --only FMT-1 and no added latency. It also runs it at --latency ms\n` +
        `against an account that holds ${PRE_EXISTING_WIDGETS} widgets, at ${FAR_LATENCY_MS} ms, and behind a gateway limit of ${GATEWAY.rate} requests/s\n` +
        `(burst ${GATEWAY.burst}, 429 with Retry-After: ${GATEWAY.retryAfterSeconds}; without and with RateLimit fields), and checks:\n` +
        `wall <= ${PACE_SLACK} x requests / ${GATEWAY.rate} + ${PACE_FIXED_S} s with at most ${100 * REFUSED_SHARE}% of requests refused.\n` +
        `Then runs it against list pages\n` +
        `padded to just under ${MAX_RESPONSE_BYTES / MIB} MiB and an account of ${PREFILLED_WIDGETS} widgets, and checks: peak RSS <= ${PEAK_RSS_BOUND_BYTES / MIB} MiB.\n`,
    );
    return 0;
  }
  const scope = args.only === undefined ? 'full suite' : `--only ${args.only}`;
  process.stdout.write(
    `Benchmark: ${scope}, concurrency ${args.concurrency}${args.suiteArgs.length ? `, suite flags: ${args.suiteArgs.join(' ')}` : ''}\n`,
  );

  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const runs: Measured[] = [];
  const run = async (label: string, latency: number, runArgs: readonly string[], served?: Served): Promise<Measured | undefined> => {
    if (interrupted) return undefined;
    const m = await measure(label, latency, runArgs, served);
    runs.push(m);
    process.stdout.write(`${line(m)}\n`);
    return m;
  };
  let ok = true;
  if (args.part !== 'memory') ok = (await speedRuns(args, scope, run)) && ok;
  if (args.part !== 'speed') ok = (await memoryRuns(args, scope, run)) && ok;
  if (interrupted) return interrupted === 'SIGINT' ? 130 : 143;
  for (const m of runs) {
    if (m.exitCode !== 0 || m.requests === undefined) {
      ok = false;
      process.stdout.write(`\n${m.label}: the run failed (exit ${m.exitCode}${m.requests === undefined ? ', no conformance.json' : ''}); its output ends:\n${m.outputTail}\n`);
    }
  }
  return ok ? 0 : 1;
}

type Run = (label: string, latency: number, runArgs: readonly string[], served?: Served) => Promise<Measured | undefined>;

/** Start-up, the suite at 0 ms and at --latency ms; false when the slow run breaks its bound. */
async function speedRuns(args: BenchArgs, scope: string, run: Run): Promise<boolean> {
  const { latencyMs, concurrency, suiteArgs } = args;
  const withoutOnly = takeFlag(suiteArgs, '--only').rest;
  const startup = await run('start-up (--only FMT-1)', 0, [...withoutOnly, '--only', 'FMT-1']);
  const loopbackLog: LoggedRequest[] = [];
  const fast = await run(`${scope}, 0 ms`, 0, suiteArgs, { record: loopbackLog });
  const slow = await run(`${scope}, ${latencyMs} ms`, latencyMs, suiteArgs);
  const account = Object.values(DEFAULT_TOKENS)[0]!;
  const staging = (): ReferenceService => new ReferenceService({ store: prefilledStore(account, PRE_EXISTING_WIDGETS) });
  const stagingLog: LoggedRequest[] = [];
  const target = await run(`${scope}, ${latencyMs} ms, ${PRE_EXISTING_WIDGETS} widgets`, latencyMs, suiteArgs, { service: staging, record: stagingLog });
  let ratios = true;
  if (fast && !interrupted) ratios = (await ratioTarget(fast, 0, loopbackLog, () => new ReferenceService(), LOOPBACK_RATIO, await npmStartSeconds())) && ratios;
  if (target && !interrupted) ratios = (await ratioTarget(target, latencyMs, stagingLog, staging, LATENCY_RATIO, 0)) && ratios;
  await run(`${scope}, ${FAR_LATENCY_MS} ms`, FAR_LATENCY_MS, suiteArgs);
  const limited = await run(`${scope}, ${GATEWAY.rate}/s limit, 429 only`, 0, suiteArgs, { rateLimit: { headers: false } });
  const stated = await run(`${scope}, ${GATEWAY.rate}/s limit, RateLimit fields`, 0, suiteArgs, { rateLimit: { headers: true } });
  const paced = [limited, stated].filter((m): m is Measured => m !== undefined).map(paceTarget).every(Boolean) && ratios;
  for (const m of [limited, stated]) if (m) verdictWithin(m);
  if (fast?.report) process.stdout.write(`\nRequests per rule (${fast.label}): each test's own and its widgets' cleanup, from conformance.json\n${requestsTable(fast.report)}\n`);
  if (!startup || !fast || !slow || slow.requests === undefined) return paced;
  const ideal = (slow.requests * latencyMs) / concurrency / 1000;
  const bound = startup.seconds + 2 * ideal;
  const within = slow.seconds <= bound;
  // How many requests were in flight on average once start-up is taken off: the concurrency the run achieved.
  const achieved = (slow.requests * latencyMs) / 1000 / Math.max(slow.seconds - startup.seconds, 0.001);
  process.stdout.write(
    `\nBound (${latencyMs} ms run): start-up ${startup.seconds.toFixed(2)} s + 2 x ${slow.requests} x ${latencyMs} ms / ${concurrency}` +
      ` = ${startup.seconds.toFixed(2)} + 2 x ${ideal.toFixed(2)} = ${bound.toFixed(2)} s; ` +
      `wall ${slow.seconds.toFixed(2)} s: ${within ? 'WITHIN the bound' : 'OVER the bound'}\n` +
      `Achieved concurrency (requests x latency / (wall - start-up)): ${achieved.toFixed(2)} of ${concurrency}` +
      `; the ${latencyMs} ms added ${(slow.seconds - fast.seconds).toFixed(2)} s to the 0 ms run\n`,
  );
  process.stdout.write(`Slowest tests at ${latencyMs} ms (a test's time / ${latencyMs} ms ~ its requests made one after another):\n`);
  for (const t of slow.slowest) process.stdout.write(`  ${(t.ms / 1000).toFixed(2).padStart(6)} s  ${t.title.slice(0, 110)}\n`);
  if (!within) process.stdout.write('\n');
  return within && paced;
}

/**
 * Times the plain sequential checker (tools/sequential.ts) replaying `log`, the requests of run
 * `m`, against a fresh server like the one `m` ran against, and prints the suite's ratio to it
 * against `bound`; false when it is over. `npmSeconds` is added to the suite's side: the target
 * for loopback counts `npm test`'s own start-up, which the bench's direct run leaves out.
 */
async function ratioTarget(m: Measured, latencyMs: number, log: readonly LoggedRequest[], service: () => ReferenceService, bound: number, npmSeconds: number): Promise<boolean> {
  const stats: ServerStats = { requests: 0, peakInFlight: 0, busyMs: 0 };
  const server = await startServer(slowHandler(service(), latencyMs, stats));
  const dir = mkdtempSync(join(tmpdir(), 'widget-sequential-'));
  try {
    const logFile = join(dir, 'requests.json');
    writeFileSync(logFile, JSON.stringify(log));
    const started = performance.now();
    const { exitCode, output } = await runChild([join(PROJECT_ROOT, 'tools/bin/sequential.mjs'), server.url, logFile], dir, {});
    const seconds = (performance.now() - started) / 1000;
    const replayed = parseReplay(output);
    if (exitCode !== 0 || !replayed) {
      process.stdout.write(`\nSequential checker (${m.label}): exit ${exitCode}; its output ends:\n${output.split('\n').slice(-20).join('\n')}\n`);
      return false;
    }
    const suite = m.seconds + npmSeconds;
    const ratio = suite / seconds;
    const ok = ratio <= bound;
    const npm = npmSeconds ? ` + npm start-up ${npmSeconds.toFixed(2)} s` : '';
    process.stdout.write(
      `\nTime to verdict (${m.label}): suite ${m.seconds.toFixed(2)} s${npm} = ${suite.toFixed(2)} s; plain sequential checker ` +
        `${seconds.toFixed(2)} s for the same ${log.length} requests one after another (process start included; ` +
        `${replayed.sameStatus} answered with the recorded status); ` +
        `ratio ${ratio.toFixed(2)} <= ${bound}: ${ok ? 'MET' : 'NOT MET'}\n`,
    );
    return ok;
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function parseReplay(output: string): { sameStatus: number } | undefined {
  try {
    const result = JSON.parse(output.trim().split('\n').at(-1) ?? '') as { sameStatus?: unknown };
    return typeof result.sameStatus === 'number' ? { sameStatus: result.sameStatus } : undefined;
  } catch {
    return undefined;
  }
}

/** What `npm test` adds to a run's start: `npm run --silent test -- --help` less the same without npm (the median of three each). */
async function npmStartSeconds(): Promise<number> {
  const median = async (command: string, args: readonly string[]): Promise<number> => {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      await runCommand(command, args, PROJECT_ROOT);
      times.push((performance.now() - started) / 1000);
    }
    return times.sort((a, b) => a - b)[1]!;
  };
  const viaNpm = await median(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', 'test', '--', '--help']);
  const direct = await median(process.execPath, [join(PROJECT_ROOT, 'bin/widget-conformance.mjs'), '--help']);
  return Math.max(viaNpm - direct, 0);
}

/** Runs `command` to its end, output discarded. */
function runCommand(command: string, args: readonly string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', () => resolve());
  });
}

/** Prints the pacing target for a run behind the gateway; false when it is missed. */
function paceTarget(m: Measured): boolean {
  if (m.requests === undefined) return false;
  const bound = (PACE_SLACK * m.requests) / GATEWAY.rate + PACE_FIXED_S;
  const refused = m.refused ?? m.requests;
  const ok = m.seconds <= bound && refused <= REFUSED_SHARE * m.requests;
  process.stdout.write(
    `\nPacing (${m.label}): wall ${m.seconds.toFixed(2)} s <= ${PACE_SLACK} x ${m.requests} / ${GATEWAY.rate} + ${PACE_FIXED_S} = ${bound.toFixed(2)} s, ` +
      `refused ${refused} <= ${Math.floor(REFUSED_SHARE * m.requests)} (${(100 * REFUSED_SHARE).toFixed(0)}%): ${ok ? 'MET' : 'NOT MET'}\n`,
  );
  return ok;
}

/** The time-to-verdict target behind a gateway (issue 37): a conformant run within VERDICT_WITHIN_S; printed, not a bound the bench fails on. */
function verdictWithin(m: Measured): void {
  const conformant = m.report?.verdict === 'conformant';
  const met = conformant && m.seconds <= VERDICT_WITHIN_S;
  process.stdout.write(`Verdict behind the gateway (${m.label}): ${m.report?.verdict ?? 'no report'} in ${m.seconds.toFixed(2)} s; target a conformant run within ${VERDICT_WITHIN_S} s: ${met ? 'MET' : 'NOT MET'}\n`);
}

/** The suite against padded pages and a large account; false when a run's peak RSS is over the bound or unmeasured. */
async function memoryRuns(args: BenchArgs, scope: string, run: Run): Promise<boolean> {
  const account = Object.values(DEFAULT_TOKENS)[0]!;
  const measured = [
    await run(`${scope}, padded pages`, 0, args.suiteArgs, { service: () => new PaddedService('page', PADDED_PAGE_BYTES) }),
    await run(`${scope}, padded widgets`, 0, args.suiteArgs, { service: () => new PaddedService('items', PADDED_PAGE_BYTES) }),
    await run(`${scope}, ${PREFILLED_WIDGETS} widgets`, 0, args.suiteArgs, { service: () => new ReferenceService({ store: prefilledStore(account, PREFILLED_WIDGETS) }) }),
  ].filter((m): m is Measured => m !== undefined);
  process.stdout.write(`\nPeak RSS bound: ${PEAK_RSS_BOUND_BYTES / MIB} MiB (pages padded to ${(PADDED_PAGE_BYTES / MIB).toFixed(2)} MiB; an account of ${PREFILLED_WIDGETS} widgets)\n`);
  let ok = true;
  for (const m of measured) {
    const within = m.peakRssBytes !== undefined && m.peakRssBytes <= PEAK_RSS_BOUND_BYTES;
    const peak = m.peakRssBytes === undefined ? 'not measured' : mib(m.peakRssBytes);
    process.stdout.write(`  ${m.label.padEnd(28)} ${peak.padStart(12)}: ${within ? 'WITHIN the bound' : 'OVER the bound'}\n`);
    ok = within && ok;
  }
  return ok;
}

// exitCode, not exit(): the output has time to drain once the module settles;
// every server and child is closed by now, so nothing keeps the process alive.
await main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`widget-bench: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 3;
  },
);
