/**
 * The report writer's tripwire judges only what could carry a credential (cli/run/write-reports.ts
 * leakIn, report/provenance.ts): a token a human chose that the reports' own text spells
 * (`testsuites1`, `properta`, `Properties`, `failures1`, `Security1`, `Details1`) leaves every file written,
 * while the same token in server or configuration text, in any spelling the redactor knows, is
 * redacted where the data enters the report and keeps a file back where it slipped past that.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dataHolds, leakIn, REPORT_FILES, writeReports } from '../../../../src/cli/run/write-reports.ts';
import { ConformanceFailure } from '../../../../src/harness/failure.ts';
import { recordBody, type Exchange } from '../../../../src/shared/exchange.ts';
import { REDACTED, Redactor } from '../../../../src/shared/redact.ts';
import type { FailureReport, RunReport, TestOutcome, TestReplay } from '../../../../src/report/model.ts';
import { renderReplayFile, REPLAY_KIND, type ReplayFile } from '../../../../src/report/replay-file.ts';
import { replayData, reportData } from '../../../../src/report/provenance.ts';
import { sanitizeCleanup, sanitizeOutcomes } from '../../../../src/report/sanitize.ts';
import { ruleById } from '../../../../src/rules.ts';
import { credentialForms } from '../../../support/credential-forms.ts';
import { outcomesOf, reportOf, testOf } from '../../support/report.ts';

const BASE_URL = 'http://127.0.0.1:8081/v1';

/**
 * Tokens a person might choose that the reports' own text spells: junit.xml's `<testsuites`,
 * `<properties>` and `failures="…"`, conformance.html's Content-Security-Policy, conformance.md's
 * "Details, with every HTTP exchange", and the name of suites/properties.test.ts.
 */
const FIXED_TEXT_TOKENS = ['testsuites1', 'properta', 'Properties', 'failures1', 'Security1', 'Details1'] as const;

/** Where server text slipped past the redactor, as a bug of the suite would let it: one model per place. */
type Place = 'response body (a widget name)' | 'response header value' | 'response header name' | 'leftover widget id' | 'suite error' | 'replay setting';
const PLACES: readonly Place[] = ['response body (a widget name)', 'response header value', 'response header name', 'leftover widget id', 'suite error', 'replay setting'];

/** An exchange as the HTTP client records it, every string through the redactor; `raw` what slipped past it. */
function recorded(redactor: Redactor, secret: string, serverText: string, raw: { body?: string; header?: [string, string] }): Exchange {
  const headers = redactor.headers({ 'content-type': 'application/json', 'x-echo': `${serverText} ${secret}` });
  return {
    request: {
      method: 'POST',
      url: redactor.url(`${BASE_URL}/widgets?access_token=${encodeURIComponent(secret)}`, BASE_URL),
      headers: redactor.requestHeaders({ authorization: `Bearer ${secret}`, 'content-type': 'application/json' }),
      body: recordBody((s) => redactor.text(s), JSON.stringify({ name: `${serverText} ${secret}` }), 100),
      credential: { token: 'WIDGET_TOKEN', authorization: ['Bearer ', { token: 'WIDGET_TOKEN', derivation: 'exact' }] },
    },
    response: {
      status: 500,
      headers: raw.header ? { ...headers, [raw.header[0]]: raw.header[1] } : headers,
      body: raw.body ?? recordBody((s) => redactor.text(s), `{"error":"${serverText}","token":"${secret}","upper":"${secret.toUpperCase()}"}`, 100),
    },
    durationMs: 3,
  };
}

/**
 * A run's report as the runner builds it: a failed CRUD-1 whose server answers echo the token
 * (redacted where they entered), a passing PROP-1 in suites/properties.test.ts, an errored test,
 * a leftover, a replay file. `slipped` puts `form` in one place unredacted, as a bug would.
 */
function runOf(secret: string, slipped?: { place: Place; form: string }, redactor = new Redactor([secret])): { report: RunReport; replays: TestReplay[]; redactor: Redactor } {
  const at = (p: Place): string | undefined => (slipped?.place === p ? slipped.form : undefined);
  const raw = {
    ...(at('response body (a widget name)') === undefined ? {} : { body: JSON.stringify({ id: 'w-1', name: at('response body (a widget name)') }) }),
    ...(at('response header value') === undefined ? {} : { header: ['x-request-echo', at('response header value')!] as [string, string] }),
    ...(at('response header name') === undefined ? {} : { header: [at('response header name')!, '1'] as [string, string] }),
  };
  // The failure's message shows its exchanges as recorded; what slipped is in the exchanges alone, each place judged on its own.
  const failure = new ConformanceFailure(ruleById('CRUD-1'), { expected: 'status 201', received: `status 500 ${secret}`, note: `the server said ${secret.toUpperCase()}`, exchanges: [recorded(redactor, secret, 'no such widget', {})] }, redactor);
  const exchanges = [recorded(redactor, secret, 'no such widget', raw)];
  const report: FailureReport = { message: failure.message, expected: failure.detail.expected, received: failure.detail.received, ...(failure.detail.note ? { note: failure.detail.note } : {}), exchanges };
  const content: ReplayFile = {
    kind: REPLAY_KIND, version: 1, suiteVersion: '1.0.0', baseUrl: BASE_URL, rule: 'CRUD-1', test: 'CRUD-1 a created widget is returned', outcome: 'fail',
    run: { rules: ['CRUD-1'], test: 'CRUD-1 a created widget is returned' }, seed: 42, runs: 50, strict: false, withoutSecondToken: false,
    settings: [['--list-settle-ms', at('replay setting') ?? '300']], headers: false, recordedAt: '2026-01-02T03:04:05.000Z',
  };
  const replay: TestReplay = { file: 'replay/CRUD-1-1.json', command: 'node bin/widget-conformance.mjs replay reports/replay/CRUD-1-1.json', content };
  const tests: TestOutcome[] = [
    testOf('CRUD-1', 'fail', { title: 'CRUD-1 a created widget is returned', file: 'suites/crud.test.ts', messages: [failure.message], failures: [report], replay }),
    testOf('PROP-1', 'pass', { title: 'PROP-1 generated names are accepted and come back exactly through create, retrieve and list, or refused with nothing created', file: 'suites/properties.test.ts', runs: '50 of 50' }),
    testOf('CRUD-2', 'error', { messages: [`TransportError: socket hang up ${secret}`] }),
  ];
  const clean = (s: string): string => redactor.text(s);
  const outcomes = sanitizeOutcomes(outcomesOf(tests, [`unhandled: ${secret}`]), clean);
  const suiteError = at('suite error');
  const cleanup = sanitizeCleanup({ deleted: 1, problems: [], leftovers: [{ account: 'primary', id: `w-${secret}`, reason: 'its delete answered 500' }], verified: false }, clean);
  const leftovers = at('leftover widget id') === undefined ? cleanup.leftovers : [...cleanup.leftovers, { account: 'primary', id: at('leftover widget id')!, reason: 'its delete answered 500' }];
  const built = reportOf(suiteError === undefined ? outcomes : { ...outcomes, suiteErrors: [...outcomes.suiteErrors, suiteError] }, {
    target: BASE_URL, baseUrl: BASE_URL, command: 'node bin/widget-conformance.mjs', exitCode: 1, cleanup: { ...cleanup, leftovers },
  });
  return { report: built, replays: [replay], redactor };
}

/** A new folder under `dir` to write one run's reports in. */
function folder(dir: string, name: string): string {
  const path = join(dir, name);
  mkdirSync(path);
  return path;
}

/** Every file under `dir` (replay files among them), by path relative to it. */
function filesIn(dir: string): Record<string, string> {
  const names = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(dir, f)).isFile());
  return Object.fromEntries(names.map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

/**
 * A run's files as the writer judges them (its own check, leakIn, file by file), without the
 * disk: what it keeps back, and the text of the rest. Cheap enough to judge hundreds of runs.
 */
function judged({ report, replays, redactor }: ReturnType<typeof runOf>): { kept: string[]; written: Record<string, string> } {
  const files: Array<[string, string, () => boolean]> = [
    ...REPORT_FILES.map(([name, render]): [string, string, () => boolean] => [name, render(report), () => dataHolds(reportData(report), redactor)]),
    ...replays.map((r): [string, string, () => boolean] => [r.file, renderReplayFile(r.content), () => dataHolds(replayData(r.content), redactor)]),
  ];
  const kept = files.filter(([, text, holds]) => leakIn(text, redactor, holds) !== undefined).map(([name]) => name);
  return { kept, written: Object.fromEntries(files.filter(([name]) => !kept.includes(name)).map(([name, text]) => [name, text])) };
}

const swapCase = (s: string): string => [...s].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');

describe('the tripwire judges only what could carry the credential', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wcs-tripwire-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  for (const token of FIXED_TEXT_TOKENS) {
    it(`a token the reports' own text spells (${token}) leaves every report file written, and the server's echoes of it redacted`, async () => {
      const { report, replays, redactor } = runOf(token);
      const { files, problems, leaks } = await writeReports(dir, report, redactor, replays);
      expect(leaks).toEqual([]);
      expect(problems).toEqual([]);
      expect(files).toHaveLength(REPORT_FILES.length + 1);
      const written = filesIn(dir);
      expect(Object.keys(written).sort()).toEqual([...REPORT_FILES.map(([name]) => name), 'replay/CRUD-1-1.json'].sort());
      // Not vacuous: the suite's own text spells the token somewhere, and the server's echoes were redacted.
      expect(Object.values(written).some((text) => redactor.leak(text) !== undefined), 'some file spells the token in its own text').toBe(true);
      expect(written['conformance.json']).toContain(REDACTED);
      const json = JSON.parse(written['conformance.json']!) as { rules: Array<{ tests: Array<{ failures?: FailureReport[] }> }> };
      const serverText = JSON.stringify(json.rules.flatMap((r) => r.tests.flatMap((t) => t.failures ?? [])).map((f) => [f.received, f.note, f.exchanges]));
      expect(redactor.leak(serverText)).toBeUndefined();
    });

    it(`the same token (${token}) slipped past the redactor into server text keeps back, unwritten, every file that would spell it`, async () => {
      const clean = runOf(token);
      for (const place of PLACES) {
        const out = folder(dir, place.replace(/\W+/g, '-'));
        const run = runOf(token, { place, form: token }, clean.redactor);
        const { files, problems, leaks } = await writeReports(out, run.report, run.redactor, run.replays);
        expect(problems, place).toEqual([]);
        expect(leaks.length, place).toBeGreaterThan(0);
        for (const l of leaks) expect(existsSync(l.file), place).toBe(false);
        expect(files.every((f) => !leaks.some((l) => l.file === f)), place).toBe(true);
        for (const [name, text] of Object.entries(filesIn(out))) expect(text, `${place}: ${name}`).not.toContain(token);
      }
    });

    it(`the same token (${token}) slipped past the redactor in any spelling it knows (case, shortened, encoded, escaped, base64) is kept back wherever the server put it`, () => {
      const forms = credentialForms(token);
      expect(forms.length).toBeGreaterThan(PLACES.length);
      const clean = runOf(token);
      const before = judged(clean);
      expect(before.kept).toEqual([]);
      for (const [i, form] of forms.entries()) {
        const place = PLACES[i % PLACES.length]!;
        const run = runOf(token, { place, form }, clean.redactor);
        const { kept, written } = judged(run);
        const what = `${place}: ${JSON.stringify(form)}`;
        expect(kept.length, what).toBeGreaterThan(0);
        // What is written either is what the run writes with nothing slipped, or spells the token nowhere.
        for (const [name, text] of Object.entries(written)) {
          if (text !== before.written[name]) expect(run.redactor.leak(text), `${what} in ${name}`).toBeUndefined();
        }
      }
    });
  }

  it('every word of 8 letters or more that the reports spell in their own text, as a token, in either case, alone or with a character added, leaves every file written', () => {
    const { report, replays, redactor } = runOf('Zq9x7w2vKk-unrelated');
    const texts = Object.values(judged({ report, replays, redactor }).written);
    // Words the data also spells (a URL, a failure message, the server's text) are the data's: a token they spell keeps a file back, as it must.
    const dataText = JSON.stringify([report.target, report.baseUrl, report.implementation, report.config, report.cleanup, report.suiteErrors, report.rootCauses,
      report.rules.flatMap((r) => r.tests.map((t) => [t.failures, t.errors, t.warnings, t.skipReason, t.rerun, t.replay])), replays.map((r) => r.content.settings)]).toLowerCase();
    const words = [...new Set(texts.flatMap((t) => t.match(/[A-Za-z]{8,}/g) ?? []))].filter((w) => !dataText.includes(w.toLowerCase().slice(0, -1)));
    expect(words).toEqual(expect.arrayContaining(['testsuites', 'properties', 'failures', 'Security']));
    // One token per word (a regular expression compiled per token is most of the cost), each of the three kinds in turn.
    for (const [i, word] of words.entries()) {
      const token = [word, `${word}1`, swapCase(word)][i % 3]!;
      expect(judged(runOf(token)).kept, token).toEqual([]);
    }
  });
});

describe('which strings of a report could carry a credential (report/provenance.ts)', () => {
  it('data: what the server sent (bodies, header names and values, ids, messages), the target and the configuration; the suite\'s own: catalogue, titles, files, verdict', () => {
    const { report, replays } = runOf('tok-Primary-0123456789', { place: 'response header name', form: 'X-Server-Chose-This' });
    const data = new Set(reportData(report));
    const failure = report.rules[0]!.tests[0]!.failures![0]!;
    const response = failure.exchanges![0]!.response!;
    for (const s of [response.body, 'X-Server-Chose-This', response.headers['x-echo']!, failure.exchanges![0]!.request.url, failure.message, failure.received!, report.cleanup.leftovers[0]!.id, report.suiteErrors[0]!, report.target, report.baseUrl]) {
      expect(data.has(s), s).toBe(true);
    }
    const rule = report.rules[0]!;
    for (const s of [rule.statement, rule.basis, rule.tests[0]!.title, 'suites/properties.test.ts', report.verdictDetail.label, report.suiteVersion, report.command!]) expect(data.has(s), s).toBe(false);
    expect(replayData(replays[0]!.content)).toEqual([BASE_URL, '--list-settle-ms', '300']);
  });
});
