/**
 * Data safety: the suite never touches a widget it did not create, and leaves nothing of its
 * own behind: after a clean run, after a run whose tests fail, after a run interrupted by
 * SIGINT or SIGTERM midway, and after `npm run cleanup` of a killed run's leftovers; and
 * against servers whose answers would lead a careless tool to delete the user's widgets
 * (test/servers/unsafe.ts), it deletes none and reports by id what it could not delete.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { Adversary, ADVERSARY_TOKENS, schedules } from '../servers/adversary.ts';
import { ReferenceService, type Reply, type WidgetJson } from '../../src/reference/service.ts';
import { startServer } from '../../src/reference/server.ts';
import { WidgetStore } from '../../src/reference/store.ts';
import { newMarker } from '../../src/harness/marker.ts';
import { leftoverLines } from '../../src/cli/run/final-cleanup.ts';
import { contents, seed, UNSAFE } from '../servers/unsafe.ts';
import { runAgainst } from '../servers/serve.ts';
import { serve, TOKENS } from '../servers/support.ts';
import { ALL_BUT_PROPERTIES } from '../support/families.ts';
import { explain, runSuite } from '../support/suite-runner.ts';

/** A reference service (optionally with a fault) that calls `onRequest` with its request count. */
function seededService(options: { dropDescription?: boolean; onRequest?: (count: number) => void } = {}): { service: ReferenceService; store: WidgetStore } {
  const store = new WidgetStore();
  seed(store);
  let count = 0;
  const service = new (class extends ReferenceService {
    override async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      options.onRequest?.((count += 1));
      return super.handle(req, res);
    }
    protected override async create(account: string, req: IncomingMessage): Promise<Reply> {
      const reply = await super.create(account, req);
      if (!options.dropDescription) return reply;
      const { description: _dropped, ...rest } = reply.body as WidgetJson;
      return { ...reply, body: rest };
    }
  })({ store });
  return { service, store };
}

/** A reference service over `store` whose every answered request is logged as "METHOD path status", in the order answered. */
function logged(store: WidgetStore): { handler: { handle(req: IncomingMessage, res: ServerResponse): Promise<void> }; log: string[] } {
  const service = new ReferenceService({ store });
  const log: string[] = [];
  return { log, handler: { async handle(req, res) { await service.handle(req, res); log.push(`${req.method} ${req.url} ${res.statusCode}`); } } };
}

/** The paths DELETEd more than once, from a request log. */
function deletedTwice(log: readonly string[]): string[] {
  const paths = log.filter((l) => l.startsWith('DELETE ')).map((l) => l.split(' ')[1]!);
  return [...new Set(paths.filter((p, i) => paths.indexOf(p) !== i))];
}

describe.concurrent('data safety', () => {
  test('DEL-3 deletes an id a second time only in an account that held nothing before the run, right after a retrieve in a quiet window found it gone', async () => {
    const { handler, log } = logged(new WidgetStore());
    const run = await runAgainst({ handler, tokens: TOKENS }, ['--only', 'DEL-3']);
    expect(run.exitCode, explain(run)).toBe(0);
    const twice = deletedTwice(log);
    expect(twice, 'one id deleted twice: the profile\'s second delete of the same id').toHaveLength(1);
    const path = twice[0]!;
    // Up to the second DELETE (the final cleanup may retrieve the id after it, to prove it gone).
    const atPath = log.filter((l) => l.split(' ')[1] === path);
    const lastDelete = atPath.map((l) => l.startsWith('DELETE ')).lastIndexOf(true);
    expect(atPath.slice(0, lastDelete + 1).slice(-3)).toEqual([`DELETE ${path} 204`, `GET ${path} 404`, `DELETE ${path} 404`]);
    const entry = run.report?.profile?.entries.find((e) => e.key === 'status.delete.after-delete');
    expect(entry).toMatchObject({ observed: true, value: '404' });
  });

  test('DEL-3 never deletes an id a second time in an account that held widgets before the run: the profile says why, and the user\'s widgets are untouched', async () => {
    const store = new WidgetStore();
    seed(store);
    const before = contents(store);
    const { handler, log } = logged(store);
    const run = await runAgainst({ handler, tokens: TOKENS }, ['--only', 'DEL-3']);
    expect(run.exitCode, explain(run)).toBe(0);
    expect(deletedTwice(log)).toEqual([]);
    const entry = run.report?.profile?.entries.find((e) => e.key === 'status.delete.after-delete');
    expect(entry).toMatchObject({ observed: false, value: 'not observed', note: expect.stringMatching(/^not sent: the account held widgets before the run/) });
    expect(readFileSync(join(run.reportDir, 'conformance.md'), 'utf8')).toMatch(/second delete of the same id \| _not observed_ \(not sent\\: the account held widgets before the run/);
    expect(contents(store)).toEqual(before);
  });

  test('a conformant run leaves every pre-existing widget unchanged and nothing of its own', async () => {
    const { service, store } = seededService();
    const before = contents(store);
    const run = await runAgainst(serve(service));
    expect(run.exitCode, explain(run)).toBe(0);
    expect(contents(store)).toEqual(before);
  });

  test('a run whose tests fail still leaves every pre-existing widget unchanged and nothing of its own', async () => {
    const { service, store } = seededService({ dropDescription: true });
    const before = contents(store);
    const run = await runAgainst(serve(service), ['--only', ALL_BUT_PROPERTIES]);
    expect(run.exitCode, explain(run)).toBe(1);
    expect(contents(store)).toEqual(before);
  });

  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    test(`a run interrupted by ${signal} midway deletes what it created, then exits ${code}`, async () => {
      let interrupt!: () => void;
      const midway = new Promise<void>((resolve) => (interrupt = resolve));
      // Far enough in that every suite file has created widgets, well before the end.
      const { service, store } = seededService({ onRequest: (n) => n === 150 && interrupt() });
      const before = contents(store);
      const run = await runAgainst(serve(service), [], { interrupt: { signal, when: midway } });
      expect(run.exitCode, explain(run)).toBe(code);
      expect(run.stderr).toContain(`${signal} received`);
      expect(contents(store)).toEqual(before);
    });
  }

  test('CRUD-1 after a run killed with SIGKILL, npm run cleanup deletes what its journal holds and nothing else', async () => {
    let kill!: () => void;
    const midway = new Promise<void>((resolve) => (kill = resolve));
    const { service, store } = seededService({ onRequest: (n) => n === 150 && kill() });
    const before = contents(store);
    const running = await startServer(service);
    try {
      const run = await runSuite(['--base-url', running.baseUrl, '--token', TOKENS[0], '--second-token', TOKENS[1]], { interrupt: { signal: 'SIGKILL', when: midway } });
      expect(contents(store), 'the killed run left widgets').not.toEqual(before);
      const journals = readdirSync(run.reportDir).filter((f) => f.startsWith('widget-journal-'));
      expect(journals, 'the journal survives SIGKILL').toHaveLength(1);
      // A user's widget carrying a marker of another run: no journal names it, so it stays.
      const users = store.create('alice', { name: `${newMarker()} CRUD-1 7` });
      // The same server under another base path is another target: refused in one line, nothing sent.
      const beforeElsewhere = contents(store);
      const elsewhere = await runSuite(['--base-url', `${running.baseUrl}/other`, '--token', TOKENS[0], '--second-token', TOKENS[1], '--report-dir', run.reportDir], { bin: 'bin/widget-cleanup.mjs' });
      expect(elsewhere.exitCode, explain(elsewhere)).toBe(2);
      expect(elsewhere.stdout).toMatch(/^\S+widget-journal-\S+\.jsonl: the journal's run was against http:\/\/127\.0\.0\.1:\d+\/v1, not http:\/\/127\.0\.0\.1:\d+\/v1\/other \(--base-url\): nothing deleted\n$/);
      expect(contents(store), 'nothing changed by a refused cleanup').toEqual(beforeElsewhere);
      const cleanup = await runSuite(['--base-url', running.baseUrl, '--token', TOKENS[0], '--second-token', TOKENS[1], '--report-dir', run.reportDir], { bin: 'bin/widget-cleanup.mjs' });
      const after = contents(store);
      for (const [account, widgets] of Object.entries(before)) expect(after[account]?.slice(0, widgets.length), `${account}'s pre-existing widgets`).toEqual(widgets);
      expect(after.alice, 'the other run\'s widget').toContainEqual(users);
      const left = Object.values(after).flat().length - Object.values(before).flat().length - 1;
      // The kill may cut a create's answer: its widget cannot be found safely, and cleanup says so.
      const lost = Number(/(\d+) create\(s\) lost their answer/.exec(cleanup.stdout)?.[1] ?? 0);
      if (lost === 0) {
        expect(cleanup.exitCode, explain(cleanup)).toBe(0);
        expect(cleanup.stdout).toContain('every journalled widget of that run is proven gone: journal removed');
      } else expect(cleanup.exitCode, explain(cleanup)).toBe(3);
      expect(left, explain(cleanup)).toBeLessThanOrEqual(lost);
    } finally {
      await running.close();
    }
  });

  test('CRUD-1 npm run cleanup without a journal deletes nothing and says so in one line', async () => {
    const { service, store } = seededService();
    store.create('alice', { name: `${newMarker()} CRUD-1 7` });
    const before = contents(store);
    const running = await startServer(service);
    try {
      const run = await runSuite(['--base-url', running.baseUrl, '--token', TOKENS[0], '--report-dir', mkdtempSync(join(tmpdir(), 'no-journal-'))], { bin: 'bin/widget-cleanup.mjs' });
      expect(run.exitCode, explain(run)).toBe(0);
      expect(run.stdout).toMatch(/^no run journal .*nothing to delete.*--sweep-markers \(less safe: see docs\/data-safety.md\)\n$/);
      expect(contents(store)).toEqual(before);
    } finally {
      await running.close();
    }
  });

  test('CRUD-1 npm run cleanup refuses a FIFO in a journal\'s place at once: one line, exit 2, no hang', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fifo-journal-'));
    const fifo = join(dir, 'widget-journal-wcs-aaaaaaaaaaaaaa.jsonl');
    execFileSync('mkfifo', [fifo]);
    // Nothing listens at this base URL: the refusal must come before any request (and before any open of the FIFO, which would block).
    const run = await runSuite(['--base-url', 'http://127.0.0.1:9/v1', '--token', TOKENS[0], '--report-dir', dir], { bin: 'bin/widget-cleanup.mjs' });
    expect(run.exitCode, explain(run)).toBe(2);
    expect(run.stderr).toBe(`widget-cleanup: ${fifo} is a FIFO, not a regular file: not read (a journal is a regular file a run wrote)\n`);
  });

  test('CRUD-1 npm run cleanup --sweep-markers deletes the widgets carrying a run marker and nothing else', async () => {
    const { service, store } = seededService();
    const before = contents(store);
    // What a killed run leaves: marked widgets, in both accounts, in either field.
    const [one, two] = [newMarker(), newMarker()];
    store.create('alice', { name: `${one} CRUD-1 7` });
    store.create('alice', { name: 'generated ✓', description: `${two} PROP-1 3` });
    store.create('bob', { name: `${one} ISO-1 9`, description: 'bob account' });
    const running = await startServer(service);
    try {
      const run = await runSuite(['--base-url', running.baseUrl, '--token', TOKENS[0], '--second-token', TOKENS[1], '--sweep-markers', '--report-dir', mkdtempSync(join(tmpdir(), 'no-journal-'))], { bin: 'bin/widget-cleanup.mjs' });
      expect(run.exitCode, explain(run)).toBe(0);
      expect(run.stdout).toContain('primary account: deleted 2 widget(s)');
      expect(run.stdout).toContain('second account: deleted 1 widget(s)');
      expect(contents(store)).toEqual(before);
    } finally {
      await running.close();
    }
  });
});

/** A line of a JavaScript stack trace. */
const STACK_LINE = /^\s+at .+(:\d+:\d+\)?|\(native\))$/m;

describe.concurrent('servers that invite the suite to delete what it did not create', () => {
  for (const unsafe of UNSAFE) {
    test(`"${unsafe.name}" (${unsafe.description}): every pre-existing widget survives, and what is left is reported by id`, async () => {
      const store = unsafe.store?.() ?? new WidgetStore();
      seed(store);
      unsafe.prepare?.(store);
      const before = contents(store);
      const seeded = new Set(Object.values(before).flat().map((w) => w.id));
      const run = await runAgainst(serve(unsafe.make(store)), ['--runs', '10', ...(unsafe.args ?? [])]);
      const after = contents(store);
      expect(unsafe.exitCodes, explain(run)).toContain(run.exitCode);
      expect(`${run.stdout}${run.stderr}`.match(STACK_LINE)?.[0], 'no stack trace').toBeUndefined();
      // A delete the ledger refused is never a suite error: the check is inconclusive under the rule the server broke.
      const refusedDeletes = (run.report?.rules ?? []).flatMap((r) => r.tests.filter((t) => t.outcome === 'error' && (t.errors ?? []).some((e) => /DELETE \/widgets\/".*" not sent \((primary|second) account\)/.test(e))).map((t) => `${r.id}: ${t.errors?.join(' ')}`));
      expect(refusedDeletes, 'suite errors from refused deletes').toEqual([]);
      // The user's widgets, exactly as they were.
      for (const [account, widgets] of Object.entries(before)) {
        expect(after[account]?.filter((w) => seeded.has(w.id)), `${account}'s pre-existing widgets`).toEqual(widgets);
      }
      if (unsafe.cleansUp) expect(after, 'nothing of the run is left').toEqual(before);
      const reported = (run.report?.cleanup.leftovers ?? []).map((l) => l.id);
      const must = unsafe.mustReport?.(store, seeded) ?? [];
      expect(reported, explain(run)).toEqual(expect.arrayContaining(must));
      // Every widget of the run's still there is named by id (a leftover, or a marked id no create
      // answered), unless the cleanup says creates lost their answer (those ids were never known).
      const cleanupText = JSON.stringify(run.report?.cleanup ?? {});
      const left = Object.values(after).flat().map((w) => w.id).filter((id) => !seeded.has(id));
      if (!/lost their answer/.test(cleanupText)) for (const id of left) expect(cleanupText, `${id} is left and reported`).toContain(id);
      if (reported.length > 0 || run.report?.cleanup.problems.length) {
        expect(run.report?.cleanup.verified).toBe(false);
        expect(run.stdout).toContain('NOT VERIFIED');
        const markdown = readFileSync(join(run.reportDir, 'conformance.md'), 'utf8');
        // The console draws the leftovers with leftoverLines (many alike in one account: one line naming the first
        // GROUP_IDS_SHOWN and how many more); conformance.md names every id.
        for (const line of leftoverLines(run.report?.cleanup.leftovers ?? [])) expect(run.stdout, 'the console lists the leftovers').toContain(line);
        for (const id of must) expect(markdown, 'conformance.md names each id').toContain(`\`${id}\``);
      }
    });
  }
});

/** fast-check's seed for the generated servers run through the whole CLI (WIDGET_ADVERSARY_SEED replays another). */
const CLI_SEED = Number(process.env.WIDGET_ADVERSARY_SEED ?? 20261125);
/** Whole-CLI runs against generated adversaries here; the in-process property runs 100+ (test/unit/client/adversary.test.ts). */
const CLI_ADVERSARIES = Number(process.env.WIDGET_CLI_ADVERSARIES ?? 3);

describe.concurrent('generated adversaries, through the whole CLI', () => {
  for (const [i, schedule] of fc.sample(schedules, { seed: CLI_SEED, numRuns: CLI_ADVERSARIES }).entries()) {
    test(`CRUD-3 generated server ${i + 1} of seed ${CLI_SEED}: every pre-existing widget survives --only CRUD, and what is left is reported`, async () => {
      const adversary = new Adversary(schedule);
      const run = await runAgainst({ handler: adversary, tokens: Object.keys(ADVERSARY_TOKENS) as [string, string] }, ['--only', 'CRUD']);
      expect(`${run.stdout}${run.stderr}`.match(STACK_LINE)?.[0], 'no stack trace').toBeUndefined();
      expect(adversary.damaged(), `${JSON.stringify(schedule)}\n${explain(run)}`).toEqual([]);
      const cleanup = JSON.stringify(run.report?.cleanup ?? {});
      const left = adversary.remaining();
      if (run.report?.cleanup.verified) expect(left, explain(run)).toEqual([]);
      const invisible = schedule.list.includes('hide-marked') && schedule.retrieve.includes('not-found');
      if (!invisible && !/lost their answer|an id an earlier create of this run had/.test(cleanup)) {
        for (const { id } of left) expect(cleanup, `${id} is left and reported; ${JSON.stringify(schedule)}`).toContain(id);
      }
    });
  }
});
