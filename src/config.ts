// Suite configuration. OPTIONS is the single source of truth: parsing, --help and
// .env.example (checked by a unit test) all follow from it.
// Long because the option table is data (one entry per option, with its variable, default and
// help) and its parser must stay beside it: splitting them would put one fact in two places.
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './errors.ts';
import { EXIT_CODES } from './exit-codes.ts';
import { userDirectory } from './paths.ts';
import { parse as parseDotenv } from 'dotenv';
import { REDACTED, redactUrlCredentials, urlPassword } from './http/redact.ts';
import { parseHeaderLine } from './http/headers.ts';
import { isSecretHeader, secretHeaderSet, secretHeaderValues } from './http/header-secrecy.ts';

export interface SuiteConfig {
  baseUrl?: string;
  token?: string;
  secondToken?: string;
  tokenCommand?: string;
  secondTokenCommand?: string;
  withoutSecondToken: boolean;
  headers?: Readonly<Record<string, string>>;
  /** Header names whose --header values are secrets, comma-separated (besides the ones secret by name). */
  secretHeaders?: string;
  caFile?: string;
  reportDir: string;
  strict: boolean;
  /** --allow-collection-writes: MAL-5 may send PUT and PATCH to /widgets (destructive on a server that implements them). */
  allowCollectionWrites: boolean;
  timeoutMs: number;
  concurrency: number;
  /** --concurrency was given (flag, variable or .env): the slots stay fixed; otherwise they adapt to latency. */
  concurrencyGiven: boolean;
  seed: number;
  seedGiven: boolean;
  runs: number;
  clockToleranceMs: number;
  maxRetries: number;
  maxRetryWaitMs: number;
  maxRateLimitWaitMs: number;
  maxRate?: number;
  maxRunTimeMs: number;
  maxWidgets: number;
  propertyBudgetMs: number;
  listSettleMs: number;
  only?: string;
  /** --test: a test-name filter below --only (a substring of the title, or /regex/). */
  testName?: string;
  /** --last-failed: run the rules and tests that failed or warned in the report directory's previous run. */
  lastFailed: boolean;
  /** --keep-failing: leave the widgets of failing tests in place (journalled) for their replays. */
  keepFailing: boolean;
  baseline?: string;
  /** --write-baseline: after the run, write the failed (and under --strict, warned) rules to this file in --baseline's format. */
  writeBaseline?: string;
  failOn?: string;
  fileOrder?: string;
  implementation?: string;
  list: boolean;
  help: boolean;
}

export { ConfigError } from './errors.ts';

// Ties each option kind to the SuiteConfig fields of the matching type, so a
// mismatched table entry fails to compile.
type KeyOf<T> = {
  [K in keyof SuiteConfig]-?: NonNullable<SuiteConfig[K]> extends T ? K : never;
}[keyof SuiteConfig];

interface BaseOption {
  readonly flag: `--${string}`;
  readonly short?: `-${string}`;
  readonly env?: `WIDGET_${string}`;
  readonly description: string;
  /** Shown instead of `default` when absence means something other than a value. */
  readonly defaultText?: string;
  readonly secret?: true;
  /** A line .env.example shows above the option's own comment (an example of the variable's form). */
  readonly envNote?: string;
}
interface TextOption extends BaseOption {
  /** `command`: a shell command line (spaces allowed), shown redacted in reports since it may name a credential. */
  readonly kind: 'string' | 'url' | 'command';
  readonly key: KeyOf<string>;
  readonly arg: string;
  readonly default?: string;
  /** May be given more than once: the values are joined with commas (a list of names). */
  readonly repeatable?: true;
}
interface IntOption extends BaseOption {
  readonly kind: 'int';
  readonly key: KeyOf<number>;
  readonly arg: string;
  readonly default?: number;
  readonly min: number;
  readonly max?: number;
  readonly unit?: 'milliseconds';
}
interface BoolOption extends BaseOption {
  /** `bool` may be set from the environment; `flag` is command-line only and takes no value. */
  readonly kind: 'bool' | 'flag';
  readonly key: KeyOf<boolean>;
  readonly default: boolean;
}
/** The one repeatable kind: each `Name: value` given adds a header (from a variable: one per line). */
interface HeadersOption extends BaseOption {
  readonly kind: 'headers';
  readonly key: KeyOf<Readonly<Record<string, string>>>;
  readonly arg: string;
  readonly default?: undefined;
}
export type OptionDef = TextOption | IntOption | BoolOption | HeadersOption;

/** Longest --implementation label: it heads a column of a comparison (schemas/conformance-report.schema.json says the same). */
const IMPLEMENTATION_MAX = 200;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** Every option the suite understands, in --help order. */
export const OPTIONS: readonly OptionDef[] = [
  { flag: '--base-url', env: 'WIDGET_BASE_URL', kind: 'url', key: 'baseUrl', arg: 'url',
    defaultText: 'embedded reference server', description: 'Base URL of the service under test, including /v1' },
  { flag: '--token', env: 'WIDGET_TOKEN', kind: 'string', key: 'token', arg: 'token', secret: true,
    defaultText: 'none; required with --base-url', description: 'Bearer token of the account under test' },
  { flag: '--second-token', env: 'WIDGET_SECOND_TOKEN', kind: 'string', key: 'secondToken', arg: 'token', secret: true,
    defaultText: 'none (the run then stops with exit 2, unless --without-second-token)',
    description: 'Bearer token of a second account: the isolation rules (ISO, MUST) need it; without it the run stops with exit 2 before any request, unless --without-second-token is given' },
  { flag: '--token-command', env: 'WIDGET_TOKEN_COMMAND', kind: 'command', key: 'tokenCommand', arg: 'cmd',
    envNote: 'For example: WIDGET_TOKEN_COMMAND="vault kv get -field=token secret/widgets"', defaultText: 'none', description: 'Shell command whose output is the token of the account under test (instead of --token); run again when the target stops accepting the token' },
  { flag: '--second-token-command', env: 'WIDGET_SECOND_TOKEN_COMMAND', kind: 'command', key: 'secondTokenCommand', arg: 'cmd',
    defaultText: 'none', description: 'Shell command whose output is the token of the second account (instead of --second-token)' },
  { flag: '--without-second-token', env: 'WIDGET_WITHOUT_SECOND_TOKEN', kind: 'bool', key: 'withoutSecondToken', default: false,
    description: 'Run without a second account: the isolation rules are not run, and every format\'s verdict says PASSED (partial: …) naming them, never CONFORMANT (without this, a run with no second token stops with exit 2 before any request)' },
  { flag: '--header', env: 'WIDGET_HEADERS', kind: 'headers', key: 'headers', arg: 'name: value', secret: true,
    envNote: 'Several headers: one per line, in double quotes, for example WIDGET_HEADERS="X-Tenant: t1\\nX-Api-Key: k"', defaultText: 'none', description: 'Header sent on every request, as "Name: value"; repeatable (in WIDGET_HEADERS one per line); shown as sent in all output unless it is secret (see --secret-header)' },
  { flag: '--secret-header', env: 'WIDGET_SECRET_HEADERS', kind: 'string', key: 'secretHeaders', arg: 'names', repeatable: true,
    envNote: 'For example: WIDGET_SECRET_HEADERS="X-Tenant-Secret, X-Org"',
    defaultText: 'Authorization, Cookie and names holding key, token, secret, password, session, credential or signature',
    description: 'Names of --header headers whose values are secrets, comma-separated; repeatable. Their values are hidden like a token in all output' },
  { flag: '--ca-file', env: 'WIDGET_CA_FILE', kind: 'string', key: 'caFile', arg: 'file',
    defaultText: 'none (NODE_EXTRA_CA_CERTS works too)', description: 'PEM file of a private CA to trust for https' },
  { flag: '--report-dir', env: 'WIDGET_REPORT_DIR', kind: 'string', key: 'reportDir', arg: 'dir',
    default: 'reports', description: 'Directory the reports are written to' },
  { flag: '--strict', env: 'WIDGET_STRICT', kind: 'bool', key: 'strict',
    default: false, description: 'Fail the run on SHOULD-level violations too' },
  { flag: '--allow-collection-writes', env: 'WIDGET_ALLOW_COLLECTION_WRITES', kind: 'bool', key: 'allowCollectionWrites', default: false,
    description: 'Let MAL-5 send PUT and PATCH to /widgets, the collection itself. DESTRUCTIVE on a server that implements them: it may replace or change every widget of the account, widgets the suite did not create and widgets its list hides among them. Without it, MAL-5 judges those methods on the suite\'s own widget only and skips the collection checks, naming this flag' },
  { flag: '--timeout', env: 'WIDGET_TIMEOUT_MS', kind: 'int', key: 'timeoutMs', arg: 'ms', min: 1, unit: 'milliseconds',
    default: 10_000, description: 'Per-request timeout in milliseconds' },
  { flag: '--concurrency', env: 'WIDGET_CONCURRENCY', kind: 'int', key: 'concurrency', arg: 'n', min: 1, max: 64,
    default: 4, description: 'Most requests in flight at once; when not given, the suite starts at 4 and adds slots (up to 8) as latency grows, never more than 320 requests per second from them' },
  { flag: '--seed', env: 'WIDGET_SEED', kind: 'int', key: 'seed', arg: 'n', min: INT32_MIN, max: INT32_MAX,
    defaultText: 'random', description: 'fast-check seed; reuse a reported seed to replay a run' },
  { flag: '--runs', env: 'WIDGET_RUNS', kind: 'int', key: 'runs', arg: 'n', min: 1,
    default: 50, description: 'fast-check runs per property' },
  { flag: '--clock-tolerance', env: 'WIDGET_CLOCK_TOLERANCE_MS', kind: 'int', key: 'clockToleranceMs', arg: 'ms', min: 0,
    unit: 'milliseconds', default: 300_000,
    description: "Allowed difference between the server's created_at and the client's clock, in milliseconds" },
  { flag: '--max-retries', env: 'WIDGET_MAX_RETRIES', kind: 'int', key: 'maxRetries', arg: 'n', min: 0, max: 10,
    default: 3, description: 'Retries of a request answered 429 or 503 (four times as many while the server answers other requests meanwhile)' },
  { flag: '--max-retry-wait', env: 'WIDGET_MAX_RETRY_WAIT_MS', kind: 'int', key: 'maxRetryWaitMs', arg: 'ms', min: 0,
    unit: 'milliseconds', default: 30_000, description: 'Longest Retry-After the suite will wait, in milliseconds' },
  { flag: '--max-rate-limit-wait', env: 'WIDGET_MAX_RATE_LIMIT_WAIT_MS', kind: 'int', key: 'maxRateLimitWaitMs', arg: 'ms', min: 0,
    unit: 'milliseconds', default: 120_000,
    description: 'Wall-clock time the run may spend blocked by 429/503 answers (Retry-After, backoff), in milliseconds; then every further request fails and the run ends as a suite error' },
  { flag: '--max-rate', env: 'WIDGET_MAX_RATE', kind: 'int', key: 'maxRate', arg: 'n', min: 1, max: 100_000,
    defaultText: "none: paced only by the server's rate-limit headers and 429 answers",
    description: 'Most requests per second, both accounts together: a polite pace for shared environments' },
  { flag: '--max-run-time', env: 'WIDGET_MAX_RUN_TIME_MS', kind: 'int', key: 'maxRunTimeMs', arg: 'ms', min: 1000,
    unit: 'milliseconds', default: 1_800_000,
    description: 'Longest time the tests may take, in milliseconds; then no request is sent, what ran is reported, and cleanup gets its own short budget' },
  { flag: '--max-widgets', env: 'WIDGET_MAX_WIDGETS', kind: 'int', key: 'maxWidgets', arg: 'n', min: 1, default: 10000,
    description: 'Most widgets the accounts under test may hold; list walks stop beyond it' },
  { flag: '--property-budget', env: 'WIDGET_PROPERTY_BUDGET_MS', kind: 'int', key: 'propertyBudgetMs', arg: 'ms', min: 1,
    unit: 'milliseconds', default: 60_000, description: 'Longest time one property may run, in milliseconds; it then stops and reports the runs completed, and the verdict says PASSED (partial: …) naming the check cut short, never CONFORMANT' },
  { flag: '--list-settle-ms', env: 'WIDGET_LIST_SETTLE_MS', kind: 'int', key: 'listSettleMs', arg: 'ms', min: 0, max: 60_000,
    unit: 'milliseconds', default: 0,
    description: 'Accept a list that shows a created widget, or stops showing a deleted one, within this many milliseconds (0: lists are judged at once); every report states the window' },
  { flag: '--only', env: 'WIDGET_ONLY', kind: 'string', key: 'only', arg: 'ids', defaultText: 'every rule',
    description: 'Rule ids or families to run, comma-separated (e.g. AUTH,PAGE-3); the verdict of such a run is at best PASSED (partial: N of M rules), never CONFORMANT, and it exits 0 when what ran passed' },
  { flag: '--test', env: 'WIDGET_TEST', kind: 'string', key: 'testName', arg: 'text', defaultText: 'every test',
    description: 'Run only the tests whose names contain this text, or match /regex/flags (below --only, as vitest -t; --only RULE.text does both); the run is then partial' },
  { flag: '--last-failed', kind: 'flag', key: 'lastFailed', default: false,
    description: "Rerun only the tests that failed or warned in the report directory's previous run against the same target (its conformance.json); the run is then partial" },
  { flag: '--keep-failing', env: 'WIDGET_KEEP_FAILING', kind: 'bool', key: 'keepFailing', default: false,
    description: "Leave the widgets of failing tests in place (those their requests name, and the widgets made for the walks they judged; journalled, listed by id) so that their curl commands find them as they were; `cleanup` deletes them later (needs --base-url)" },
  { flag: '--write-baseline', env: 'WIDGET_WRITE_BASELINE', kind: 'string', key: 'writeBaseline', arg: 'file', defaultText: 'none',
    description: 'After the run, write the rules that failed (and, with --strict, warned) to this file in the format --baseline reads, one commented line each' },
  { flag: '--baseline', env: 'WIDGET_BASELINE', kind: 'string', key: 'baseline', arg: 'file', defaultText: 'none',
    description: 'File of rule ids known to fail: reported as expected failures, they do not fail the run' },
  { flag: '--fail-on', env: 'WIDGET_FAIL_ON', kind: 'string', key: 'failOn', arg: 'level', defaultText: 'must',
    description: 'Which violations fail the run: must, or should (the long form of --strict)' },
  { flag: '--file-order', env: 'WIDGET_FILE_ORDER', kind: 'string', key: 'fileOrder', arg: 'order', defaultText: 'name',
    description: 'Order the suite files run in: name or reverse; the verdict does not depend on it (the self-tests check so)' },
  { flag: '--implementation', env: 'WIDGET_IMPLEMENTATION', kind: 'string', key: 'implementation', arg: 'name@version',
    defaultText: "the base URL's host (reference@<suite version> for the embedded server)",
    description: 'Label of the implementation under test, written into the reports; npm run compare lines up runs of one implementation by its name' },
  { flag: '--list', kind: 'flag', key: 'list', default: false, description: 'Print the rule catalogue and exit' },
  { flag: '--help', short: '-h', kind: 'flag', key: 'help', default: false, description: 'Print this help and exit' },
];

/** A raw option value and a label naming where it came from, for error messages. */
interface Given {
  readonly raw: string;
  readonly from: string;
  /** Every value of a repeatable option given as flags, in order (a headers option only). */
  readonly items?: readonly string[];
}

/** The .env file the suite reads: in the directory the user ran the command from (see userDirectory). */
export function envFilePath(env: Record<string, string | undefined>): string {
  return join(userDirectory(env), '.env');
}

/** Resolves the configuration from flags, then `env`, then the .env file, then defaults. */
export function resolveConfig(
  argv: string[],
  env: Record<string, string | undefined>,
  options: { envFile?: string } = {},
): SuiteConfig {
  const envFile = options.envFile ?? envFilePath(env);
  const flags = parseArgv(argv);
  const file = readEnvFile(envFile);

  const config: Record<string, unknown> = {};
  const sources = new Map<OptionDef['key'], string>();
  for (const def of OPTIONS) {
    const given =
      flags.get(def) ?? fromEnv(def, env, (name) => name) ?? fromEnv(def, file, (name) => `${name} in ${envFile}`);
    const value = given ? convert(def, given) : def.default;
    if (value === undefined) continue;
    config[def.key] = value;
    if (given) sources.set(def.key, given.from);
  }
  config.seedGiven = config.seed !== undefined;
  config.concurrencyGiven = sources.has('concurrency');
  config.seed ??= randomInt(INT32_MIN, INT32_MAX + 1);

  // Every field was filled from a table entry whose key and kind are checked against SuiteConfig.
  const result = config as unknown as SuiteConfig;
  // --help and --list never contact a target, so a half-configured target must not block them.
  if (!result.help && !result.list) checkRelations(result, sources);
  return result;
}

/** The config with every secret replaced by "[REDACTED]", safe to print or write to a report. */
export function redactedConfig(c: SuiteConfig): Record<string, unknown> {
  const out: Record<string, unknown> = { ...c };
  for (const def of OPTIONS) {
    if ((def.secret || def.kind === 'command') && out[def.key] !== undefined) out[def.key] = REDACTED;
  }
  // The header names say which gateway or tenant headers were sent; only the secret ones' values are hidden.
  if (c.headers !== undefined) {
    const listed = secretHeaderSet(c.secretHeaders);
    out.headers = Object.fromEntries(Object.entries(c.headers).map(([name, value]) => [name, isSecretHeader(name, listed) ? REDACTED : value]));
  }
  if (c.baseUrl !== undefined) out.baseUrl = redactUrlCredentials(c.baseUrl);
  return out;
}

/** The non-empty secret values of `c`, the base URL's password among them, for scrubbing them from logs and reports. */
export function secretsOf(c: SuiteConfig): string[] {
  const tokens = OPTIONS.filter((def) => def.secret && def.kind !== 'headers')
    .map((def) => c[def.key])
    .filter((v): v is string => typeof v === 'string' && v !== '');
  tokens.push(...secretHeaderValues(c.headers, c.secretHeaders));
  const password = c.baseUrl === undefined ? undefined : urlPassword(c.baseUrl);
  return password === undefined ? tokens : [...tokens, ...new Set([password, percentDecoded(password)])];
}

function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `raw` with the password of a URL, even an unparseable one, replaced: fit for an error message. */
function withoutPassword(raw: string): string {
  const password = urlPassword(raw);
  // The password runs from the first ':' after 'scheme://' to the last '@', so `:password@`
  // first occurs exactly there.
  return password === undefined ? raw : raw.replace(`:${password}@`, `:${REDACTED}@`);
}

/** The subcommands of `widget-conformance`, as --help lists them (bin/widget-conformance.mjs dispatches them). */
export const SUBCOMMANDS = [
  { name: 'replay', args: 'FILE', does: 'runs one failing test again from its replay file (reports/replay/*.json): one line, exit 1 when it fails again' },
  { name: 'cleanup', args: '[options]', does: 'deletes widgets left behind by killed runs' },
  { name: 'compare', args: 'RUN… --out DIR', does: 'lines up runs rule by rule (matrix.html, matrix.md)' },
  { name: 'verify', args: 'DIR', does: 'checks that a report bundle is whole and unaltered' },
  { name: 'serve', args: '[options]', does: 'runs the reference server (--latency, --rate-limit: slow or limited)' },
] as const;

const SUBCOMMAND_WIDTH = Math.max(...SUBCOMMANDS.map(({ name, args }) => `widget-conformance ${name} ${args}`.length));

/** One row per option, as --help and the generated options table in docs/options.md show it. */
export interface OptionRow {
  readonly usage: string;
  readonly env: string;
  readonly fallback: string;
  readonly description: string;
}

/** Every option's row: its flag with argument, variable, default and description (with its range). */
export function optionRows(): OptionRow[] {
  return OPTIONS.map((def) => ({ usage: usageOf(def), env: def.env ?? '', fallback: defaultOf(def), description: `${def.description}${rangeOf(def)}` }));
}

/** The --help text: every option with its variable, default and meaning, then the exit codes. */
export function helpText(): string {
  const rows = optionRows().map((r) => [r.usage, r.env, r.fallback] as const);
  const flagWidth = Math.max(...rows.map(([flag]) => flag.length));
  const envWidth = Math.max(...rows.map(([, env]) => env.length));
  const line = ([flag, env, fallback]: readonly [string, string, string]) =>
    `  ${flag.padEnd(flagWidth)}  ${env.padEnd(envWidth)}  ${fallback}`.trimEnd();

  return [
    'Usage: widget-conformance [options]           (in a checkout of the suite: npm test -- [options])',
    ...SUBCOMMANDS.map(({ name, args, does }) => `       ${`widget-conformance ${name} ${args}`.padEnd(SUBCOMMAND_WIDTH)}  ${does}`),
    '       (each subcommand takes --help; in a checkout of the suite: npm run <subcommand> -- …)',
    '',
    'Checks a Widget Service deployment against the conformance rules.',
    'Without --base-url the suite runs against its embedded reference server.',
    '',
    line(['Option', 'Variable', 'Default']),
    ...optionRows().flatMap((row, i) => [line(rows[i]!), `      ${row.description}`]),
    '',
    'Settings are taken from flags first, then environment variables, then a .env',
    'file in the directory you ran the command from, then the defaults. Empty variables',
    'count as unset. Relative paths (--report-dir, --baseline) are taken from that',
    'directory too: under npm, the one npm was started in (even with npm --prefix).',
    '',
    'Exit codes:',
    ...EXIT_CODES.map(({ code, meaning }) => `  ${String(code).padEnd(3)}  ${meaning}`),
    '',
  ].join('\n');
}

function usageOf(def: OptionDef): string {
  const names = def.short ? `${def.short}, ${def.flag}` : def.flag;
  return 'arg' in def ? `${names} <${def.arg}>` : names;
}

function rangeOf(def: OptionDef): string {
  return def.kind === 'int' && def.max !== undefined ? ` (${def.min} to ${def.max})` : '';
}

function defaultOf(def: OptionDef): string {
  if (def.defaultText !== undefined) return def.defaultText;
  if (def.kind === 'flag') return '';
  if (def.kind === 'bool') return def.default ? 'on' : 'off';
  return String(def.default);
}

function parseArgv(argv: readonly string[]): Map<OptionDef, Given> {
  const given = new Map<OptionDef, Given>();
  let previous: OptionDef | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('-') || arg === '-' || arg === '--') throw unexpectedArgument(arg, previous);

    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const def = OPTIONS.find((o) => o.flag === name || o.short === name);
    // Only the name is echoed: the part after '=' may be a token.
    if (!def) throw new ConfigError(`unknown option ${name}${suggestionFor(name)}`);
    const earlier = given.get(def);
    const repeatable = def.kind === 'headers' || ('repeatable' in def && def.repeatable === true);
    if (earlier && !repeatable) throw new ConfigError(`${def.flag} was given more than once`);

    let raw = eq === -1 ? undefined : arg.slice(eq + 1);
    if (def.kind === 'flag') {
      if (raw !== undefined) throw new ConfigError(`${name} takes no value`);
      raw = 'true';
    } else if (def.kind === 'bool') {
      raw ??= 'true';
    } else if (raw === undefined) {
      const next = argv[i + 1];
      // '-5' is a value (a seed), '-h' or '--runs' is the next option.
      if (next === undefined || /^-(?!\d)/.test(next)) {
        throw new ConfigError(`${name} needs a value: ${usageOf(def)}`);
      }
      raw = next;
      i++;
    }
    const items = [...(earlier?.items ?? []), raw];
    given.set(def, def.kind === 'headers' ? { raw, from: name, items } : repeatable ? { raw: items.join(','), from: name, items } : { raw, from: name });
    previous = def;
  }
  return given;
}

function unexpectedArgument(arg: string, previous: OptionDef | undefined): ConfigError {
  // `--header X-Key: value` unquoted splits at the space; the second half is the secret value.
  if (previous?.kind === 'headers') {
    return new ConfigError(`unexpected argument after the value of ${previous.flag}; quote the header: ${previous.flag} 'Name: value'`);
  }
  // An unquoted token containing a space splits in two; echoing the second half would leak it.
  if (previous?.secret) {
    return new ConfigError(`unexpected argument after the value of ${previous.flag}; a token cannot contain whitespace`);
  }
  // So does a base URL whose password has a space in it (`http://u:p a@ss@host`).
  if (previous?.kind === 'url') {
    return new ConfigError(`unexpected argument after the value of ${previous.flag}; a URL cannot contain whitespace`);
  }
  return new ConfigError(`unexpected argument ${JSON.stringify(arg)}; only options are accepted (see --help)`);
}

function suggestionFor(name: string): string {
  return didYouMean(name, OPTIONS.map((o) => o.flag));
}

/** `; did you mean --x?` for a mistyped flag, naming the closest of `flags`, or '' when none is close. */
export function didYouMean(given: string, flags: readonly string[]): string {
  const typed = given.split('=')[0]!.replace(/^-+/, '');
  const names = flags.map((f) => f.replace(/^-+/, ''));
  const prefixed = names.filter((n) => n.startsWith(typed));
  const nearest = names
    .map((n) => ({ n, d: levenshtein(typed, n) }))
    .filter(({ d }) => d <= 3)
    .sort((a, b) => a.d - b.d)[0]?.n;
  // A unique prefix reads as an abbreviation, so it beats a closer typo.
  const best = prefixed.length === 1 ? prefixed[0] : nearest;
  return best === undefined ? '' : `; did you mean --${best}?`;
}

function levenshtein(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      next.push(Math.min(row[j]! + 1, next[j - 1]! + 1, substitution));
    }
    row = next;
  }
  return row[b.length]!;
}

function readEnvFile(path: string): Record<string, string> {
  try {
    return parseDotenv(readFileSync(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

function fromEnv(
  def: OptionDef,
  vars: Record<string, string | undefined>,
  label: (name: string) => string,
): Given | undefined {
  if (def.env === undefined) return undefined;
  const raw = vars[def.env];
  // Empty means unset, so a copied .env.example with blank values changes nothing.
  return raw === undefined || raw === '' ? undefined : { raw, from: label(def.env) };
}

function convert(def: OptionDef, { raw, from, items }: Given): string | number | boolean | Record<string, string> {
  const invalid = (rule: string, shown = raw) => new ConfigError(`${from} must ${rule}, got ${JSON.stringify(shown)}`);
  switch (def.kind) {
    case 'flag':
      return true;
    case 'bool': {
      const value = parseBool(raw);
      if (value === undefined) throw invalid('be a boolean (true/false, yes/no, on/off, 1/0)');
      return value;
    }
    case 'int': {
      const value = Number(raw);
      const ok = /^-?\d+$/.test(raw) && value >= def.min && value <= (def.max ?? Number.MAX_SAFE_INTEGER);
      if (!ok) throw invalid(`be ${intRule(def)}`);
      return value;
    }
    case 'url':
      // The message echoes the URL as given: never with its password.
      return parseBaseUrl(raw, (rule, shown = withoutPassword(raw)) => invalid(rule, shown));
    case 'headers':
      // From a variable, one header per line: a value may hold commas (`Forwarded`, lists), never a line break.
      return parseHeaders(items ?? raw.split(/\r?\n/).filter((line) => line.trim() !== ''), from);
    case 'command':
    case 'string':
      if (raw === '') throw new ConfigError(`${from} must not be empty`);
      if (def.secret && /[\s\p{Cc}]/u.test(raw)) {
        throw new ConfigError(`${from} must not contain whitespace or control characters (give the bare token, without "Bearer ")`);
      }
      return raw;
  }
}

function parseHeaders(lines: readonly string[], from: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const parsed = parseHeaderLine(line);
    if ('error' in parsed) throw new ConfigError(`${from} ${parsed.error}`);
    const same = Object.keys(headers).find((name) => name.toLowerCase() === parsed.name.toLowerCase());
    if (same !== undefined) throw new ConfigError(`${from} sets ${parsed.name} more than once`);
    headers[parsed.name] = parsed.value;
  }
  return headers;
}

function parseBool(raw: string): boolean | undefined {
  const value = raw.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  return undefined;
}

function intRule({ min, max, unit }: IntOption): string {
  const range =
    max !== undefined ? `an integer from ${min} to ${max}`
    : min === 1 ? 'a positive integer'
    : min === 0 ? 'a non-negative integer'
    : `an integer of at least ${min}`;
  return unit ? `${range} (${unit})` : range;
}

function parseBaseUrl(raw: string, invalid: (rule: string, shown?: string) => ConfigError): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('use http or https');
  if (url.username !== '' || url.password !== '') {
    throw invalid('not carry user:password credentials (use --token)', `${url.protocol}//***@${url.host}${url.pathname}`);
  }
  // Tested on the raw text because a bare trailing '?' or '#' leaves url.search and url.hash empty.
  if (/[?#]/.test(raw)) throw invalid('not have a query or fragment', raw.replace(/([?#]).*$/s, '$1…'));
  return url.href.replace(/\/+$/, '');
}

function checkRelations(c: SuiteConfig, sources: ReadonlyMap<OptionDef['key'], string>): void {
  const from = (key: OptionDef['key']) => sources.get(key) ?? key;
  if (c.baseUrl !== undefined && c.token === undefined && c.tokenCommand === undefined) {
    throw new ConfigError(`${from('baseUrl')} is set but no token is; set --token or WIDGET_TOKEN (or --token-command)`);
  }
  for (const [token, command] of [['token', 'tokenCommand'], ['secondToken', 'secondTokenCommand']] as const) {
    if (c[token] !== undefined && c[command] !== undefined) throw new ConfigError(`${from(token)} and ${from(command)} are both set: give one of them`);
  }
  for (const key of ['token', 'secondToken', 'tokenCommand', 'secondTokenCommand'] as const) {
    if (c[key] !== undefined && c.baseUrl === undefined) {
      throw new ConfigError(
        `${from(key)} is set without a base URL; set --base-url or WIDGET_BASE_URL, ` +
          'or drop the token (the embedded reference server uses its own tokens)',
      );
    }
  }
  // The embedded reference server stops with the run: nothing would be left for a replay to find.
  if (c.keepFailing && c.baseUrl === undefined) {
    throw new ConfigError(`${from('keepFailing')} needs --base-url: the embedded reference server stops with the run, and its widgets with it`);
  }
  if (c.secondToken !== undefined && c.secondToken === c.token) {
    throw new ConfigError(`${from('secondToken')} must differ from ${from('token')}: isolation checks need two accounts`);
  }
  if (c.implementation !== undefined && (c.implementation.length > IMPLEMENTATION_MAX || /[\p{Cc}]/u.test(c.implementation))) {
    throw new ConfigError(`${from('implementation')} must be at most ${IMPLEMENTATION_MAX} characters without control characters, e.g. acme-widgets@2.3.1`);
  }
  if (c.fileOrder !== undefined && c.fileOrder !== 'name' && c.fileOrder !== 'reverse') {
    throw new ConfigError(`${from('fileOrder')} must be name or reverse, got ${JSON.stringify(c.fileOrder)}`);
  }
  if (c.withoutSecondToken && (c.secondToken !== undefined || c.secondTokenCommand !== undefined)) {
    throw new ConfigError(`${from('withoutSecondToken')} contradicts a second token (${c.secondToken !== undefined ? from('secondToken') : from('secondTokenCommand')}): give one of them`);
  }
  if (c.failOn !== undefined) {
    const level = c.failOn.toLowerCase();
    if (level !== 'must' && level !== 'should') throw new ConfigError(`${from('failOn')} must be must or should, got ${JSON.stringify(c.failOn)}`);
    if (level === 'must' && c.strict) throw new ConfigError(`${from('failOn')} must contradicts ${from('strict')}: give one of them`);
    c.failOn = level;
    // --fail-on should is the long form of --strict: one switch for the rest of the suite to read.
    if (level === 'should') c.strict = true;
  }
}
