/**
 * The one delete rule (src/client/ledger.ts deleteVerdict), over every combination of the facts
 * it looks at, and the journal: what a run appends is what `cleanup` and the final cleanup
 * replay, a torn or foreign line is skipped, and a create with no outcome counts as lost.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { deleteVerdict, Journal, journalFacts, parseJournal, parseJournalText, readJournal, targetOf, type DeleteFacts, type RetrieveShows } from '../../../src/client/ledger.ts';
import { Redactor } from '../../../src/shared/redact.ts';
import { Ownership } from '../../../src/client/ownership.ts';

const RETRIEVES: readonly RetrieveShows[] = ['marked', 'unmarked', 'absent', 'unknown'];
const BOOLS = [false, true] as const;

/** Every combination of the facts, in journal mode and in --sweep-markers mode. */
function everyCombination(): DeleteFacts[] {
  const all: DeleteFacts[] = [];
  for (const journalled of BOOLS)
    for (const preExisting of BOOLS)
      for (const contradiction of [undefined, 'listed twice'])
        for (const retrieve of RETRIEVES)
          for (const absentHereProvenElsewhere of BOOLS)
            for (const collided of BOOLS)
              for (const sweep of [undefined, { listedOnlyMarked: false }, { listedOnlyMarked: true }]) {
                all.push({ journalled, preExisting, contradiction, retrieve, absentHereProvenElsewhere, ...(collided ? { collided } : {}), ...(sweep ? { sweep } : {}) });
              }
  return all;
}

/** The rule, written out independently: what the invariant says, case by case. */
function expected(f: DeleteFacts): boolean {
  // An id two live widgets of the run were given (CRUD-3) names neither for sure.
  if (f.preExisting || f.contradiction !== undefined || f.collided === true) return false;
  if (f.retrieve === 'absent') return f.absentHereProvenElsewhere;
  if (f.retrieve === 'marked' && !f.journalled && f.absentHereProvenElsewhere) return true;
  const owned = f.sweep ? f.sweep.listedOnlyMarked : f.journalled;
  return owned && f.retrieve === 'marked';
}

/** Every combination of the second-delete facts (WidgetApi.removeAgain), over every combination above. */
function everySecondDelete(): DeleteFacts[] {
  const all: DeleteFacts[] = [];
  for (const base of everyCombination())
    for (const deletedOnce of BOOLS)
      for (const heldNothingBefore of BOOLS)
        for (const idsUnreliable of BOOLS)
          for (const quiet of BOOLS) all.push({ ...base, again: { deletedOnce, heldNothingBefore, idsUnreliable, quiet } });
  return all;
}

/**
 * The second delete of the same id, written out independently: the one case in which an id that
 * shows nothing is deleted. Every fact must hold; anything else, whatever the other facts say, is
 * not sent (the exception never widens the rule for a first delete).
 */
function expectedAgain(f: DeleteFacts): boolean {
  const a = f.again!;
  return !f.preExisting && f.contradiction === undefined && f.collided !== true && f.sweep === undefined && f.journalled && a.deletedOnce && a.heldNothingBefore && !a.idsUnreliable && a.quiet && f.retrieve === 'absent';
}

describe('the delete rule', () => {
  const cases = everyCombination();
  const again = everySecondDelete();

  it(`DEL-3 a second delete of the same id: all ${again.length} combinations decided as the exception says, sent only when every fact holds`, () => {
    expect(again).toHaveLength(cases.length * 16);
    for (const f of again) expect(deleteVerdict(f).send, JSON.stringify(f)).toBe(expectedAgain(f));
    // Never into an account that held widgets, never while writes may be in flight, never after a retrieve that did not find the id absent.
    for (const f of again.filter((c) => deleteVerdict(c).send)) expect([f.again!.heldNothingBefore, f.again!.quiet, f.retrieve]).toEqual([true, true, 'absent']);
  });

  it('DEL-3 a second delete not sent says which fact is missing', () => {
    const base: DeleteFacts = { journalled: true, preExisting: false, contradiction: undefined, retrieve: 'absent', absentHereProvenElsewhere: false, again: { deletedOnce: true, heldNothingBefore: true, idsUnreliable: false, quiet: true } };
    expect(deleteVerdict(base).send).toBe(true);
    const reason = (f: DeleteFacts): string => { const v = deleteVerdict(f); return v.send ? 'sent' : v.reason; };
    expect(reason({ ...base, again: { ...base.again!, heldNothingBefore: false } })).toMatch(/held widgets before the run/);
    expect(reason({ ...base, again: { ...base.again!, idsUnreliable: true } })).toMatch(/gave an id twice or contradicted itself/);
    expect(reason({ ...base, again: { ...base.again!, quiet: false } })).toMatch(/writes of the suite may be in flight/);
    expect(reason({ ...base, again: { ...base.again!, deletedOnce: false } })).toMatch(/no delete of this run removed/);
    expect(reason({ ...base, retrieve: 'unknown' })).toMatch(/did not answer 404 or 410/);
    expect(reason({ ...base, preExisting: true })).toMatch(/before the run's first create: never deleted/);
  });

  it(`CRUD-3 the rule decides all ${cases.length} combinations of the facts as the invariant says`, () => {
    expect(cases).toHaveLength(2 * 2 * 2 * 4 * 2 * 2 * 3);
    for (const f of cases) expect(deleteVerdict(f).send, JSON.stringify(f)).toBe(expected(f));
  });

  it('CRUD-3 an id in the inventory is never deleted, whatever else holds', () => {
    for (const f of cases.filter((c) => c.preExisting)) expect(deleteVerdict(f).send).toBe(false);
  });

  it('CRUD-4 a contradicted id is never deleted, whatever else holds', () => {
    for (const f of cases.filter((c) => c.contradiction !== undefined)) expect(deleteVerdict(f).send).toBe(false);
  });

  it('CRUD-3 an id two live widgets of the run were given is never deleted, whatever else holds', () => {
    for (const f of cases.filter((c) => c.collided === true)) expect(deleteVerdict(f).send).toBe(false);
  });

  it('CRUD-4 a delete of a widget that shows itself is sent only after a retrieve shows the marker', () => {
    for (const f of cases.filter((c) => c.retrieve !== 'absent' && deleteVerdict(c).send)) expect(f.retrieve).toBe('marked');
  });

  it('CRUD-3 a create answered with the id of a pre-existing widget names CRUD-3 as the rule broken', () => {
    const verdict = deleteVerdict({ journalled: true, preExisting: true, contradiction: undefined, retrieve: 'marked', absentHereProvenElsewhere: false });
    expect(verdict).toMatchObject({ send: false, broken: 'CRUD-3' });
  });

  it('CRUD-4 a retrieve without the marker at a journalled id names CRUD-4', () => {
    const verdict = deleteVerdict({ journalled: true, preExisting: false, contradiction: undefined, retrieve: 'unmarked', absentHereProvenElsewhere: false });
    expect(verdict).toMatchObject({ send: false, broken: 'CRUD-4' });
  });

  it('CRUD-1 a retrieve without the marker at an id whose create answered without it too names CRUD-1: the name sent never came back', () => {
    const verdict = deleteVerdict({ journalled: true, preExisting: false, contradiction: undefined, retrieve: 'unmarked', createdUnmarked: true, absentHereProvenElsewhere: false });
    expect(verdict).toMatchObject({ send: false, broken: 'CRUD-1' });
  });

  it('CRUD-1 a marker seen only in a list, with no create answering the id, is not proof', () => {
    const verdict = deleteVerdict({ journalled: false, preExisting: false, contradiction: undefined, retrieve: 'marked', absentHereProvenElsewhere: false });
    expect(verdict.send).toBe(false);
  });
});

describe('the journal', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-test-'));

  it('CRUD-1 what a ledger appends is replayed: inventory, live ids, deletes, contradictions and lost creates', () => {
    const file = join(dir, 'one.jsonl');
    const journal = new Journal(file);
    journal.append({ kind: 'run', marker: 'wcs-x', at: '2026-01-01T00:00:00Z' });
    const ledger = new Ownership(() => true, journal);
    ledger.setInventory('primary', ['u1', 'u2'], true);
    const a = ledger.sent('primary', 'wcs-x CRUD-1 1');
    ledger.claim('primary', 'w1', a);
    const b = ledger.sent('primary', 'wcs-x CRUD-1 2');
    ledger.claim('primary', 'w2', b);
    ledger.deleted('primary', 'w2');
    const c = ledger.sent('second', 'wcs-x ISO-1 1');
    ledger.refused('second', c, 401);
    ledger.sent('primary', 'wcs-x CRUD-1 3');
    ledger.contradict('primary', 'w1', 'listed twice');

    const facts = journalFacts(readJournal(file));
    expect(facts.markers).toEqual(['wcs-x']);
    expect([...(facts.inventory.get('primary') ?? [])]).toEqual(['u1', 'u2']);
    expect([...(facts.live.get('primary') ?? [])]).toEqual(['w1']);
    expect(facts.contradictions.get('primary')?.get('w1')).toBe('listed twice');
    expect(facts.lost).toEqual([{ account: 'primary', tag: 'wcs-x CRUD-1 3' }]);

    const replayed = new Ownership(() => true);
    replayed.load(facts);
    expect(replayed.outstanding().map((o) => o.id)).toEqual(['w1']);
    expect(replayed.preExisting('primary', 'u1')).toBe(true);
    expect(replayed.contradiction('primary', 'w1')).toBe('listed twice');
    expect(replayed.lostCreates()).toHaveLength(1);
  });

  it('CRUD-1 a line torn by a kill, or one that is not an entry, is skipped', () => {
    const text = `${JSON.stringify({ kind: 'run', marker: 'wcs-y', at: 'now' })}\n{"kind":"created","account":"primary","key":"k","id":"w\n{"kind":"created","account":1}\nnot json\n`;
    expect(parseJournal(text)).toEqual([{ kind: 'run', marker: 'wcs-y', at: 'now' }]);
  });

  it('CRUD-1 a credential in an id never reaches the file as text, and the id comes back exactly', () => {
    const file = join(dir, 'redacted.jsonl');
    new Journal(file, (t) => t.replaceAll('s3cret', '[REDACTED]')).append({ kind: 'created', account: 'primary', key: 'k', id: 'id-s3cret' });
    expect(readFileSync(file, 'utf8')).not.toContain('s3cret');
    expect(readJournal(file)).toEqual([{ kind: 'created', account: 'primary', key: 'k', id: 'id-s3cret' }]);
  });

  it('CRUD-1 any id (tokens in any spelling, lone surrogates, controls) round-trips exactly, and no spelling of a token is in the file', () => {
    const tokens = ['k7', 'Zq9x', 'a-long-token-of-the-run'];
    const redactor = new Redactor(tokens);
    const piece = fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom(...tokens, 'K7', '%6B7', '\\u006b7', 'ZQ9X', 'YS1sb25nLXRva2Vu', 'k%37', '&#107;7'));
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 4 }).map((p) => p.join('')), fc.array(fc.string(), { maxLength: 3 }), (id, inventory) => {
        const file = join(dir, `exact-${Math.random().toString(36).slice(2)}.jsonl`);
        const journal = new Journal(file, (t) => redactor.text(t));
        journal.append({ kind: 'created', account: 'second', key: 'k1', id });
        journal.append({ kind: 'inventory', account: 'primary', ids: [id, ...inventory], complete: true });
        journal.append({ kind: 'gone', account: 'second', id });
        const text = readFileSync(file, 'utf8');
        expect(redactor.text(text)).toBe(text);
        const { entries, torn } = parseJournalText(text);
        expect(torn).toEqual([]);
        expect(entries[0]).toEqual({ kind: 'created', account: 'second', key: 'k1', id });
        expect(new Set((entries[1] as unknown as { ids: string[] }).ids)).toEqual(new Set([id, ...inventory]));
        expect(entries[2]).toEqual({ kind: 'gone', account: 'second', id });
      }),
      { numRuns: 300 },
    );
  });

  it('CRUD-3 a delete answered 2xx whose widget a retrieve still shows is journalled as undeleted, never as a create repeating an id', () => {
    const file = join(dir, 'undeleted.jsonl');
    const ledger = new Ownership(() => true, new Journal(file));
    ledger.claim('primary', 'w1', ledger.sent('primary', 'ours'));
    ledger.deleted('primary', 'w1');
    ledger.undeleted('primary', 'w1');
    const facts = journalFacts(readJournal(file));
    expect(facts.reused).toEqual([]);
    expect(facts.live.get('primary')).toEqual(new Set(['w1']));
    // A create that really answered the id again is one.
    ledger.claim('primary', 'w1', ledger.sent('primary', 'ours'));
    expect(journalFacts(readJournal(file)).reused).toHaveLength(1);
    // Journals of older versions wrote it as a 'created' entry keyed undeleted-<id>: still not a repeat.
    const old = [{ kind: 'created', account: 'primary', key: 'k', id: 'w2' }, { kind: 'deleted', account: 'primary', id: 'w2' }, { kind: 'created', account: 'primary', key: 'undeleted-w2', id: 'w2' }].map((e) => JSON.stringify(e)).join('\n');
    expect(journalFacts(parseJournal(old)).reused).toEqual([]);
  });

  it('CRUD-3 an id two creates were answered with while the first widget was not deleted is collided after a replay too: never deleted, the reason names CRUD-3', () => {
    const file = join(dir, 'collided.jsonl');
    const ledger = new Ownership(() => true, new Journal(file));
    ledger.claim('primary', 'w1', ledger.sent('primary', 'ours'), { name: 'first', created_at: '2026-01-01T00:00:01Z' });
    ledger.claim('primary', 'w2', ledger.sent('primary', 'ours'));
    ledger.deleted('primary', 'w2');
    // w2 again after its delete: an id reused, not collided; w1 again while live: collided.
    ledger.claim('primary', 'w2', ledger.sent('primary', 'ours'));
    ledger.claim('primary', 'w1', ledger.sent('primary', 'ours'), { name: 'second', created_at: '2026-01-01T00:00:02Z' });
    expect(ledger.get('primary', 'w1')?.collided).toBe(true);
    const replayed = new Ownership(() => true);
    replayed.loadEntries(readJournal(file));
    expect([replayed.get('primary', 'w1')?.collided, replayed.get('primary', 'w2')?.collided]).toEqual([true, undefined]);
    // Even a retrieve showing the latest answer exactly proves nothing at such an id.
    const verdict = deleteVerdict({ journalled: true, preExisting: false, contradiction: undefined, retrieve: 'marked', absentHereProvenElsewhere: false, collided: true });
    expect(verdict).toEqual({ send: false, reason: expect.stringMatching(/^two creates of this run were answered with this id while the first widget was not deleted/), broken: 'CRUD-3' });
  });

  it('CRUD-1 torn and foreign lines are reported with their numbers', () => {
    const text = `${JSON.stringify({ kind: 'run', marker: 'wcs-y', at: 'now', target: 'http://h/v1' })}\n\n{"kind":"created","account":"third","key":"k","id":"x"}\n{"kind":"created","account":"primary","key":"k","id":"w`;
    expect(parseJournalText(text).torn).toEqual([
      { line: 3, why: 'JSON, but not a journal entry this version can read' },
      { line: 4, why: 'not JSON, and the file does not end with a newline (a write cut short)' },
    ]);
    expect(journalFacts(parseJournal(text)).targets).toEqual(['http://h/v1']);
  });

  it('CRUD-1 the target is the base URL\'s origin and path, without credentials, query or trailing slash', () => {
    expect(targetOf('https://user:pw@api.example.com:8443/v1/?x=1')).toBe('https://api.example.com:8443/v1');
    expect(targetOf('http://127.0.0.1:9000')).toBe('http://127.0.0.1:9000');
  });

  it('CRUD-4 an id shown with the marker and then without is contradicted, and journalled as such', () => {
    const file = join(dir, 'contradiction.jsonl');
    const ledger = new Ownership((w) => (w as { name?: string }).name === 'ours', new Journal(file));
    ledger.claim('primary', 'w1', ledger.sent('primary', 'ours'));
    ledger.saw('primary', 'w1', { id: 'w1', name: 'ours' }, 'retrieve');
    expect(ledger.contradiction('primary', 'w1')).toBeUndefined();
    ledger.saw('primary', 'w1', { id: 'w1', name: 'the user\'s' }, 'list');
    expect(ledger.contradiction('primary', 'w1')).toContain('with the run marker at one time and without it at another');
    expect(journalFacts(readJournal(file)).contradictions.get('primary')?.has('w1')).toBe(true);
  });

  it('CRUD-3 a create answering an id first seen without the marker is contradicted', () => {
    const ledger = new Ownership((w) => (w as { name?: string }).name === 'ours');
    ledger.saw('primary', 'u9', { id: 'u9', name: 'someone else' }, 'list');
    ledger.claim('primary', 'u9', ledger.sent('primary', 'ours'));
    expect(ledger.contradiction('primary', 'u9')).toContain('before a create of this run answered it');
  });
});
