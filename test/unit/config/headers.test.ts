// --header / WIDGET_HEADERS: parsing, refusals (one line, never the value), repeatability, and
// that the values are secrets everywhere the config is shown.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, redactedConfig, resolveConfig, secretsOf, type SuiteConfig } from '../../../src/config.ts';
import { parseHeaderLine } from '../../../src/config/headers.ts';
import { mergeHeaders } from '../../../src/http/headers.ts';
import { Redactor } from '../../../src/shared/redact.ts';

const dir = mkdtempSync(join(tmpdir(), 'widget-headers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const NO_FILE = join(dir, 'missing.env');
const TARGET = ['--base-url', 'https://widgets.example/v1', '--token', 'tok-primary-123'];
const VALUE = 'gw-key-9f8e7d';

const resolve = (argv: string[], env: Record<string, string> = {}, envFile = NO_FILE): SuiteConfig => resolveConfig(argv, env, { envFile });

function errorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('parseHeaderLine', () => {
  it('splits at the first colon and drops the optional whitespace around the value', () => {
    expect(parseHeaderLine('X-Tenant:  t1 ')).toEqual({ name: 'X-Tenant', value: 't1' });
    expect(parseHeaderLine('Forwarded: for=1.2.3.4;proto=https, for=5.6.7.8')).toEqual({ name: 'Forwarded', value: 'for=1.2.3.4;proto=https, for=5.6.7.8' });
    expect(parseHeaderLine('X-Url: http://a:b')).toEqual({ name: 'X-Url', value: 'http://a:b' });
  });

  it.each([
    ['no colon', `X-Tenant ${VALUE}`, 'no colon found'],
    ['a bad name', `X Tenant: ${VALUE}`, 'invalid header name "X Tenant"'],
    ['an empty name', `: ${VALUE}`, 'invalid header name ""'],
    ['LF in the value', `X-Tenant: ${VALUE}\nX-Evil: 1`, 'must not contain CR or LF'],
    ['CR in the value', `X-Tenant: ${VALUE}\r`, 'must not contain CR or LF'],
    ['a control character', `X-Tenant: ${VALUE}\u0000`, 'control characters'],
    ['an empty value', 'X-Tenant:  ', 'empty value'],
    ['Authorization', `Authorization: Bearer ${VALUE}`, 'tokens have their own options'],
    ['authorization in any case', `AUTHORIZATION: Bearer ${VALUE}`, 'tokens have their own options'],
    ['Content-Type', `Content-Type: text/${VALUE}`, 'sets Content-Type per request'],
    ['a framing header', `Transfer-Encoding: ${VALUE}`, 'frames each message'],
  ])('refuses %s without echoing the value', (_, line, says) => {
    const parsed = parseHeaderLine(line);
    expect('error' in parsed && parsed.error).toContain(says);
    expect(JSON.stringify(parsed)).not.toContain(VALUE);
  });
});

describe('mergeHeaders', () => {
  it('lets a later layer replace a name in any case, keeping one header per name', () => {
    expect(mergeHeaders({ accept: 'a', 'user-agent': 'suite' }, { 'User-Agent': 'gw', 'X-Tenant': 't1' }, { 'x-tenant': 't2', authorization: 'Bearer x' })).toEqual({
      accept: 'a',
      'User-Agent': 'gw',
      'x-tenant': 't2',
      authorization: 'Bearer x',
    });
  });
});

describe('--header in the config', () => {
  it('is repeatable, in order', () => {
    expect(resolve([...TARGET, '--header', `X-Api-Key: ${VALUE}`, '--header=X-Tenant: t1']).headers).toEqual({ 'X-Api-Key': VALUE, 'X-Tenant': 't1' });
  });

  it('leaves every other flag refused when given twice', () => {
    expect(errorOf(() => resolve([...TARGET, '--token', 'other']))).toBe('--token was given more than once');
    expect(errorOf(() => resolve([...TARGET, '--runs', '1', '--runs', '2']))).toBe('--runs was given more than once');
  });

  it('takes WIDGET_HEADERS one per line (commas stay inside a value), from the environment and from .env', () => {
    expect(resolve(TARGET, { WIDGET_HEADERS: `X-Api-Key: ${VALUE}\r\nAccept-Language: en, de\n` }).headers).toEqual({ 'X-Api-Key': VALUE, 'Accept-Language': 'en, de' });
    const file = join(dir, '.env');
    writeFileSync(file, `WIDGET_HEADERS="X-Api-Key: ${VALUE}\\nX-Tenant: t1"\n`);
    expect(resolve(TARGET, {}, file).headers).toEqual({ 'X-Api-Key': VALUE, 'X-Tenant': 't1' });
  });

  it('flags win over the variable as a whole', () => {
    expect(resolve([...TARGET, '--header', 'X-Tenant: t2'], { WIDGET_HEADERS: `X-Api-Key: ${VALUE}` }).headers).toEqual({ 'X-Tenant': 't2' });
  });

  it.each([
    [['--header', `X-Tenant ${VALUE}`], '--header must be "Name: value" (no colon found)'],
    [['--header', `Authorization: Bearer ${VALUE}`], '--header cannot set Authorization: tokens have their own options (--token, --second-token, --token-command)'],
    [['--header', `X-HTTP-Method-Override: ${VALUE}`], '--header cannot set X-HTTP-Method-Override: it asks a server to take each request for another method (method override), which would turn a read into a write no proof covers'],
    [['--header', `X-Tenant: ${VALUE}`, '--header', `x-tenant: ${VALUE}`], '--header sets x-tenant more than once'],
    [['--header', 'X-Tenant:', VALUE], "unexpected argument after the value of --header; quote the header: --header 'Name: value'"],
  ])('refuses %j in one line that never holds the value', (args, message) => {
    const text = errorOf(() => resolve([...TARGET, ...args]));
    expect(text).toBe(message);
    expect(text).not.toContain(VALUE);
  });

  it('names the variable when WIDGET_HEADERS is bad', () => {
    expect(errorOf(() => resolve(TARGET, { WIDGET_HEADERS: `X-Tenant: ${VALUE}\nbroken` }))).toBe('WIDGET_HEADERS must be "Name: value" (no colon found)');
  });

  it('shows the names but never the values in the redacted config, and makes the values secrets', () => {
    const c = resolve([...TARGET, '--header', `X-Api-Key: ${VALUE}`]);
    expect(redactedConfig(c).headers).toEqual({ 'X-Api-Key': '[REDACTED]' });
    expect(secretsOf(c)).toContain(VALUE);
    // The recorded exchange shows the name and hides the value.
    expect(new Redactor(secretsOf(c)).headers(c.headers!)).toEqual({ 'X-Api-Key': '[REDACTED]' });
  });
});
