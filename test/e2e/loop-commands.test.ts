/**
 * In the end-to-end tier because a real `sh` runs what is printed (the unit tier starts no child process).
 * The implementer's loop, as text a user pastes: the rerun command of a test (report/rerun.ts).
 * It is run by a real `sh` with `npx` replaced by a shell function that prints the words it
 * gets, so what is checked is what the shell hands the tool: titles holding quotes, newlines,
 * `$(…)` and backticks arrive as one word each, byte for byte, and nothing runs that the text
 * only quoted. No token value appears in it, in any spelling.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/shared/exchange.ts';
import { Redactor } from '../../src/shared/redact.ts';
import { createdId, idInUrl, idsOf } from '../../src/report/exchange-ids.ts';
import { INSTALLED_COMMAND, replayCommand, rerunCommand, titleFilter, type RerunSettings } from '../../src/report/rerun.ts';

const TOKEN = 'tok-Primary-0123456789abcdef';
const SECOND = 'tok-Second-fedcba9876543210';
const BASE = 'http://127.0.0.1:8080/v1';
const dir = mkdtempSync(join(tmpdir(), 'wcs-replay-unit-'));

/** Runs `script` with sh, the tools stubbed to print each argument between [ and ] on its own line; stdin of curl goes to `[stdin:…]`. */
function shWithStubs(script: string, answer = '{}'): { stdout: string; stderr: string; status: number | null } {
  const stubs = [
    `npx() { for a in "$@"; do printf '[%s]\\n' "$a"; done; }`,
    // The create's answer is whatever the test says; other requests answer nothing.
    `curl() { for a in "$@"; do printf '[%s]\\n' "$a" >&2; done; if [ -t 0 ]; then :; else cat >/dev/null; fi; printf '%s' "$ANSWER"; }`,
  ].join('\n');
  const file = join(dir, `s${readdirSync(dir).length}.sh`);
  writeFileSync(file, `${stubs}\n${script}`);
  const r = spawnSync('sh', [file], { env: { PATH: process.env.PATH, WIDGET_TOKEN: TOKEN, WIDGET_SECOND_TOKEN: SECOND, ANSWER: answer }, encoding: 'utf8', cwd: dir });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

/** The words printed by a stub, in order (a word may span lines). */
function words(printed: string): string[] {
  return [...printed.matchAll(/\[([\s\S]*?)\]\n(?=\[|$)/g)].map((m) => m[1]!);
}

const settings: RerunSettings = { command: INSTALLED_COMMAND, baseUrl: BASE, seed: -42, runs: 50, strict: false, withoutSecondToken: false };
const spellings = new Redactor([TOKEN, SECOND]);

/** Titles and ids that a naive shell quoting would break or execute. */
const NASTY = [`it's "quoted"`, 'a\nnewline', '$(touch pwned)', '`touch pwned`', "'; touch pwned; '", '${WIDGET_TOKEN}', 'back\\slash', '%s %n', 'ünïcødé ✓'];

describe('rerunCommand', () => {
  it('is the suite command with the target, the rule, the test filter, the seed and runs, and no token flag', () => {
    const command = rerunCommand(settings, ['ISO-2'], "the second account cannot retrieve the first account's widget");
    expect(command).toBe(`npx --no-install widget-conformance --base-url ${BASE} --only ISO-2 --test 'the second account cannot retrieve the first account'\\''s widget' --seed -42 --runs 50`);
    expect(command).not.toMatch(/--(second-)?token\b|npm test/);
  });

  it('repeats --strict, --without-second-token and the settings given, and never a password of the base URL', () => {
    const command = rerunCommand({ ...settings, baseUrl: `http://user:${TOKEN}@h.example/v1`, strict: true, withoutSecondToken: true, extra: [['--list-settle-ms', '300']] }, ['CRUD-1'], 'x');
    expect(command).toContain('--without-second-token');
    expect(command).toContain('--strict');
    expect(command).toContain('--list-settle-ms 300');
    expect(spellings.text(command)).toBe(command);
  });

  it('leaves out --base-url for the embedded reference server', () => {
    expect(rerunCommand({ ...settings, baseUrl: undefined }, ['PROP-1'])).toBe('npx --no-install widget-conformance --only PROP-1 --seed -42 --runs 50');
  });

  it('hands the shell the test filter as one word, byte for byte, whatever the title holds', () => {
    fc.assert(fc.property(fc.oneof(fc.constantFrom(...NASTY), fc.string({ minLength: 1, unit: 'grapheme' }).filter((s) => !/^\s|\s$|\]\n\[|\u0000/.test(s))), (title) => {
      const filter = titleFilter(`MAL-2 ${title}`, 'MAL-2', [`MAL-2 ${title}`]);
      const out = shWithStubs(rerunCommand(settings, ['MAL-2'], filter));
      expect(out.status, out.stderr).toBe(0);
      expect(words(out.stdout)).toEqual(['--no-install', 'widget-conformance', '--base-url', BASE, '--only', 'MAL-2', '--test', title, '--seed', '-42', '--runs', '50']);
    }), { numRuns: 25 });
    expect(readdirSync(dir).filter((f) => f === 'pwned')).toEqual([]);
  });
});

describe('replayCommand', () => {
  it('hands the shell the replay file\'s path as one word, byte for byte, whatever the report directory is called', () => {
    for (const dirName of NASTY) {
      const path = `${dirName}/replay/ISO-2-1.json`;
      const out = shWithStubs(replayCommand(INSTALLED_COMMAND, path));
      expect(out.status, out.stderr).toBe(0);
      expect(words(out.stdout).slice(-2)).toEqual(['replay', path]);
    }
    expect(readdirSync(dir).filter((f) => f === 'pwned')).toEqual([]);
  });
});

describe('titleFilter', () => {
  it('is the title after the rule id when no other test of the rule holds that text', () => {
    expect(titleFilter('MAL-2 description too long', 'MAL-2', ['MAL-2 description too long', 'MAL-2 name too long'])).toBe('description too long');
  });

  it('is an anchored /regex/ when another title of the rule contains it', () => {
    const filter = titleFilter('PAGE-1 limit 1', 'PAGE-1', ['PAGE-1 limit 1', 'PAGE-1 limit 1 twice']);
    expect(filter).toBe('/^PAGE-1 limit 1$/');
  });

  it('escapes what a regex would read', () => {
    expect(titleFilter('X-1 a (b)', 'X-1', ['X-1 a (b)', 'X-1 a (b) c'])).toBe('/^X-1 a \\(b\\)$/');
  });
});

/** A recorded exchange as the client records it: the token as a variable part of the Authorization header. */
function exchange(method: string, url: string, variable: 'WIDGET_TOKEN' | 'WIDGET_SECOND_TOKEN', response?: { status: number; body: string }, body?: string): Exchange {
  return {
    request: {
      method,
      url,
      headers: { accept: 'application/json', authorization: 'Bearer [REDACTED]', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body, bodyExact: true }),
      credential: { token: variable, authorization: ['Bearer ', { token: variable, derivation: 'exact' }] },
    },
    ...(response ? { response: { status: response.status, headers: {}, body: response.body } } : {}),
    durationMs: 1,
  };
}

const widgetUrl = (id: string): string => `${BASE}/widgets/${encodeURIComponent(id)}`;

describe('ids of exchanges', () => {
  it('reads the id a URL names, decoded, and the id a create answered', () => {
    expect(idInUrl(widgetUrl("a'b c"))).toBe("a'b c");
    expect(idInUrl(`${BASE}/widgets`)).toBeUndefined();
    const create = exchange('POST', `${BASE}/widgets`, 'WIDGET_TOKEN', { status: 201, body: '{"id":"w1","name":"n"}' }, '{"name":"n"}');
    expect(createdId(create)).toBe('w1');
    expect(createdId({ ...create, response: { status: 400, headers: {}, body: '{"id":"w1"}' } })).toBeUndefined();
    expect(idsOf([create, exchange('GET', widgetUrl('w2'), 'WIDGET_SECOND_TOKEN')])).toEqual(['w1', 'w2']);
  });
});

describe('--write-baseline and --baseline with a FIFO (mkfifo is a child process)', () => {
  it('refuses a FIFO before the run, when writing, and when reading, rather than block on it', async () => {
    const { checkBaselineTarget, writeBaseline } = await import('../../src/cli/run/write-baseline.ts');
    const { readBaseline } = await import('../../src/cli/run/baseline.ts');
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(() => checkBaselineTarget(fifo, 'fifo')).toThrow(/fifo is not a regular file/);
    expect(writeBaseline(fifo, 'fifo', { rules: [], target: 't', seed: 1, finishedAt: 'x', strict: false } as never)).toMatch(/not a regular file/);
    expect(() => readBaseline(fifo)).toThrow(/not a regular file/);
  });
});
