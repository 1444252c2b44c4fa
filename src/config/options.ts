/**
 * The option table: every setting the suite reads, with its flag, variable, kind, default and
 * help. It is the single source of truth: parsing (parse.ts), --help (help.ts), .env.example
 * and docs/options.md (tools/docs.ts) all follow from it.
 */
import { SECOND_ACCOUNT_MARK } from '../rules.ts';

/** A run's settings: one field per option of the table below, and what parsing derives (seedGiven, concurrencyGiven). */
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
  /** --concurrency was given (flag, variable or .env): the slots stay fixed; otherwise they follow what the server serves (http/concurrency.ts). */
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
  /** --property-budget was given: a wall-clock limit as given; otherwise the default, counted in requests at the server's pace (harness/property.ts). */
  propertyBudgetGiven: boolean;
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
export interface IntOption extends BaseOption {
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
export const IMPLEMENTATION_MAX = 200;
export const INT32_MIN = -(2 ** 31);
export const INT32_MAX = 2 ** 31 - 1;

/**
 * The default property budget, in requests (harness/property.ts): a property stops once the run
 * has sent this many since it began (and --property-budget's default time has passed). About what
 * a whole run of the catalogue sends (some 2,900): no property is stopped before the rest of the
 * run could have finished at the same pace.
 */
export const PROPERTY_BUDGET_REQUESTS = 3_000;
/**
 * The default property budget's bound in time, whatever the pace: what 3,000 requests take at 5
 * per second. A slower server's properties are cut short, and the verdict says so.
 */
export const PROPERTY_BUDGET_CAP_MS = 600_000;

/** Every option the suite understands, in --help order. */
export const OPTIONS: readonly OptionDef[] = [
  { flag: '--base-url', env: 'WIDGET_BASE_URL', kind: 'url', key: 'baseUrl', arg: 'url',
    defaultText: 'embedded reference server', description: 'Base URL of the service under test, including /v1' },
  { flag: '--token', env: 'WIDGET_TOKEN', kind: 'string', key: 'token', arg: 'token', secret: true,
    defaultText: 'none; required with --base-url', description: 'Bearer token of the account under test' },
  { flag: '--second-token', env: 'WIDGET_SECOND_TOKEN', kind: 'string', key: 'secondToken', arg: 'token', secret: true,
    defaultText: 'none (the run then stops with exit 2, unless --without-second-token)',
    description: `Bearer token of a second account, for the rules whose checks need two accounts (--list marks them "${SECOND_ACCOUNT_MARK}"); without it the run stops with exit 2 before any request, unless --without-second-token is given` },
  { flag: '--token-command', env: 'WIDGET_TOKEN_COMMAND', kind: 'command', key: 'tokenCommand', arg: 'cmd',
    envNote: 'For example: WIDGET_TOKEN_COMMAND="vault kv get -field=token secret/widgets"', defaultText: 'none', description: 'Shell command whose output is the token of the account under test (instead of --token); run again when the target stops accepting the token' },
  { flag: '--second-token-command', env: 'WIDGET_SECOND_TOKEN_COMMAND', kind: 'command', key: 'secondTokenCommand', arg: 'cmd',
    defaultText: 'none', description: 'Shell command whose output is the token of the second account (instead of --second-token)' },
  { flag: '--without-second-token', env: 'WIDGET_WITHOUT_SECOND_TOKEN', kind: 'bool', key: 'withoutSecondToken', default: false,
    description: 'Run without a second account: the rules that need one are not run, and every format\'s verdict says PASSED (partial: …) naming them, never CONFORMANT (without this, a run with no second token stops with exit 2 before any request)' },
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
    default: 4, description: 'Most requests in flight at once; when not given, they follow what the server serves: from 1, doubled while it answers more per second, fewer when latency rises without it or a request stalls (4 at once on a server that answers within 5 ms; at most 8, beyond 4 never more than 320 requests per second)' },
  { flag: '--seed', env: 'WIDGET_SEED', kind: 'int', key: 'seed', arg: 'n', min: INT32_MIN, max: INT32_MAX,
    defaultText: 'random', description: 'fast-check seed; reuse a reported seed to replay a run' },
  { flag: '--runs', env: 'WIDGET_RUNS', kind: 'int', key: 'runs', arg: 'n', min: 1,
    default: 12, description: 'random fast-check runs per property, after its fixed inputs (which every run tries)' },
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
    unit: 'milliseconds', default: 60_000,
    description: `Longest time one property may run, in milliseconds; it then stops and reports the runs completed, and the verdict says PASSED (partial: …) naming the check cut short, never CONFORMANT. Without it the budget scales with the pace the server allows: a property stops only once 60 s have passed and the run has sent ${PROPERTY_BUDGET_REQUESTS} requests since it began (at most ${PROPERTY_BUDGET_CAP_MS / 60_000} minutes, and never past --max-run-time), so a rate-limited or slow server gets as many answers as a fast one` },
  { flag: '--list-settle-ms', env: 'WIDGET_LIST_SETTLE_MS', kind: 'int', key: 'listSettleMs', arg: 'ms', min: 0, max: 60_000,
    unit: 'milliseconds', default: 0,
    description: 'Accept a list that shows a created widget, or stops showing a deleted one, within this many milliseconds (0: lists are judged at once); every report states the window' },
  { flag: '--only', env: 'WIDGET_ONLY', kind: 'string', key: 'only', arg: 'ids', defaultText: 'every rule',
    description: 'Rule ids or families to run, comma-separated (e.g. AUTH,PAGE-3); the verdict of such a run is at best PASSED (partial: N of M rules), never CONFORMANT, and it exits 0 when what ran passed' },
  { flag: '--test', env: 'WIDGET_TEST', kind: 'string', key: 'testName', arg: 'text', defaultText: 'every test',
    description: 'Run only the tests whose names contain this text, or match /regex/flags (below --only, as vitest -t; --only RULE.text does both); the run is then partial' },
  { flag: '--last-failed', kind: 'flag', key: 'lastFailed', default: false,
    description: "Rerun only the tests that failed or warned in the report directory's previous run against the same target (its conformance.json), saying in one line which run and tests; the run is then partial. A run stopped before its first test (exit 2 or 3) leaves that report as it was" },
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
