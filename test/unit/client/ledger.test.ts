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
import { DELETE_FACTS, deleteVerdict, EVERY_FACT_LISTED, factsOf, isGone, Journal, journalFacts, parseJournal, parseJournalText, readJournal, shownAt, targetOf, type DeleteFacts, type ExtensionFacts, type SecondDeleteFacts } from '../../../src/client/ledger.ts';
import type { Refusal } from '../../../src/errors.ts';
import { Redactor } from '../../../src/shared/redact.ts';
import { Ownership } from '../../../src/client/ownership.ts';

/** A fact of the rule's with no value: the base every case below starts from. */
const NONE: DeleteFacts = { journalled: false, preExisting: false, contradiction: undefined, retrieve: 'unknown', createdUnmarked: false, lostWrite: undefined, lookalike: undefined, collided: false, absentHereProvenElsewhere: false, refusedElsewhere: undefined, sweep: undefined, again: undefined, extension: undefined };

const BOOLS = [false, true] as const;
const SECOND_DELETES: ReadonlyArray<SecondDeleteFacts | undefined> = [
  undefined,
  ...BOOLS.flatMap((deletedOnce) => BOOLS.flatMap((heldNothingBefore) => BOOLS.flatMap((idsUnreliable) => BOOLS.map((quiet) => ({ deletedOnce, heldNothingBefore, idsUnreliable, quiet }))))),
];

const EXTENSIONS: ReadonlyArray<ExtensionFacts | undefined> = [
  undefined,
  ...BOOLS.flatMap((extendsBase) => [undefined, { reason: 'a retrieve shows another widget', broken: 'CRUD-4' }].flatMap((baseRefused) =>
    (['nothing', 'base', 'itself', 'other'] as const).flatMap((target) => [undefined, '3'].map((neighbour) => ({ extendsBase, baseRefused, target, neighbour }))))),
];

/**
 * Every value each fact of the rule takes, by the fact's name. Typed so that a fact added to
 * DeleteFacts without values here does not compile; and the test below holds these names to the
 * rule's own list (DELETE_FACTS, itself checked against the type), so none slips past at run time.
 */
const VALUES: { readonly [K in keyof DeleteFacts]-?: ReadonlyArray<DeleteFacts[K]> } = {
  journalled: BOOLS,
  preExisting: BOOLS,
  contradiction: [undefined, 'listed twice'],
  retrieve: ['marked', 'another', 'unmarked', 'absent', 'withheld', 'unknown'],
  createdUnmarked: BOOLS,
  lostWrite: [undefined, 'DELETE was sent and its answer lost'],
  lookalike: [undefined, '007'],
  collided: BOOLS,
  absentHereProvenElsewhere: BOOLS,
  refusedElsewhere: [undefined, { account: 'second', reason: 'a retrieve shows a widget without the run marker at this id' }],
  sweep: [undefined, { listedOnlyMarked: false }, { listedOnlyMarked: true }],
  again: SECOND_DELETES,
  extension: EXTENSIONS,
};

/**
 * The facts that say what kind of write it is: a write is at most one of them (the door makes one
 * proof per write), and deleteVerdict reads them in this order. Combined with every other fact,
 * one at a time, so the table stays small enough to run in the unit tier.
 */
const MODES = ['again', 'extension'] as const satisfies ReadonlyArray<keyof DeleteFacts>;

/** Every combination of every value of every fact, generated from VALUES (the modes exclusive: MODES). */
function everyCombination(): DeleteFacts[] {
  let all: Array<Record<string, unknown>> = [{}];
  for (const name of DELETE_FACTS.filter((n) => !(MODES as readonly string[]).includes(n))) all = all.flatMap((partial) => (VALUES[name] as readonly unknown[]).map((value) => ({ ...partial, [name]: value })));
  const modes = [Object.fromEntries(MODES.map((m) => [m, undefined])), ...MODES.flatMap((mode) => VALUES[mode].filter((v) => v !== undefined).map((value) => ({ ...Object.fromEntries(MODES.map((m) => [m, undefined])), [mode]: value })))];
  return all.flatMap((partial) => modes.map((mode) => ({ ...partial, ...mode }))) as unknown as DeleteFacts[];
}

/** How many combinations everyCombination makes: every other fact's values times the modes' values, one mode at a time. */
const COMBINATIONS = DELETE_FACTS.filter((n) => !(MODES as readonly string[]).includes(n)).reduce((n, name) => n * VALUES[name].length, 1) * (1 + MODES.reduce((n, mode) => n + VALUES[mode].length - 1, 0));

/**
 * The rule, written out independently, case by case, from the invariant in docs/data-safety.md:
 * what must be refused, and why (the first fact that forbids it), or 'send'.
 */
function expected(f: DeleteFacts): Refusal | 'send' {
  // Never, whatever else holds: an id the account held before the run, one whose write lost its
  // answer, a lookalike of an id not the run's, one two live widgets of the run were given, or
  // one the server contradicted itself about.
  if (f.preExisting) return 'pre-existing';
  if (f.lostWrite !== undefined) return 'lost-write';
  if (f.lookalike !== undefined) return 'lookalike';
  if (f.collided) return 'collided';
  if (f.contradiction !== undefined) return 'contradicted';
  // The second delete of an id: only when every one of its facts holds, and a retrieve found nothing (404 or 410).
  if (f.again) {
    const a = f.again;
    return f.sweep === undefined && f.journalled && a.deletedOnce && a.heldNothingBefore && !a.idsUnreliable && a.quiet && f.retrieve === 'absent' ? 'send' : 'second-delete';
  }
  // A DELETE of an id no create answered, extending the run's widget: only from a test, aimed at
  // that widget proven live, where the exact id shows nothing or that widget, and no other id the
  // run knows could be taken for it.
  if (f.extension) {
    const e = f.extension;
    return f.sweep === undefined && !f.journalled && e.extendsBase && e.baseRefused === undefined && (e.target === 'nothing' || e.target === 'base') && e.neighbour === undefined ? 'send' : 'extension';
  }
  // A delete with this account's credential that finds nothing of its own here, proven in the account that made the id.
  const nothingHere = f.retrieve === 'absent' || f.retrieve === 'withheld' || (f.retrieve === 'marked' && !f.journalled);
  if (nothingHere && f.absentHereProvenElsewhere) return 'send';
  const owned = f.sweep ? f.sweep.listedOnlyMarked : f.journalled;
  if (!owned) return f.refusedElsewhere !== undefined && !f.sweep ? 'refused-elsewhere' : 'not-ours';
  // The run's own id: only when a retrieve shows the widget its create answered.
  return f.retrieve === 'marked' ? 'send' : f.retrieve;
}

describe('the delete rule', () => {
  const cases = everyCombination();
  // Each decided once: the tests below read these (an expect per case would cost more than the rule).
  const sends = cases.map((f) => deleteVerdict(f).send);
  const sent = cases.filter((_, i) => sends[i]);

  it('CRUD-3 the truth table enumerates every fact the rule has: a new fact cannot slip past it', () => {
    expect(Object.keys(VALUES).sort()).toEqual([...DELETE_FACTS].sort());
    expect(EVERY_FACT_LISTED).toBe(true);
    // The facts the ledger builds (factsOf) are exactly these, no fewer, no more.
    expect(Object.keys(factsOf(new Ownership(() => true), 'primary', 'w1', 'marked')).sort()).toEqual([...DELETE_FACTS].sort());
    expect(cases).toHaveLength(COMBINATIONS);
  });

  it(`CRUD-3 the rule decides every combination of every value of every fact as the invariant says, with the reason's type`, () => {
    for (const f of cases) {
      const verdict = deleteVerdict(f);
      const want = expected(f);
      if (verdict.send !== (want === 'send') || (!verdict.send && verdict.why !== want)) {
        expect({ verdict, want }, JSON.stringify(f)).toEqual({ verdict: want === 'send' ? { send: true } : { send: false, why: want }, want });
      }
    }
  });

  it('CRUD-3 an id in the inventory, contradicted, given to two live widgets, with a lost write or a lookalike, is never written, whatever else holds', () => {
    expect(sent.filter((c) => c.preExisting || c.contradiction !== undefined || c.collided || c.lostWrite !== undefined || c.lookalike !== undefined)).toEqual([]);
  });

  it('CRUD-4 a write to a widget that shows itself goes only after a retrieve shows the widget its create answered', () => {
    expect(sent.filter((c) => c.journalled && !c.absentHereProvenElsewhere && !c.again && c.retrieve !== 'marked')).toEqual([]);
  });

  it('DEL-4 a delete of an extension of the run\'s widget goes only when the widget is proven, the exact id shows nothing or that widget, and no other known id is within a lenient lookup\'s reach', () => {
    const extensions = sent.filter((c) => c.extension !== undefined);
    expect(extensions.length).toBeGreaterThan(0);
    expect(extensions.filter((f) => f.journalled || !f.extension!.extendsBase || f.extension!.baseRefused !== undefined || !['nothing', 'base'].includes(f.extension!.target) || f.extension!.neighbour !== undefined)).toEqual([]);
    // What the widget's own proof found broken is said as that rule; an exact id that answers neither an error nor the widget is CRUD-5's.
    const base: DeleteFacts = { ...NONE, retrieve: 'absent', extension: { extendsBase: true, baseRefused: undefined, target: 'nothing', neighbour: undefined } };
    expect(deleteVerdict(base)).toEqual({ send: true });
    expect(deleteVerdict({ ...base, extension: { ...base.extension!, baseRefused: { reason: 'x', broken: 'CRUD-4' } } })).toMatchObject({ send: false, why: 'extension', broken: 'CRUD-4' });
    expect(deleteVerdict({ ...base, extension: { ...base.extension!, target: 'other' } })).toMatchObject({ send: false, why: 'extension', broken: 'CRUD-5' });
    expect(deleteVerdict({ ...base, extension: { ...base.extension!, neighbour: '3' } })).toMatchObject({ send: false, why: 'extension', reason: expect.stringMatching(/knows the id "3" in this account/) });
    expect(deleteVerdict({ ...base, extension: { ...base.extension!, target: 'itself' } })).not.toHaveProperty('broken');
  });

  it('DEL-3 a second delete goes only into an account that held nothing, inside the quiet window, after a 404 or 410', () => {
    expect(sent.filter((c) => c.again !== undefined && !(c.again.heldNothingBefore && c.again.quiet && c.retrieve === 'absent'))).toEqual([]);
  });

  it('DEL-3 a second delete not sent says which fact is missing', () => {
    const base: DeleteFacts = { ...NONE, journalled: true, retrieve: 'absent', again: { deletedOnce: true, heldNothingBefore: true, idsUnreliable: false, quiet: true } };
    expect(deleteVerdict(base).send).toBe(true);
    const reason = (f: DeleteFacts): string => { const v = deleteVerdict(f); return v.send ? 'sent' : v.reason; };
    expect(reason({ ...base, again: { ...base.again!, heldNothingBefore: false } })).toMatch(/held widgets before the run/);
    expect(reason({ ...base, again: { ...base.again!, idsUnreliable: true } })).toMatch(/gave an id twice or contradicted itself/);
    expect(reason({ ...base, again: { ...base.again!, quiet: false } })).toMatch(/writes of the suite may be in flight/);
    expect(reason({ ...base, again: { ...base.again!, deletedOnce: false } })).toMatch(/no delete of this run removed/);
    expect(reason({ ...base, retrieve: 'withheld' })).toMatch(/did not answer 404 or 410/);
    expect(reason({ ...base, preExisting: true })).toMatch(/before the run's first create: never deleted/);
    // A lookalike or a lost write refuses the second delete too (they once were not among its facts).
    expect(deleteVerdict({ ...base, lookalike: '007' })).toMatchObject({ send: false, why: 'lookalike' });
    expect(deleteVerdict({ ...base, lostWrite: 'DELETE was sent and its answer lost' })).toMatchObject({ send: false, why: 'lost-write' });
  });

  it('the rules the server broke are named: CRUD-3 for a pre-existing or collided id of the run\'s, CRUD-4 for a retrieve that changes the widget, CRUD-1 for a name that never came back', () => {
    expect(deleteVerdict({ ...NONE, journalled: true, preExisting: true, retrieve: 'marked' })).toMatchObject({ send: false, broken: 'CRUD-3' });
    expect(deleteVerdict({ ...NONE, journalled: true, collided: true, retrieve: 'marked' })).toMatchObject({ send: false, broken: 'CRUD-3' });
    expect(deleteVerdict({ ...NONE, journalled: true, retrieve: 'unmarked' })).toMatchObject({ send: false, broken: 'CRUD-4' });
    expect(deleteVerdict({ ...NONE, journalled: true, retrieve: 'unmarked', createdUnmarked: true })).toMatchObject({ send: false, broken: 'CRUD-1' });
    // Nothing at the id is no rule broken: a 404 or 410, or another 4xx.
    expect(deleteVerdict({ ...NONE, journalled: true, retrieve: 'absent' })).toEqual({ send: false, why: 'absent', reason: expect.any(String) });
    expect(deleteVerdict({ ...NONE, journalled: true, retrieve: 'withheld' })).toEqual({ send: false, why: 'withheld', reason: expect.any(String) });
  });

  it('CRUD-1 a marker seen only in a list, with no create answering the id, is not proof', () => {
    expect(deleteVerdict({ ...NONE, retrieve: 'marked' })).toMatchObject({ send: false, why: 'not-ours' });
  });
});

describe('one meaning of gone', () => {
  it('a retrieve answering 404 or 410 is absent; another 4xx shows nothing but says nothing of absence; a 401 or 403 is never gone', () => {
    const ledger = new Ownership(() => true);
    const at = (status: number): string => shownAt(ledger, 'primary', 'w1', { status, json: undefined } as never);
    expect([404, 410].map(at)).toEqual(['absent', 'absent']);
    expect([400, 401, 403, 422].map(at)).toEqual(['withheld', 'withheld', 'withheld', 'withheld']);
    expect([500, 302].map(at)).toEqual(['unknown', 'unknown']);
    expect([404, 410, 400, 401, 403, 500].map(isGone)).toEqual([true, true, false, false, false, false]);
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
    const verdict = deleteVerdict(factsOf(replayed, 'primary', 'w1', 'marked'));
    expect(verdict).toEqual({ send: false, why: 'collided', reason: expect.stringMatching(/^two creates of this run were answered with this id while the first widget was not deleted/), broken: 'CRUD-3' });
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

  it('CRUD-4 an id a worker was shown without the marker is contradicted in the final cleanup and `cleanup` once shown with it, as in the worker; a later create or delete clears it', () => {
    // The adversary's seed 1: a create answered without created_at, a retrieve without the marker,
    // then another client's widget at the id with a copy of the name: proven by the name alone in a
    // process that had not seen the unmarked retrieve.
    const file = join(dir, 'unmarked.jsonl');
    const ours = (w: unknown): boolean => /wcs-x/.test((w as { name?: string } | undefined)?.name ?? '');
    const worker = new Ownership(ours, new Journal(file));
    worker.claim('primary', 'w8', worker.sent('primary', 'wcs-x CRUD-1 3'), { id: 'w8', name: 'wcs-x CRUD-1 3' });
    worker.saw('primary', 'w8', { id: 'w8', name: 'CRUD-1 3', created_at: '2026-01-01T00:00:08Z' }, 'retrieve');
    worker.saw('primary', 'w8', { id: 'w8', name: 'CRUD-1 3' }, 'list');
    worker.claim('primary', 'w9', worker.sent('primary', 'wcs-x CRUD-1 4'), { id: 'w9', name: 'wcs-x CRUD-1 4' });
    worker.saw('primary', 'w9', { id: 'w9', name: 'CRUD-1 4' }, 'list');
    worker.deleted('primary', 'w9');
    expect(readJournal(file).filter((e) => e.kind === 'unmarked')).toEqual([{ kind: 'unmarked', account: 'primary', id: 'w8' }, { kind: 'unmarked', account: 'primary', id: 'w9' }]);
    const final = new Ownership(ours);
    final.loadEntries(readJournal(file));
    final.saw('primary', 'w8', { id: 'w8', name: 'wcs-x CRUD-1 3', created_at: '2026-01-01T00:00:12Z' }, 'retrieve');
    expect(deleteVerdict(factsOf(final, 'primary', 'w8', 'marked'))).toMatchObject({ send: false, why: 'contradicted', broken: 'CRUD-4' });
    // w9 was deleted since: what stands there now is judged afresh.
    final.saw('primary', 'w9', { id: 'w9', name: 'wcs-x CRUD-1 4' }, 'retrieve');
    expect(final.contradiction('primary', 'w9')).toBeUndefined();
  });

  it('CRUD-3 a create answering an id first seen without the marker is contradicted', () => {
    const ledger = new Ownership((w) => (w as { name?: string }).name === 'ours');
    ledger.saw('primary', 'u9', { id: 'u9', name: 'someone else' }, 'list');
    ledger.claim('primary', 'u9', ledger.sent('primary', 'ours'));
    expect(ledger.contradiction('primary', 'u9')).toContain('before a create of this run answered it');
  });
});
