import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { ConfigError, envFilePath, helpText, OPTIONS, optionRows, redactedConfig, resolveConfig, secretsOf, type SuiteConfig } from '../../src/config.ts';
import { envExample } from '../../tools/docs.ts';

const dir = mkdtempSync(join(tmpdir(), 'widget-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const URL_ = 'https://widgets.example/v1';
const TOKEN = 'tok-primary-123';
const SECOND = 'tok-second-456';
const TARGET = ['--base-url', URL_, '--token', TOKEN];

let files = 0;
/** Writes a throwaway .env file and returns its path. */
function envFile(content: string): string {
  const path = join(dir, `env-${files++}`);
  writeFileSync(path, content);
  return path;
}
// Keeps the tests independent of any .env in the working directory.
const NO_FILE = join(dir, 'missing.env');

function resolve(argv: string[], env: Record<string, string | undefined> = {}, file = NO_FILE): SuiteConfig {
  return resolveConfig(argv, env, { envFile: file });
}

/** The ConfigError message `run` throws; fails the test if it throws anything else or nothing. */
function errorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).code).toBe('ERR_CONFIG');
    return (error as ConfigError).message;
  }
  throw new Error('expected a ConfigError');
}

describe('defaults', () => {
  it('targets the embedded server with the documented defaults', () => {
    const c = resolve([]);
    expect(c).toMatchObject({
      reportDir: 'reports',
      strict: false,
      allowCollectionWrites: false,
      timeoutMs: 10_000,
      concurrency: 4,
      concurrencyGiven: false,
      propertyBudgetGiven: false,
      seedGiven: false,
      runs: 12,
      clockToleranceMs: 300_000,
      maxRetries: 3,
      maxRetryWaitMs: 30_000,
      list: false,
      help: false,
    });
    expect('baseUrl' in c || 'token' in c || 'secondToken' in c).toBe(false);
  });

  it('generates a 32-bit seed when none is given', () => {
    const { seed } = resolve([]);
    expect(Number.isInteger(seed)).toBe(true);
    expect(seed).toBeGreaterThanOrEqual(-(2 ** 31));
    expect(seed).toBeLessThan(2 ** 31);
  });
});

describe('precedence', () => {
  const file = envFile('WIDGET_TIMEOUT_MS=1\nWIDGET_REPORT_DIR=from-file\n');

  it('prefers flag over environment over .env file over default', () => {
    const env = { WIDGET_TIMEOUT_MS: '2' };
    expect(resolve(['--timeout', '3'], env, file).timeoutMs).toBe(3);
    expect(resolve([], env, file).timeoutMs).toBe(2);
    expect(resolve([], {}, file).timeoutMs).toBe(1);
    expect(resolve([], {}).timeoutMs).toBe(10_000);
  });

  it('treats an empty variable as unset', () => {
    expect(resolve([], { WIDGET_TIMEOUT_MS: '' }, file).timeoutMs).toBe(1);
    expect(resolve([], {}, envFile('WIDGET_TIMEOUT_MS=\n')).timeoutMs).toBe(10_000);
  });

  it('reads the .env file without touching process.env', () => {
    const before = { ...process.env };
    expect(resolve([], {}, file).reportDir).toBe('from-file');
    expect(process.env).toEqual(before);
  });

  it('takes the whole target from the .env file', () => {
    const c = resolve([], {}, envFile(`WIDGET_BASE_URL=${URL_}\nWIDGET_TOKEN=${TOKEN}\nWIDGET_SECOND_TOKEN=${SECOND}\n`));
    expect(c).toMatchObject({ baseUrl: URL_, token: TOKEN, secondToken: SECOND });
  });

  it('reads .env from the working directory by default', () => {
    const work = join(dir, 'cwd');
    mkdirSync(work);
    writeFileSync(join(work, '.env'), 'WIDGET_RUNS=7\n');
    // A spy rather than process.chdir, which worker threads do not allow.
    const cwd = vi.spyOn(process, 'cwd').mockReturnValue(work);
    try {
      expect(resolveConfig([], {}).runs).toBe(7);
    } finally {
      cwd.mockRestore();
    }
  });

  it('reads .env from the directory npm was started in, under npm --prefix', () => {
    const user = join(dir, 'user');
    mkdirSync(user);
    writeFileSync(join(user, '.env'), 'WIDGET_RUNS=9\n');
    const npm = { INIT_CWD: user, npm_package_json: join(PROJECT_ROOT, 'package.json') };
    const cwd = vi.spyOn(process, 'cwd').mockReturnValue(PROJECT_ROOT);
    try {
      expect(envFilePath(npm)).toBe(join(user, '.env'));
      expect(resolveConfig([], npm).runs).toBe(9);
    } finally {
      cwd.mockRestore();
    }
  });

  it('names the .env file a bad value came from by its full path', () => {
    const file = envFile('WIDGET_RUNS=many\n');
    expect(errorOf(() => resolve([], {}, file))).toBe(`WIDGET_RUNS in ${file} must be a positive integer, got "many"`);
  });

  it('reports an unreadable .env file', () => {
    expect(errorOf(() => resolve([], {}, dir))).toMatch(/^cannot read .*EISDIR/);
  });
});

describe('flags', () => {
  it('accepts --flag value and --flag=value alike', () => {
    const spaced = resolve([...TARGET, '--timeout', '500', '--report-dir', 'out']);
    const joined = resolve([`--base-url=${URL_}`, `--token=${TOKEN}`, '--timeout=500', '--report-dir=out']);
    expect(joined).toMatchObject({ baseUrl: URL_, token: TOKEN, timeoutMs: 500, reportDir: 'out' });
    expect({ ...joined, seed: 0 }).toEqual({ ...spaced, seed: 0 });
  });

  it('keeps everything after the first = as the value', () => {
    expect(resolve(['--report-dir=a=b']).reportDir).toBe('a=b');
  });

  it('sets every option', () => {
    const c = resolve([
      ...TARGET,
      '--second-token', SECOND,
      '--report-dir', 'out',
      '--strict',
      '--allow-collection-writes',
      '--timeout', '1',
      '--concurrency', '64',
      '--seed', '-5',
      '--runs', '1',
      '--clock-tolerance', '0',
      '--max-retries', '10',
      '--max-retry-wait', '0',
      '--max-rate-limit-wait', '0',
      '--max-rate', '25',
      '--max-run-time', '1000',
      '--max-widgets', '7',
      '--property-budget', '5',
      '--list-settle-ms', '300',
      '--only', 'AUTH,PAGE-3',
      '--test', 'unknown ids',
      '--last-failed',
      '--keep-failing',
      '--write-baseline', 'new-baseline.txt',
      '--baseline', 'known.txt',
      '--fail-on', 'should',
      '--file-order', 'reverse',
    ]);
    expect(c).toEqual({
      baseUrl: URL_,
      token: TOKEN,
      secondToken: SECOND,
      reportDir: 'out',
      strict: true,
      allowCollectionWrites: true,
      timeoutMs: 1,
      concurrency: 64,
      concurrencyGiven: true,
      seed: -5,
      seedGiven: true,
      runs: 1,
      clockToleranceMs: 0,
      maxRetries: 10,
      maxRetryWaitMs: 0,
      maxRateLimitWaitMs: 0,
      maxRate: 25,
      maxRunTimeMs: 1000,
      maxWidgets: 7,
      propertyBudgetMs: 5,
      propertyBudgetGiven: true,
      listSettleMs: 300,
      only: 'AUTH,PAGE-3',
      testName: 'unknown ids',
      lastFailed: true,
      keepFailing: true,
      writeBaseline: 'new-baseline.txt',
      baseline: 'known.txt',
      failOn: 'should',
      fileOrder: 'reverse',
      withoutSecondToken: false,
      list: false,
      help: false,
    });
  });

  it('reads the loop options from the environment, except --last-failed, which is a flag of one invocation', () => {
    const c = resolve(TARGET, { WIDGET_TEST: '/^ISO-2 /', WIDGET_KEEP_FAILING: 'yes', WIDGET_WRITE_BASELINE: 'b.txt' });
    expect(c).toMatchObject({ testName: '/^ISO-2 /', keepFailing: true, writeBaseline: 'b.txt', lastFailed: false });
    expect(errorOf(() => resolve(['--last-failed=true']))).toContain('--last-failed');
  });

  it('refuses --keep-failing without a base URL: the embedded server stops with the run', () => {
    expect(errorOf(() => resolve(['--keep-failing']))).toBe('--keep-failing needs --base-url: the embedded reference server stops with the run, and its widgets with it');
    expect(resolve([...TARGET, '--keep-failing']).keepFailing).toBe(true);
  });

  it('removes a trailing slash from the base URL', () => {
    expect(resolve(['--base-url', `${URL_}/`, '--token', TOKEN]).baseUrl).toBe(URL_);
    expect(resolve(['--base-url', 'http://localhost:8080', '--token', TOKEN]).baseUrl).toBe('http://localhost:8080');
  });

  it('recognises --list, --help and -h', () => {
    expect(resolve(['--list']).list).toBe(true);
    expect(resolve(['--help']).help).toBe(true);
    expect(resolve(['-h']).help).toBe(true);
  });

  it('lets --help and --list through a half-configured target', () => {
    expect(resolve(['-h'], { WIDGET_BASE_URL: URL_ }).help).toBe(true);
    expect(resolve(['--list', '--token', TOKEN]).list).toBe(true);
  });
});

describe('booleans', () => {
  it('takes --allow-collection-writes from the flag or WIDGET_ALLOW_COLLECTION_WRITES, off by default', () => {
    expect(resolve([]).allowCollectionWrites).toBe(false);
    expect(resolve(['--allow-collection-writes']).allowCollectionWrites).toBe(true);
    expect(resolve([], { WIDGET_ALLOW_COLLECTION_WRITES: 'yes' }).allowCollectionWrites).toBe(true);
    expect(resolve(['--allow-collection-writes=false'], { WIDGET_ALLOW_COLLECTION_WRITES: '1' }).allowCollectionWrites).toBe(false);
  });

  it('accepts bare --strict and --strict=true|false', () => {
    expect(resolve(['--strict']).strict).toBe(true);
    expect(resolve(['--strict=true']).strict).toBe(true);
    expect(resolve(['--strict=false'], { WIDGET_STRICT: 'on' }).strict).toBe(false);
  });

  it.each([
    ['1', true], ['true', true], ['YES', true], ['On', true],
    ['0', false], ['FALSE', false], ['no', false], ['off', false],
  ])('reads WIDGET_STRICT=%s as %s', (raw, expected) => {
    expect(resolve([], { WIDGET_STRICT: raw }).strict).toBe(expected);
  });

  it('rejects other words', () => {
    expect(errorOf(() => resolve([], { WIDGET_STRICT: 'maybe' }))).toBe(
      'WIDGET_STRICT must be a boolean (true/false, yes/no, on/off, 1/0), got "maybe"',
    );
    expect(errorOf(() => resolve(['--strict=2']))).toBe(
      '--strict must be a boolean (true/false, yes/no, on/off, 1/0), got "2"',
    );
  });
});

describe('usage errors', () => {
  it.each([
    ['--base-ur', '--base-url'],
    ['--tiemout', '--timeout'],
    ['--base_url', '--base-url'],
    ['--conc', '--concurrency'],
    ['--max-retires', '--max-retries'],
    ['--max-retry', '--max-retry-wait'],
    ['--str', '--strict'],
    ['-strict', '--strict'],
  ])('suggests a near miss for %s', (typed, flag) => {
    expect(errorOf(() => resolve([typed, '1']))).toBe(`unknown option ${typed}; did you mean ${flag}?`);
  });

  it('makes no suggestion when nothing is close', () => {
    expect(errorOf(() => resolve(['--frobnicate']))).toBe('unknown option --frobnicate');
  });

  it('never echoes the value of an unknown --name=value', () => {
    expect(errorOf(() => resolve([`--tokn=${TOKEN}`]))).toBe('unknown option --tokn; did you mean --token?');
  });

  it('rejects a flag given twice', () => {
    expect(errorOf(() => resolve(['--runs', '1', '--runs=2']))).toBe('--runs was given more than once');
    expect(errorOf(() => resolve(['-h', '--help']))).toBe('--help was given more than once');
  });

  it('rejects a flag missing its value', () => {
    expect(errorOf(() => resolve(['--base-url']))).toBe('--base-url needs a value: --base-url <url>');
    expect(errorOf(() => resolve(['--token', '--base-url', URL_]))).toBe('--token needs a value: --token <token>');
    expect(errorOf(() => resolve(['--report-dir', '-h']))).toBe('--report-dir needs a value: --report-dir <dir>');
  });

  it('rejects a value on a valueless flag', () => {
    expect(errorOf(() => resolve(['--list=yes']))).toBe('--list takes no value');
  });

  it('rejects positional arguments', () => {
    expect(errorOf(() => resolve(['run']))).toBe('unexpected argument "run"; only options are accepted (see --help)');
    expect(errorOf(() => resolve(['--strict', 'false']))).toBe(
      'unexpected argument "false"; only options are accepted (see --help)',
    );
  });

  it('does not echo the second half of a token split by the shell', () => {
    const message = errorOf(() => resolve(['--base-url', URL_, '--token', 'abc', 'def']));
    expect(message).toBe('unexpected argument after the value of --token; a token cannot contain whitespace');
  });
});

describe('value errors', () => {
  it.each([
    ['not a url', 'be an absolute http(s) URL, got "not a url"'],
    ['ftp://widgets.example/v1', 'use http or https, got "ftp://widgets.example/v1"'],
    ['https://widgets.example/v1?debug=1', 'not have a query or fragment, got "https://widgets.example/v1?…"'],
    ['https://widgets.example/v1#top', 'not have a query or fragment, got "https://widgets.example/v1#…"'],
    ['https://widgets.example/v1?', 'not have a query or fragment, got "https://widgets.example/v1?…"'],
  ])('rejects base URL %s', (url, rule) => {
    expect(errorOf(() => resolve(['--base-url', url, '--token', TOKEN]))).toBe(`--base-url must ${rule}`);
  });

  it('rejects credentials in the base URL without echoing them', () => {
    const message = errorOf(() => resolve(['--base-url', 'https://alice:s3cret@widgets.example/v1', '--token', TOKEN]));
    expect(message).toBe(
      '--base-url must not carry user:password credentials (use --token), got "https://***@widgets.example/v1"',
    );
  });

  it.each([
    ['--timeout', 'abc', 'a positive integer (milliseconds)'],
    ['--timeout', '0', 'a positive integer (milliseconds)'],
    ['--timeout', '1.5', 'a positive integer (milliseconds)'],
    ['--timeout', '1e4', 'a positive integer (milliseconds)'],
    ['--concurrency', '0', 'an integer from 1 to 64'],
    ['--concurrency', '65', 'an integer from 1 to 64'],
    ['--max-retries', '11', 'an integer from 0 to 10'],
    ['--max-retries', '-1', 'an integer from 0 to 10'],
    ['--runs', '0', 'a positive integer'],
    ['--clock-tolerance', '-1', 'a non-negative integer (milliseconds)'],
    ['--max-retry-wait', ' 5', 'a non-negative integer (milliseconds)'],
    ['--seed', '2147483648', 'an integer from -2147483648 to 2147483647'],
  ])('rejects %s %s', (flag, raw, rule) => {
    expect(errorOf(() => resolve([flag, raw]))).toBe(`${flag} must be ${rule}, got ${JSON.stringify(raw)}`);
  });

  it('rejects an empty report directory', () => {
    expect(errorOf(() => resolve(['--report-dir=']))).toBe('--report-dir must not be empty');
  });

  it('names the variable or the .env file the bad value came from', () => {
    expect(errorOf(() => resolve([], { WIDGET_TIMEOUT_MS: 'abc' }))).toBe(
      'WIDGET_TIMEOUT_MS must be a positive integer (milliseconds), got "abc"',
    );
    const file = envFile('WIDGET_CONCURRENCY=100\n');
    expect(errorOf(() => resolve([], {}, file))).toBe(
      `WIDGET_CONCURRENCY in ${file} must be an integer from 1 to 64, got "100"`,
    );
  });

  it('ignores a bad value that a higher-precedence source overrides', () => {
    expect(resolve(['--timeout', '5'], { WIDGET_TIMEOUT_MS: 'abc' }).timeoutMs).toBe(5);
  });
});

describe('target consistency', () => {
  it('requires a token with a base URL, naming where to set it', () => {
    expect(errorOf(() => resolve(['--base-url', URL_]))).toBe(
      '--base-url is set but no token is; set --token or WIDGET_TOKEN (or --token-command)',
    );
    expect(errorOf(() => resolve([], { WIDGET_BASE_URL: URL_ }))).toBe(
      'WIDGET_BASE_URL is set but no token is; set --token or WIDGET_TOKEN (or --token-command)',
    );
  });

  it.each([
    [['--token', TOKEN], {}, '--token'],
    [[], { WIDGET_SECOND_TOKEN: SECOND }, 'WIDGET_SECOND_TOKEN'],
  ])('rejects a token without a base URL (%j %j)', (argv, env, source) => {
    expect(errorOf(() => resolve(argv, env))).toBe(
      `${source} is set without a base URL; set --base-url or WIDGET_BASE_URL, ` +
        'or drop the token (the embedded reference server uses its own tokens)',
    );
  });

  it('rejects a second token equal to the first', () => {
    expect(errorOf(() => resolve([...TARGET], { WIDGET_SECOND_TOKEN: TOKEN }))).toBe(
      'WIDGET_SECOND_TOKEN must differ from --token: the second account needs a token of its own',
    );
  });

  it.each([
    ['--token', `Bearer ${TOKEN}`],
    ['--token', `${TOKEN}\n`],
    ['--second-token', `${SECOND}\u0007`],
  ])('rejects %s containing whitespace or control characters', (flag, value) => {
    expect(errorOf(() => resolve([...TARGET.slice(0, 2), flag, value]))).toBe(
      `${flag} must not contain whitespace or control characters (give the bare token, without "Bearer ")`,
    );
  });

  it('never puts a token value in an error message', () => {
    const failures: Array<() => unknown> = [
      () => resolve(['--token', TOKEN]),
      () => resolve([...TARGET, '--second-token', TOKEN]),
      () => resolve([...TARGET, `${TOKEN}-tail`]),
      () => resolve(['--base-url', URL_, '--token', `${TOKEN} x`]),
      () => resolve([`--second-tokn=${TOKEN}`]),
      () => resolve([], { WIDGET_TOKEN: TOKEN, WIDGET_SECOND_TOKEN: TOKEN, WIDGET_BASE_URL: URL_ }),
    ];
    for (const fail of failures) expect(errorOf(fail)).not.toContain(TOKEN);
  });
});

describe('redaction', () => {
  it('replaces present secrets and leaves absent ones absent', () => {
    const c = resolve([...TARGET]);
    const redacted = redactedConfig(c);
    expect(redacted).toMatchObject({ baseUrl: URL_, token: '[REDACTED]', timeoutMs: 10_000 });
    expect('secondToken' in redacted).toBe(false);
    expect(c.token).toBe(TOKEN);
    expect(JSON.stringify(redacted)).not.toContain(TOKEN);
  });

  it('lists the secret values for the redactor', () => {
    expect(secretsOf(resolve([...TARGET, '--second-token', SECOND]))).toEqual([TOKEN, SECOND]);
    expect(secretsOf(resolve([]))).toEqual([]);
  });

  // resolveConfig refuses such a URL today; a config built any other way is still covered.
  it('lists the password of a base URL, as given and percent-decoded', () => {
    const c = { ...resolve([...TARGET]), baseUrl: 'https://alice:p%40ss@widgets.example/v1' };
    expect(secretsOf(c)).toEqual([TOKEN, 'p%40ss', 'p@ss']);
    expect(secretsOf({ ...c, baseUrl: 'https://alice:plain@widgets.example/v1' })).toEqual([TOKEN, 'plain']);
    expect(JSON.stringify(redactedConfig(c))).not.toContain('p%40ss');
  });
});

describe('base URL passwords in error messages', () => {
  it.each([
    ['another scheme', ['--base-url', 'ftp://alice:hunter2pw@widgets.example/v1'], 'hunter2pw'],
    ['an unparseable URL', ['--base-url', 'http://alice:hunter2pw@wid gets/v1'], 'hunter2pw'],
    ['a password with a space', ['--base-url', 'http://u:p a@ss@host/v1'], 'p a@ss'],
    ['a password split by the shell', ['--base-url', 'http://u:p', 'a@ss@host/v1'], 'a@ss'],
    ['a URL with credentials', ['--base-url', 'https://alice:hunter2pw@widgets.example/v1?x=1'], 'hunter2pw'],
  ])('are not echoed for %s', (_, argv, password) => {
    const message = errorOf(() => resolve([...argv, '--token', TOKEN]));
    expect(message).toMatch(/^--base-url|^unexpected argument/);
    expect(message).not.toContain(password);
  });

  it('hide the password but keep the rest of the value in view', () => {
    expect(errorOf(() => resolve(['--base-url', 'ftp://alice:hunter2pw@widgets.example/v1', '--token', TOKEN]))).toBe(
      '--base-url must use http or https, got "ftp://alice:[REDACTED]@widgets.example/v1"',
    );
    expect(errorOf(() => resolve([], { WIDGET_BASE_URL: 'gopher://u:pw@h', WIDGET_TOKEN: TOKEN }))).toBe(
      'WIDGET_BASE_URL must use http or https, got "gopher://u:[REDACTED]@h"',
    );
  });
});

describe('documentation', () => {
  const variables = OPTIONS.flatMap((o) => (o.env ? [o.env] : []));

  it('marks exactly the two tokens and the extra headers as secret', () => {
    expect(OPTIONS.filter((o) => o.secret).map((o) => o.flag)).toEqual(['--token', '--second-token', '--header']);
  });

  // The exit codes in --help: test/unit/exit-codes.test.ts.
  it('help lists every flag, variable and default', () => {
    const help = helpText();
    for (const o of OPTIONS) {
      expect(help).toContain(o.flag);
      expect(help).toContain(o.description);
      if (o.env) expect(help).toContain(o.env);
      if (o.kind === 'int' && o.default !== undefined) expect(help).toMatch(new RegExp(`${o.env}\\s+${o.default}\\n`));
    }
    expect(help).toContain('-h, --help');
  });

  it('.env.example is generated from OPTIONS, whole (npm run docs rewrites it): no description, range or default of its own', () => {
    const text = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');
    expect(text, '.env.example is out of date: run npm run docs').toBe(envExample());
  });

  it('no option text says that without a second token the isolation checks are skipped: the run stops with exit 2', () => {
    const texts = [helpText(), envExample(), ...optionRows().map((r) => `${r.fallback} ${r.description}`)];
    for (const text of texts) expect(text).not.toMatch(/isolation (checks|rules) (are )?skipped/i);
    expect(optionRows().find((r) => r.usage.startsWith('--second-token '))?.fallback).toMatch(/exit 2/);
  });

  it('.env.example lists every variable, each under a comment that starts with its description', () => {
    const lines = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8').split('\n');
    const assigned = lines.filter((l) => /^[A-Z_]+=/.test(l)).map((l) => l.slice(0, l.indexOf('=')));
    expect(assigned).toEqual(variables);
    for (const o of OPTIONS) {
      if (!o.env) continue;
      const at = lines.findIndex((l) => l.startsWith(`${o.env}=`));
      expect(lines[at - 1], o.env).toMatch(new RegExp(`^# ${escapeRegExp(o.description)}`));
    }
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
