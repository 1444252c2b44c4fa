/**
 * The run's cleanup sentences about the server, each built from the recorded fact it states,
 * self-tested both ways: a server that produces the fact, and one that produces a look-alike
 * without it (a stale cache beside ids really given twice; a proxy's 404 for listed widgets
 * beside a marked widget no create answered). Also: "nothing left behind" only when every
 * journalled widget is proven gone.
 */
import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WidgetApi } from '../../../../src/client/api.ts';
import { openAccounts } from '../../../../src/client/accounts.ts';
import { Journal, parseJournalText, readJournal } from '../../../../src/client/ledger.ts';
import { Ownership } from '../../../../src/client/ownership.ts';
import { deleteAllHeld, takeInventory } from '../../../../src/client/sweep.ts';
import { LINE_MAX } from '../../../../src/report/console-report.ts';
import { describeCleanup, finalCleanup, GROUP_IDS_SHOWN, leftoverLines, type CleanupOutcome } from '../../../../src/cli/run/final-cleanup.ts';
import { carriesMarker, newMarker } from '../../../../src/harness/marker.ts';
import { HttpClient } from '../../../../src/http/client.ts';
import { StoreServer } from '../cleanup/store-server.ts';

const TOKENS = ['sentence-token-alice', 'sentence-token-bob'] as const;
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

function apis(baseUrl: string, ownership: Ownership): WidgetApi[] {
  const http = new HttpClient({ baseUrl, timeoutMs: 5_000, concurrency: 4, maxRetries: 0, maxRetryWaitMs: 0, secrets: [...TOKENS] });
  open.push(http);
  return openAccounts(http, ownership, [{ name: 'primary', token: TOKENS[0] }, { name: 'second', token: TOKENS[1] }]);
}

/**
 * A run in small: the runner's inventory, a worker's creates (3 in the primary account) and its
 * per-file cleanup, `between` (what the deployment does meanwhile), then the final cleanup from the journal.
 */
async function run(store: StoreServer, between: (marker: string, made: string[]) => void = () => {}, tear = false): Promise<{ outcome: CleanupOutcome; line: string; made: string[] }> {
  const server = await store.start();
  open.push(server);
  const file = join(mkdtempSync(join(tmpdir(), 'sentences-')), 'widget-journal.jsonl');
  const marker = newMarker();
  const isOurs = (w: unknown): boolean => carriesMarker(w, marker);
  new Journal(file).append({ kind: 'run', marker, at: new Date().toISOString() });
  for (const api of apis(server.baseUrl, new Ownership(isOurs, new Journal(file)))) await takeInventory(api, 20);
  const worker = new Ownership(isOurs, new Journal(file));
  worker.loadEntries(readJournal(file));
  const [primary] = apis(server.baseUrl, worker);
  const made: string[] = [];
  for (let i = 0; i < 3; i += 1) made.push(((await primary!.create({ name: `${marker} CRUD-1 ${i}` })).json as { id: string }).id);
  between(marker, made);
  await deleteAllHeld([primary!]);
  if (tear) appendFileSync(file, '{"kind":"created","account":"primary","key":"k","id":"w9');
  const { entries, torn } = parseJournalText(readFileSync(file, 'utf8'));
  const outcome = await finalCleanup(apis(server.baseUrl, new Ownership(isOurs, new Journal(file))), worker.outstanding(), { maxPages: 20, minSweeps: 1, journal: entries, torn });
  return { outcome, line: describeCleanup(outcome), made };
}

const tokens = { [TOKENS[0]]: 'primary', [TOKENS[1]]: 'second' } as const;
const REPEATED = /create\(s\) were answered with an id an earlier create of this run had/;
const UNRETRIEVABLE = /journalled widget\(s\) could not be retrieved with the primary account's token \(404\) though listed with the run marker/;
const UNJOURNALLED = /widget\(s\) listed with the run marker at ids no create of this run was answered with/;

describe('the cleanup sentences, each from the fact it states', () => {
  it('CRUD-3 creates really answered with an id an earlier create had: the sentence, with the count of such answers', async () => {
    const { line } = await run(new StoreServer(tokens, undefined, { repeatIds: true }));
    expect(line).toMatch(/NOT VERIFIED/);
    expect(line).toMatch(/1 create\(s\) were answered with an id an earlier create of this run had/);
  });

  it('CRUD-3 behind a cache that serves a stale GET after each delete: no create repeated an id, so no such sentence, and all is proven gone', async () => {
    const store = new StoreServer(tokens, undefined, { staleAfterDelete: true });
    const { line, outcome } = await run(store);
    expect(line).not.toMatch(REPEATED);
    expect(outcome.verified, line).toBe(true);
    expect(line).toMatch(/^nothing left behind/);
    expect(store.widgets.get('primary')!.size).toBe(0);
  });

  it('CRUD-4 behind a proxy that 404s a retrieve of a listed, journalled widget: says exactly that, never "no create answered"', async () => {
    const store = new StoreServer(tokens);
    const { line, outcome, made } = await run(store, (_, ids) => void (store.faults.proxy404 = new Set([ids[1]!])));
    expect(outcome.verified).toBe(false);
    expect(line).toMatch(UNRETRIEVABLE);
    expect(line).toContain(`ids ${JSON.stringify(made[1])}`);
    expect(line).not.toMatch(UNJOURNALLED);
    expect(line).not.toMatch(/^nothing left behind/);
  });

  it('CRUD-4 a widget listed with the run marker that no create answered (someone else\'s): says that, never "could not be retrieved"', async () => {
    const store = new StoreServer(tokens);
    const { line } = await run(store, (marker) => store.put('primary', { id: 'someone-else', name: `copied ${marker}` }));
    expect(line).toMatch(/1 widget\(s\) listed with the run marker at ids no create of this run was answered with .*ids "someone-else"/);
    expect(line).not.toMatch(UNRETRIEVABLE);
    expect(store.widgets.get('primary')!.has('someone-else')).toBe(true);
  });

  it('CRUD-3 a create answered with an id where the server then shows a widget without the marker: the id is named, never "nothing left behind", and the widget there is left alone', async () => {
    const store = new StoreServer(tokens);
    // After the creates, the widget at the first id is someone else's, and the run's stands where the run never looked.
    const { line, outcome, made } = await run(store, (marker, ids) => {
      store.put('primary', { id: ids[0]!, name: 'the user\'s own' });
      store.put('primary', { id: 'w-unlearned', name: `${marker} CRUD-1 0` });
    });
    expect(outcome.verified).toBe(false);
    expect(line).toMatch(new RegExp(`1 create\\(s\\) were answered with the run's widget at an id where the server later showed the same account a widget without the run marker \\(ids ${JSON.stringify(made[0])}\\): not deleted, and the widget each create made may stand at an id the run never learned`));
    expect(store.widgets.get('primary')!.get(made[0]!)?.name).toBe('the user\'s own');
  });

  it('CRUD-1 a torn line of the run\'s journal is named, and nothing is called verified', async () => {
    const clean = await run(new StoreServer(tokens));
    expect(clean.outcome.verified).toBe(true);
    const torn = await run(new StoreServer(tokens), undefined, true);
    expect(torn.outcome.verified).toBe(false);
    expect(torn.line).toMatch(/line \d+ of the run's journal could not be read \(not JSON, and the file does not end with a newline \(a write cut short\)\): an id of the run may be in it/);
  });

  it('CRUD-1 "nothing left behind" is never said from a list without the marker: a widget whose retrieves answer 500 is listed as not proven gone', async () => {
    const store = new StoreServer(tokens);
    const { line, outcome, made } = await run(store, (_, ids) => void (store.faults.retrieve500 = new Set([ids[0]!])));
    expect(outcome.verified).toBe(false);
    expect(line).toContain(`primary account, id ${JSON.stringify(made[0])}:`);
    expect(line).not.toMatch(/^nothing left behind/);
  });

  it('CRUD-5 a server that answers 204 with no body at a deleted id: not proven gone, and never said to show a widget without the run marker (it showed none)', async () => {
    const store = new StoreServer(tokens, undefined, { unknown204: true });
    const { line, outcome, made } = await run(store);
    expect(outcome.verified).toBe(false);
    expect(store.widgets.get('primary')!.size).toBe(0);
    expect(line).toContain(JSON.stringify(made[0]));
    expect(line).not.toMatch(/without the run marker/);
  });
});

describe('the console names the ids left without running away', () => {
  const left = (n: number, reason: string, account = 'primary') => Array.from({ length: n }, (_, i) => ({ account, id: `w${i}`, reason }));

  it('a few ids: one line each, every id named', () => {
    expect(leftoverLines(left(3, 'a delete answered 2xx, but no retrieve since answered 404 or 410: not proven gone'))).toEqual([0, 1, 2].map((i) => `    primary account, id "w${i}": a delete answered 2xx, but no retrieve since answered 404 or 410: not proven gone`));
  });

  it('hundreds of ids with one reason in one account: the reason once, the first ids named within the line bound, how many more and where every one is', () => {
    const id = (i: number) => `wgt_${String(i).padStart(20, '0')}`;
    const many = (n: number, reason: string, account = 'primary') => Array.from({ length: n }, (_, i) => ({ account, id: id(i), reason }));
    const lines = leftoverLines([...many(500, 'deleted, yet a retrieve answers 204: not proven gone'), ...many(40, 'deleted, yet a retrieve answers 204: not proven gone', 'second'), ...left(2, 'not deleted: no delete was attempted before the run ended')]);
    const groups = lines.join('\n').split(/\n(?=    \S)/);
    expect(groups).toHaveLength(4);
    expect(groups[0]).toMatch(/^ {4}500 ids of the primary account: deleted, yet a retrieve answers 204: not proven gone:\n {6}"wgt_0+",/);
    expect(groups[0]!.match(/"wgt_\d+"/g)).toEqual(Array.from({ length: GROUP_IDS_SHOWN }, (_, i) => JSON.stringify(id(i))));
    expect(groups[0]).toMatch(/and 490 more \(every id in conformance\.md, conformance\.json and the run's journal\)$/);
    expect(groups[1]).toMatch(/^ {4}40 ids of the second account: /);
    expect(groups.slice(2)).toEqual(['    primary account, id "w0": not deleted: no delete was attempted before the run ended', '    primary account, id "w1": not deleted: no delete was attempted before the run ended']);
    // The console's line bound holds on every line (console.test.ts checks it on a whole run).
    expect(lines.filter((l) => l.length > LINE_MAX)).toEqual([]);
  });

  it('a group of exactly GROUP_IDS_SHOWN ids names them all and no "more"', () => {
    const lines = leftoverLines(left(GROUP_IDS_SHOWN, 'deleted, yet a retrieve answers 204: not proven gone'));
    expect(lines.join(' ').match(/"w\d+"/g)).toHaveLength(GROUP_IDS_SHOWN);
    expect(lines.join(' ')).not.toContain('more');
  });

  it('the cleanup account of 540 ids left for one reason is a handful of lines', () => {
    const outcome: CleanupOutcome = { deleted: 0, leftovers: left(540, 'deleted, yet a retrieve answers 204: not proven gone'), problems: [], verified: false };
    expect(describeCleanup(outcome).split('\n').length).toBeLessThanOrEqual(6);
  });
});
