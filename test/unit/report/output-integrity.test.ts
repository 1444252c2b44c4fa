/**
 * Secrets leave the data, not the text: a short or common token, or a header value that is no
 * secret, never corrupts a report; the tripwire fails loudly and edits nothing; reports are
 * written through a temporary file and a rename, never through a symlink, and a previous run's
 * files are gone before a new run writes.
 */
import { existsSync, lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { redactedConfig, resolveConfig, secretsOf } from '../../../src/config.ts';
import { ConformanceFailure } from '../../../src/harness/failure.ts';
import { isSecretHeader, secretHeaderSet } from '../../../src/shared/header-secrecy.ts';
import { REDACTED, Redactor } from '../../../src/shared/redact.ts';
import { renderJson } from '../../../src/report/json.ts';
import { renderJunit } from '../../../src/report/junit.ts';
import { sanitizeOutcomes } from '../../../src/report/sanitize.ts';
import { ruleById } from '../../../src/rules.ts';
import { removeStaleReports, REPORT_FILES, writeReports } from '../../../src/cli/run/write-reports.ts';
import { outcomesOf, reportOf, testOf } from '../support/report.ts';

const TARGET = ['--base-url', 'https://widgets.example/v1', '--token', 'tok-primary-0123'];

describe('short and common tokens never reach the suite\'s own text', () => {
  for (const token of ['1', 'a', 'test', 'dev', 'secret', '0']) {
    it(`with the token ${JSON.stringify(token)} every report keeps its numbers, version and words`, () => {
      const redactor = new Redactor([token]);
      const failed = testOf('CRUD-1', 'fail');
      const outcomes = sanitizeOutcomes(outcomesOf([failed, testOf('CRUD-2', 'pass', { messages: [`echoed ${token} here`] })]), (t) => redactor.text(t));
      const report = reportOf(outcomes, { suiteVersion: '0.1.0', stats: { requests: 10, retries: 0, rateLimitWaitMs: -1 } as never });
      const json = renderJson(report);
      expect(JSON.parse(json).suiteVersion).toBe('0.1.0');
      expect(JSON.parse(json).requests).toBe(10);
      expect(JSON.parse(json).baseUrl).toBe('http://127.0.0.1:1/v1');
      expect(renderJunit(report)).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites /);
      // Server text is still cleaned, as data.
      expect(JSON.parse(json).rules[1].tests[0].outcome).toBe('pass');
    });
  }

  it('a failure redacts what the server sent field by field, never the rule\'s own words', () => {
    const rule = ruleById('CRUD-1');
    const failure = new ConformanceFailure(rule, { expected: 'status 201', received: 'status 500 with body "test"' }, new Redactor(['test']));
    expect(failure.detail.received).toBe(`status 500 with body "${REDACTED}"`);
    expect(failure.message).toContain(rule.statement);
    expect(failure.message).toContain(`received: status 500 with body "${REDACTED}"`);
  });

  it('the redactor says when a secret is too short to be told from chance text', () => {
    expect(new Redactor(['1234567']).hasShortSecret).toBe(true);
    expect(new Redactor(['12345678']).hasShortSecret).toBe(false);
  });

  it('the console hides long secrets only: "Requests: 10" stays with the token 1', () => {
    const r = new Redactor(['1', 'long-token-abcdef']);
    expect(r.longSecretsText('Requests: 10, long-token-abcdef')).toBe(`Requests: 10, ${REDACTED}`);
  });
});

describe('the tripwire fails loudly and never edits', () => {
  it('finds a long secret in any spelling and names its line', () => {
    const r = new Redactor(['tok-primary-0123']);
    expect(r.leak('{\n"a": "tok\\u002dprimary-0123"\n}')).toEqual({ at: 8, line: 2 });
    expect(r.leak('{"a": 1}')).toBeUndefined();
  });

  it('ignores a short secret, whose letters occur by chance in every report', () => {
    expect(new Redactor(['1']).leak('{"requests": 10}')).toBeUndefined();
  });
});

describe('which headers are secret is the user\'s to say', () => {
  it('Authorization-like, cookies and key or token names are secret by default; others are not', () => {
    for (const name of ['Authorization', 'Proxy-Authorization', 'Cookie', 'X-Api-Key', 'X-Auth-Token', 'X-Client-Secret', 'X-Session-Id']) expect(isSecretHeader(name), name).toBe(true);
    for (const name of ['X-Tenant', 'X-Api-Version', 'WWW-Authenticate', 'Accept']) expect(isSecretHeader(name), name).toBe(false);
  });

  it('a --header value that is no secret is shown as sent, and is not a secret to hide', () => {
    const c = resolveConfig([...TARGET, '--header', 'X-Tenant: 42', '--header', 'X-Api-Version: v1'], {}, { envFile: '/nonexistent/.env' });
    expect(redactedConfig(c).headers).toEqual({ 'X-Tenant': '42', 'X-Api-Version': 'v1' });
    expect(secretsOf(c)).toEqual(['tok-primary-0123']);
    expect(new Redactor(secretsOf(c)).requestHeaders(c.headers!)).toEqual({ 'X-Tenant': '42', 'X-Api-Version': 'v1' });
  });

  it('--secret-header (repeatable) and WIDGET_SECRET_HEADERS mark a header secret', () => {
    const flags = resolveConfig([...TARGET, '--header', 'X-Tenant: tenant-4242', '--secret-header', 'x-tenant', '--secret-header', 'X-Org'], {}, { envFile: '/nonexistent/.env' });
    expect(redactedConfig(flags).headers).toEqual({ 'X-Tenant': REDACTED });
    expect(secretsOf(flags)).toContain('tenant-4242');
    const env = resolveConfig([...TARGET, '--header', 'X-Tenant: tenant-4242'], { WIDGET_SECRET_HEADERS: 'X-Org, X-Tenant' }, { envFile: '/nonexistent/.env' });
    expect(secretsOf(env)).toContain('tenant-4242');
    expect(new Redactor(secretsOf(env), secretHeaderSet(env.secretHeaders)).requestHeaders({ 'X-Tenant': 'tenant-4242', Authorization: 'Bearer x' })).toEqual({
      'X-Tenant': REDACTED,
      Authorization: `Bearer ${REDACTED}`,
    });
  });

  it('a URL keeps the base URL as given and cleans what follows it', () => {
    const r = new Redactor(['1']);
    expect(r.url('http://127.0.0.1:8081/v1/widgets/1?x=1', 'http://127.0.0.1:8081/v1')).toBe(`http://127.0.0.1:8081/v1/widgets/${REDACTED}?x=${REDACTED}`);
  });
});

describe('reports are written safely', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wcs-write-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const report = () => reportOf(outcomesOf([testOf('CRUD-1', 'pass')]));

  it('a symlink planted at a report name is replaced, its target untouched', async () => {
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'keep me');
    symlinkSync(victim, join(dir, 'junit.xml'));
    const { files, problems } = await writeReports(dir, report(), new Redactor([]));
    expect(problems).toEqual([]);
    expect(files).toHaveLength(REPORT_FILES.length);
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    expect(lstatSync(join(dir, 'junit.xml')).isSymbolicLink()).toBe(false);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('the previous run\'s files (and a killed run\'s temporary files) are removed at the start', () => {
    for (const [name] of REPORT_FILES) writeFileSync(join(dir, name), 'old');
    writeFileSync(join(dir, '.widget-conformance-1-abc.tmp'), 'half');
    writeFileSync(join(dir, 'mine.txt'), 'not the suite\'s');
    expect(removeStaleReports(dir)).toEqual([]);
    expect(readdirSync(dir)).toEqual(['mine.txt']);
  });

  it('a file that would hold a credential is not written, and is named', async () => {
    // An error message the runner forgot to clean: server text, where a credential can come from (report/provenance.ts).
    const leaking = reportOf(outcomesOf([testOf('CRUD-1', 'error', { messages: ['TransportError: the server said tok-primary-0123'] })]));
    const { files, leaks } = await writeReports(dir, leaking, new Redactor(['tok-primary-0123']));
    expect(leaks.map((l) => l.file.slice(dir.length + 1))).toEqual(expect.arrayContaining(['junit.xml', 'conformance.json']));
    for (const l of leaks) expect(existsSync(l.file)).toBe(false);
    expect(files.every((f) => !leaks.some((l) => l.file === f))).toBe(true);
  });
});

describe('the report schema closes the configuration', () => {
  it('names every option of the suite, and nothing else passes', async () => {
    const { OPTIONS } = await import('../../../src/config.ts');
    const schema = JSON.parse(readFileSync(new URL('../../../schemas/conformance-report.schema.json', import.meta.url), 'utf8')) as { properties: { config: { additionalProperties: boolean; properties: Record<string, unknown> } } };
    const config = schema.properties.config;
    expect(config.additionalProperties).toBe(false);
    for (const o of OPTIONS) expect(Object.keys(config.properties), o.flag).toContain(o.key);
  });
});

describe('verify and compare refuse nesting no report has, before parsing it', () => {
  it('counts depth outside strings, and stops past the limit', async () => {
    const { jsonDepth, MAX_JSON_DEPTH, parseJson } = await import('../../../src/cli/shared/read-report.ts');
    expect(jsonDepth('{"a":[{"b":"[[[[{{{{"}]}')).toBe(3);
    expect(jsonDepth('"\\"[[["')).toBe(0);
    const deep = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    expect(jsonDepth(deep)).toBe(MAX_JSON_DEPTH + 1);
    expect(() => parseJson(deep, 'conformance.json')).toThrow(`conformance.json: nested deeper than ${MAX_JSON_DEPTH} levels, which no report of this suite is`);
  });

  it('a real report with failures and exchanges is well within the limit', async () => {
    const { jsonDepth, MAX_JSON_DEPTH } = await import('../../../src/cli/shared/read-report.ts');
    const exchange = { request: { method: 'GET', url: 'u', headers: { a: 'b' }, credential: { token: 'WIDGET_TOKEN', url: [{ token: 'WIDGET_TOKEN', derivation: 'exact' }] } }, response: { status: 500, headers: {}, body: '' }, durationMs: 1 };
    const report = reportOf(outcomesOf([testOf('CRUD-1', 'fail', { failures: [{ message: 'm', exchanges: [exchange] as never }] })]));
    expect(jsonDepth(renderJson(report))).toBeLessThan(MAX_JSON_DEPTH / 2);
  });
});
