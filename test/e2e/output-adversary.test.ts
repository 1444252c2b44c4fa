/**
 * The generated adversary of every output format: fast-check makes report models from hostile
 * server text (full Unicode, control and terminal sequences, workflow commands, Markdown and
 * HTML fragments, token fragments in every spelling) and tokens of every length (`1`, `a`,
 * `test` among them, and long ones the reports' own text spells, `properta`), passes them through the one sanitizer the way a run does (exchanges
 * recorded by the redactor, failures sanitised field by field, outcomes and cleanup cleaned
 * where they enter the report model), renders every format, and checks the invariant:
 * every output parses (JSON and HAR; junit.xml against schemas/junit-10.xsd with xmllint; the
 * HTML in Chromium, which runs nothing from it), no output holds a raw control or bidi
 * character, no console line starts with `::`, the Markdown has no live mention, link or image
 * outside code, and no output holds a credential beyond what the suite's own text spells (the
 * same model rendered with every server text neutral). Seeds are printed by fast-check on failure
 * and replay with `seed`/`path`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { renderSummary } from '../../src/cli/run/summary.ts';
import { ConformanceFailure } from '../../src/harness/failure.ts';
import { recordBody, type Exchange } from '../../src/shared/exchange.ts';
import { REDACTED, Redactor } from '../../src/shared/redact.ts';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { renderBadge } from '../../src/report/badge.ts';
import { CONSOLE_UNSAFE } from '../../src/report/console.ts';
import { curlCommand } from '../../src/report/curl.ts';
import { rerunCommand } from '../../src/report/rerun.ts';
import { renderHar } from '../../src/report/har.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderJson } from '../../src/report/json.ts';
import { renderJunit } from '../../src/report/junit.ts';
import { renderMarkdown } from '../../src/report/markdown.ts';
import type { FailureReport, RunOutcomes, TestOutcome } from '../../src/report/model.ts';
import { sanitizeCleanup, sanitizeOutcomes } from '../../src/report/sanitize.ts';
import { ruleById } from '../../src/rules.ts';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { ReferenceService } from '../../src/reference/service.ts';
import type { RequestHandler } from '../../src/reference/server.ts';
import { runAgainst } from '../servers/serve.ts';
import { explain } from '../support/suite-runner.ts';
import { withChromium } from '../support/chromium.ts';
import { credentialForms, TEXT_SPELLINGS } from '../support/credential-forms.ts';
import { outcomesOf, reportOf } from '../unit/support/report.ts';

/** Generated report models per run of this file: the issue asks for at least 200. */
const RUNS = 200;
const BASE_URL = 'http://127.0.0.1:8081/v1';
const XSD = join(PROJECT_ROOT, 'schemas/junit-10.xsd');

/** Fragments that attack a reader: terminal and OSC sequences, workflow commands, markup of every format. */
const ATTACKS = [
  '\u001b]0;owned\u0007', '\u001b]52;c;ZXZpbA==\u0007', '\u001b]8;;http://evil.example\u001b\\link\u001b]8;;\u001b\\', '\u001b[2J', '\u009b31m',
  '\r::error file=x::forged', '\n::add-mask::x', '\n  ::stop-commands::end', '::warning::x', '\u0085', '\u2028', '\u2029',
  '\u202e', '\u2066', '\u2069', '\u200f', '\u061c', '\u0000', '\u0008', '\u007f', '\uFFFE', '\uFFFF', '\uD800', '\uDFFF',
  '@octocat', '@org/team', '#1', '![x](http://evil.example/x.png)', '[click](javascript:alert(1))', '<https://evil.example>', 'www.evil.example',
  '<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '<iframe src="http://evil.example">', '</pre></dd>', ']]>', '<!--', '-->', '<![CDATA[',
  '&amp;', '&#0;', '`', '```', '~~~', '|', '\\', '"', "'", '${IFS}', '$(id)', '\n', '\t', '%00', '\\u0000', 'é', '😀', '\uD83D\uDE00',
];

const swapCase = (s: string): string => [...s].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');

/**
 * Tokens short and common (the corrupting cases of old), long and random, and long ones a person
 * might choose that the reports' own text spells: a long token matches in any letter case and
 * without its last character (credential-spellings.ts), so "properta" matches the "<properties>"
 * every junit.xml prints. Those must meet the invariant too: the suite's own text is no leak, and
 * what the server said still never shows the token.
 */
const token = fc.oneof(
  fc.constantFrom('1', 'a', '0', 'test', 'dev', 'secret', 'v1'),
  fc.stringMatching(/^[A-Za-z0-9._~+/=-]{8,40}$/),
  fc.stringMatching(/^[a-z0-9]{1,7}$/),
  fc.tuple(fc.nat(), fc.constantFrom<(word: string) => string>((w) => w, (w) => `${w}1`, (w) => w.toUpperCase(), swapCase, (w) => `${w.slice(0, -1)}x`))
    .map(([i, spell]) => spell(fixedWords()[i % fixedWords().length]!)),
);

/** What stands in for each server text where the oracle renders a model without them: no token holds it. */
const NEUTRAL = '#';
/** A token that spells no word of any report. */
const UNRELATED = 'Zq9x7w2vKk';

let fixedWordList: string[] | undefined;
/**
 * The words of 8 letters or more that the reports and console print with no server text in them.
 * Not "REDACTED": a token the redaction marker spells cannot be told from its own redactions.
 */
function fixedWords(): string[] {
  if (fixedWordList === undefined) {
    const { files, consoleText } = outputs({ secret: UNRELATED, texts: Array.from({ length: 8 }, () => NEUTRAL) });
    const words = [...Object.values(files), consoleText].flatMap((t) => t.match(/[A-Za-z]{8,}/g) ?? []);
    fixedWordList = [...new Set(words)].filter((w) => !/^redacted$/i.test(w)).sort();
  }
  return fixedWordList;
}

/** Hostile text built around a token: attacks, full Unicode, the token in any spelling. */
function hostile(secret: string): fc.Arbitrary<string> {
  const piece = fc.oneof(
    fc.constantFrom(...ATTACKS),
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.string({ maxLength: 12 }),
    fc.constantFrom(...TEXT_SPELLINGS.map(([, spell]) => spell(secret))),
    fc.constantFrom(Buffer.from(secret).toString('base64'), `Bearer ${secret}`, secret.toUpperCase()),
  );
  return fc.array(piece, { maxLength: 8 }).map((parts) => parts.join(''));
}

interface Model {
  readonly secret: string;
  readonly texts: readonly string[];
}

const model: fc.Arbitrary<Model> = token.chain((secret) => fc.record({ secret: fc.constant(secret), texts: fc.array(hostile(secret), { minLength: 8, maxLength: 8 }) }));

/** A URL component of any text, as a client would send it (lone surrogates cannot be percent-encoded). */
const component = (text: string): string => encodeURIComponent((text as unknown as { toWellFormed(): string }).toWellFormed());

/** An exchange as the HTTP client records it: every string through the redactor. */
function recorded(redactor: Redactor, secret: string, text: string): Exchange {
  const redact = (s: string): string => redactor.text(s);
  return {
    request: {
      method: 'POST',
      url: redactor.url(`${BASE_URL}/widgets/${component(text)}?access_token=${component(secret)}`, BASE_URL),
      headers: redactor.requestHeaders({ authorization: `Bearer ${secret}`, 'x-api-key': secret, 'content-type': 'application/json' }),
      body: recordBody(redact, JSON.stringify({ name: text }), 100),
      credential: { token: 'WIDGET_TOKEN', authorization: ['Bearer ', { token: 'WIDGET_TOKEN', derivation: 'exact' }] },
    },
    response: { status: 500, headers: redactor.headers({ 'x-echo': text, 'content-type': 'text/plain' }), body: recordBody(redact, `${text}\n${secret}`, 100) },
    durationMs: 3,
  };
}

/** Every output a run writes or prints, from one generated model. */
type FileName = 'conformance.json' | 'junit.xml' | 'conformance.md' | 'conformance.html' | 'exchanges.har' | 'badge.svg';

function outputs({ secret, texts }: Model): { redactor: Redactor; files: Record<FileName, string>; consoleText: string } {
  const t = (i: number): string => texts[i % texts.length]!;
  const redactor = new Redactor([secret]);
  const exchanges = [recorded(redactor, secret, t(0))];
  const failure = new ConformanceFailure(ruleById('CRUD-1'), { expected: `status 201 ${t(1)}`, received: `${t(2)} ${secret}`, note: t(3), exchanges }, redactor);
  const report: FailureReport = { message: failure.message, expected: failure.detail.expected, received: failure.detail.received, ...(failure.detail.note ? { note: failure.detail.note } : {}), exchanges, curl: exchanges.map((x) => curlCommand(x)) };
  const failed: TestOutcome = { rule: 'CRUD-1', title: 'CRUD-1 a created widget is returned', file: 'suites/crud.test.ts', outcome: 'fail', messages: [failure.message], failures: [report], warnings: [], durationMs: 5, rerun: rerunCommand({ command: 'npx --no-install widget-conformance', baseUrl: BASE_URL, seed: 1, runs: 50, strict: false, withoutSecondToken: false }, ['CRUD-1'], 'a created widget is returned') };
  const errored: TestOutcome = { rule: 'CRUD-2', title: 'CRUD-2 a test', file: 'suites/crud.test.ts', outcome: 'error', messages: [`TransportError: ${t(4)} ${secret}`], failures: [], warnings: [], durationMs: 5 };
  const raw: RunOutcomes = outcomesOf([failed, errored], [`unhandled: ${t(5)}`]);
  const clean = (s: string): string => redactor.text(s);
  const outcomes = sanitizeOutcomes(raw, clean);
  const cleanup = sanitizeCleanup({ deleted: 0, problems: [t(6)], leftovers: [{ account: 'primary', id: `${t(7)}${secret}`, reason: t(6) }], kept: [{ account: 'second', id: `${t(8)}${secret}`, reason: t(9) }], verified: false }, clean);
  const built = reportOf(outcomes, { cleanup, exitCode: 1, baseUrl: BASE_URL, target: BASE_URL });
  const files: Record<FileName, string> = {
    'conformance.json': renderJson(built),
    'junit.xml': renderJunit(built),
    'conformance.md': renderMarkdown(built),
    'conformance.html': renderHtml(built),
    'exchanges.har': renderHar(built),
    'badge.svg': renderBadge(built),
  };
  const summary = renderSummary(built, { seconds: 1, reports: [], settingsFile: 'none', cleanup: clean(t(6)) });
  return { redactor, files, consoleText: `${failure.message}\n${summary}` };
}

/** The Markdown with every code span and fenced block taken out: what GitHub reads as markup. */
function outsideCode(md: string): string {
  return md.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, '').replace(/(`+)[\s\S]*?\1/g, '');
}

/** The console's notes where it cut a line or a block (report/console-report.ts boundedLine, textBlock). */
const CONSOLE_CUT = /…, full text in [\w.]+|\(\d+ more lines in conformance\.md\)/g;

/** Non-overlapping occurrences of `part` in `text`. */
const occurrences = (text: string, part: string): number => text.split(part).length - 1;

/** How many stretches of `text` spell a secret, as the redactor finds them (those that overlap, once). */
const spellings = (redactor: Redactor, text: string): number => redactor.spans(text).length;

/** The properties every output must hold; returns the problems found. */
function problemsOf(m: Model): { problems: string[]; junit: string; html: string } {
  const { redactor, files, consoleText } = outputs(m);
  // The same model with every server text redacted before it enters: what the suite prints of its
  // own around them, the same lines of the same lengths. A spelling of the credential the outputs
  // hold beyond what that prints came from what the server said, past the sanitizer.
  const upFront = new Redactor([m.secret]);
  const own = outputs({ secret: m.secret, texts: m.texts.map((t) => upFront.text(t)) });
  const ownText: Record<string, string> = { ...own.files, console: own.consoleText };
  const problems: string[] = [];
  for (const name of ['conformance.json', 'exchanges.har'] as const) {
    try {
      JSON.parse(files[name]);
    } catch (error) {
      problems.push(`${name} does not parse: ${(error as Error).message}`);
    }
  }
  for (const [name, text] of [...Object.entries(files), ['console', consoleText] as const]) {
    const raw = text.match(CONSOLE_UNSAFE);
    if (raw) problems.push(`${name} holds a raw control or bidi character U+${raw[0].charCodeAt(0).toString(16).padStart(4, '0')}`);
    if (m.secret.length >= 8) {
      // Where the console cuts a line or a block it says so in its own words, which the two models may cut apart.
      const uncut = (t: string): string => (name === 'console' ? t.replace(CONSOLE_CUT, '') : t);
      const [shown, fixed] = [uncut(text), uncut(ownText[name]!)];
      if (spellings(redactor, shown) > spellings(redactor, fixed)) problems.push(`${name} holds the credential`);
      // Every form the suite sends it in (case, shortened, Basic, query), in every spelling, counted.
      const form = credentialForms(m.secret).find((f) => occurrences(shown, f) > occurrences(fixed, f));
      if (form !== undefined) problems.push(`${name} holds a spelling of the credential: ${JSON.stringify(form)}`);
    }
  }
  if (/^[ \t]*::/m.test(consoleText)) problems.push('a console line starts with ::');
  const md = outsideCode(files['conformance.md']);
  if (/(^|[^\w\\`&#;])@[A-Za-z0-9]/m.test(md)) problems.push('the Markdown holds a live mention');
  if (/(^|[^\\])!?\[[^\]]*\]\(/m.test(md) || /<(https?|javascript):/i.test(md) || /<(script|img|iframe)/i.test(md)) problems.push('the Markdown holds a live link, image or tag');
  // JSON data: no field the server filled holds the raw token, whatever its length.
  const json = JSON.parse(files['conformance.json']) as { rules: Array<{ tests: Array<{ failures?: FailureReport[]; errors?: string[] }> }>; cleanup: { leftovers: Array<{ id: string }> } };
  const serverFields = [
    ...json.rules.flatMap((r) => r.tests.flatMap((x) => [...(x.failures ?? []).flatMap((f) => [f.received ?? '', f.note ?? '', ...(f.exchanges ?? []).flatMap((e) => [e.request.url.slice(BASE_URL.length), e.response?.body ?? '', ...Object.values(e.request.headers).map((v) => v.replace(/^Bearer /, ''))])]), ...(x.errors ?? [])])),
    ...json.cleanup.leftovers.map((l) => l.id),
  ];
  const holding = serverFields.find((f) => f.split(REDACTED).some((part) => part.includes(m.secret)));
  if (holding !== undefined) problems.push(`a field the server filled holds the raw token: ${JSON.stringify(holding)}`);
  return { problems, junit: files['junit.xml'], html: files['conformance.html'] };
}

describe('every output of every generated hostile report parses, shows no control and holds no credential', () => {
  const seen: Array<{ junit: string; html: string }> = [];

  test(`REPORT-OUT formatters hold the invariant for ${RUNS} generated models`, () => {
    fc.assert(
      fc.property(model, (m) => {
        const { problems, junit, html } = problemsOf(m);
        if (seen.length < RUNS) seen.push({ junit, html });
        expect(problems.join(" | "), JSON.stringify(m)).toBe("");
      }),
      {
        numRuns: RUNS,
        examples: [[{ secret: '1', texts: ['0.1.0', '-1', '127.0.0.1', '\u001b]0;x\u0007', '\r::error::x', '@octocat \u202e', '![i](http://e/x.png)', 'tok'] }], [{ secret: 'test', texts: ['testsuites', 'tested', '<testsuite>', 'test', '', '', '', ''] }],
          // A token the console's own words spell ("NOT CONFORMANT", "full text in conformance.md"), beside server text its escapes make long enough to cut.
          [{ secret: 'CONFORMANx', texts: ['', '', '', '', '', '\u0001'.repeat(100), '\u0001'.repeat(100), ''] }]],
      },
    );
    expect(seen.length).toBeGreaterThanOrEqual(RUNS);
  });

  test('REPORT-OUT every generated junit.xml validates against schemas/junit-10.xsd (xmllint)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wcs-adversary-'));
    try {
      const files = seen.map(({ junit }, i) => {
        const file = join(dir, `junit-${i}.xml`);
        writeFileSync(file, junit);
        return file;
      });
      expect(files.length).toBeGreaterThanOrEqual(RUNS);
      const result = spawnSync('xmllint', ['--noout', '--schema', XSD, ...files], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      if (result.error) throw new Error(`xmllint could not run (Debian's libxml2-utils): ${result.error.message}`);
      expect(result.stderr.split('\n').filter((l) => l !== '' && !l.endsWith(' validates')).slice(0, 10)).toEqual([]);
      expect(result.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('REPORT-OUT every generated conformance.html loads in Chromium with nothing of the server run or shown as markup', async () => {
    expect(seen.length).toBeGreaterThanOrEqual(RUNS);
    await withChromium({ width: 1200, height: 800 }, async (context) => {
      const page = await context.newPage();
      for (const { html } of seen) {
        await page.setContent(html, { waitUntil: 'domcontentloaded' });
        // Runs in the page: the DOM's types are not this project's (no "dom" lib), so it is reached through globalThis.
        const found = await page.evaluate(() => {
          const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number }; querySelector(s: string): { textContent: string | null } | null } }).document;
          return {
            active: doc.querySelectorAll('script, img, iframe, object, embed, a[href^="javascript"], a[href^="http"]').length,
            h1: doc.querySelector('h1')?.textContent ?? '',
          };
        });
        expect(found).toEqual({ active: 0, h1: 'NOT CONFORMANT' });
      }
    });
  }, 120_000);
});

/** Tokens short and common, as a developer's local server has them: the suite's own text must survive them. */
const SHORT_TOKENS = ['test', 'dev'] as const;

/**
 * A real run against a loopback server that answers every retrieve with a 500 and a text body of
 * generated hostile text (terminal sequences, workflow commands, mentions, markup, the tokens),
 * and accepts the short tokens `test` and `dev`.
 */
function hostileEcho(seed: number): { handler: RequestHandler; tokens: readonly [string, string]; text: string } {
  // A fixed hostile head, so that the start the console shows (bounded) always holds something to
  // escape, whatever the seed generates; the generated text and the fixed tail follow.
  const text = '\u001b[2J\u202e' + fc.sample(hostile(SHORT_TOKENS[0]), { seed, numRuns: 6 }).join('\n') + '\r::error::forged\n::add-mask::x\u001b]0;owned\u0007 @octocat \u202e';
  const service = new ReferenceService({ tokens: { [SHORT_TOKENS[0]]: 'alice', [SHORT_TOKENS[1]]: 'bob' } });
  return {
    tokens: SHORT_TOKENS,
    text,
    handler: {
      handle: (req, res) => {
        if (req.method === 'GET' && /\/widgets\/[^/?]+/.test(req.url ?? '')) {
          res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
          return;
        }
        return service.handle(req, res);
      },
    },
  };
}

describe('a real run against a server that echoes generated hostile text, with short tokens', () => {
  test('REPORT-OUT every report parses and validates, the console and every file show no raw control and no :: line, and the suite\'s own text is whole', async () => {
    const seed = Date.now() % 2 ** 31;
    const server = hostileEcho(seed);
    const run = await runAgainst(server, ['--only', 'CRUD', '--seed', String(seed)]);
    expect(run.exitCode, explain(run)).toBe(1);
    const version = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    // Every file the run wrote, its replay files (replay/*.json) among them.
    const names = readdirSync(run.reportDir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(run.reportDir, f)).isFile());
    expect(names.filter((f) => f.startsWith('replay/')).length, 'a replay file per failing test').toBeGreaterThan(0);
    const files = Object.fromEntries(names.map((f) => [f, readFileSync(join(run.reportDir, f), 'utf8')]));
    const report = JSON.parse(files['conformance.json'] ?? '') as { suiteVersion: string; requests: number; seed: number };
    expect(report.suiteVersion, `seed ${seed}`).toBe(version);
    expect(report.seed).toBe(seed);
    expect(typeof report.requests).toBe('number');
    JSON.parse(files['exchanges.har'] ?? '');
    expect(run.stdout).toContain('Requests: ');
    expect(run.stderr).toContain('shorter than 8 characters');
    for (const [name, text] of [...Object.entries(files), ['stdout', run.stdout], ['stderr', run.stderr]] as const) {
      const raw = text.match(CONSOLE_UNSAFE);
      expect(raw && `U+${raw[0].charCodeAt(0).toString(16)}`, `${name} (seed ${seed})`).toBeNull();
    }
    // The hostile text reached the console, escaped: the check above is not vacuous. The console
    // shows the start of each server text, bounded (report/console-report.ts); the whole of it,
    // to its hostile tail, is in the reports.
    expect(`${run.stdout}${run.stderr}`).toMatch(/\\x1b|\\x9b|\\x0d|\\x85|\\u202e|\\u2028/);
    expect(files['conformance.json']).toContain('\\r::error::forged\\n::add-mask::x\\u001b]0;owned\\u0007');
    for (const name of ['stdout', 'stderr'] as const) expect(run[name].split('\n').filter((l) => /^[ \t]*::/.test(l)), name).toEqual([]);
    expect(outsideCode(files['conformance.md'] ?? '')).not.toMatch(/(^|[^\w\\`&#;])@octocat/m);
    const lint = spawnSync('xmllint', ['--noout', '--schema', XSD, join(run.reportDir, 'junit.xml')], { encoding: 'utf8' });
    expect(lint.status, lint.stderr).toBe(0);
  });
});

/** Tokens a person might choose that the reports' own text spells: junit.xml's <properties>, the HTML's Content-Security-Policy. */
const CHOSEN_TOKENS = ['properta', 'Security1'] as const;

describe('a real run under tokens a person chose', () => {
  // The unit tests judge the writer on models made for them; this is the runner's own model (skip
  // reasons, the profile, every recorded exchange), where none of these words is data.
  test('REPORT-OUT tokens the reports\' own text spells leave every report written and the run CONFORMANT', async () => {
    const service = new ReferenceService({ tokens: { [CHOSEN_TOKENS[0]]: 'alice', [CHOSEN_TOKENS[1]]: 'bob' } });
    const run = await runAgainst({ handler: service, tokens: CHOSEN_TOKENS }, []);
    expect(run.exitCode, explain(run)).toBe(0);
    expect(run.stderr).not.toContain('would hold a credential');
    const files = Object.fromEntries(readdirSync(run.reportDir).map((f) => [f, readFileSync(join(run.reportDir, f), 'utf8')]));
    expect(Object.keys(files).sort()).toEqual(['badge.svg', 'conformance.html', 'conformance.json', 'conformance.md', 'exchanges.har', 'junit.xml']);
    // Not vacuous: the reports' own text does spell each token.
    expect(new Redactor([CHOSEN_TOKENS[0]]).leak(files['junit.xml']!), 'junit.xml spells properta').toBeDefined();
    expect(new Redactor([CHOSEN_TOKENS[1]]).leak(files['conformance.html']!), 'the HTML spells Security1').toBeDefined();
  });
});

test('REPORT-OUT the token generator draws tokens the reports\' own text spells, as well as random ones', () => {
  const { files } = outputs({ secret: UNRELATED, texts: Array.from({ length: 8 }, () => NEUTRAL) });
  const fixedText = Object.values(files).join('\n');
  expect(fixedWords()).toEqual(expect.arrayContaining(['testsuites', 'properties', 'failures', 'Security']));
  const drawn = fc.sample(token, { seed: 1, numRuns: RUNS }).filter((t) => t.length >= 8);
  const spelled = drawn.filter((t) => new Redactor([t]).leak(fixedText) !== undefined);
  expect(spelled.length, 'some drawn tokens are spelled by the reports\' own text').toBeGreaterThan(RUNS / 20);
  expect(drawn.length - spelled.length, 'and some are not').toBeGreaterThan(RUNS / 20);
});
