/**
 * Ids that are safe to send (src/client/safe-ids.ts): every id is sent percent-encoded as one
 * segment, refused only when the proof of a retrieve on the same path cannot cover it (a path
 * that climbs or collapses under some decoding, a control or format character, an empty, lone-
 * surrogate or over-long id); deleted only when no id the run saw that is not its own equals it
 * under the normalisations servers apply to ids. Generated ids and encodings (fast-check), and
 * the examples of issues 29 and 35.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodedForms, extendsId, idKey, lenientlyReaches, unsafeSegment } from '../../../src/client/safe-ids.ts';
import { Ownership } from '../../../src/client/ownership.ts';
import { deleteVerdict, factsOf, journalFacts } from '../../../src/client/ledger.ts';

/** Percent-encodes every character of the text (as a hostile server's id may be written). */
const encodeAll = (text: string): string => [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

/** What a router may make of a path segment: decoded once or more, `+` as space, NFKC, trimmed. */
function routerViews(segment: string): string[] {
  const views = new Set<string>();
  let text = segment;
  for (let i = 0; i < 4; i += 1) {
    for (const v of [text, text.replace(/\+/g, ' ')]) for (const w of [v, v.normalize('NFKC'), v.trim()]) views.add(w);
    try {
      text = decodeURIComponent(text);
    } catch {
      break;
    }
  }
  return [...views];
}

describe('a path that never climbs or collapses, under every decoding', () => {
  it.each([
    ['', 'empty'],
    ['.', 'URL normalisation'],
    ['..', 'URL normalisation'],
    ['...', '"." or ".." segment'],
    [' ', 'nothing but "/" and white space'],
    ['/+/', 'nothing but "/" and white space'],
    ['%2e%2e', '"." or ".." segment'],
    ['%2E.', '"." or ".." segment'],
    ['%252e%252e', '"." or ".." segment'],
    ['/', 'nothing but "/"'],
    ['%2f%2F', 'nothing but "/"'],
    ['\\', 'nothing but "/"'],
    ['a/../b', '"." or ".." segment'],
    ['a\\..', '"." or ".." segment'],
    ['a%5c%2e%2e', '"." or ".." segment'],
    ['a/ ./b', '"." or ".." segment'],
    ['a/..+', '"." or ".." segment'],
    ['w\t', 'control'],
    ['a\u0000b', 'control'],
    ['a%00b', 'control'],
    ['a\u202eb', 'control or format'],
    ['a\u0085b', 'control'],
    ['\uff0e\uff0e', '"." or ".." segment'],
    ['a\uff0f\uff0e\uff0e', '"." or ".." segment'],
    ['\uD800', 'lone surrogate'],
    ['x'.repeat(2000), 'longer than'],
  ])('%j is refused (%s)', (id, why) => {
    expect(unsafeSegment(id)).toContain(why);
  });

  // What a proof on the identical request target covers: sent percent-encoded as one segment.
  it.each(['w1', '7', '007', 'a.b', 'ünï', '😀', 'a b', ' w', 'w+', '+w', '%20w', '50%', 'x%zz', '50%41', 'a+b', 'straße', 'wgt_0f3a', '01HZX3K9Q4', 'a/b', 'a%2fb', 'a%252Fb', 'w_s/', '/w', 'a//b', 'a%2f%2fb', 'id//cZG+zinAu0vG', '/hQ/tsr+w2Sptj7X', 'nLN/q8c+V7OsARU/', '2EN/KoX+kszG+5/+', 'a/ /b', 'a\\b', 'a%5cb', 'x?y', 'x#y', 'w;v=1', 'a\uff0fb', 'q3/9Zk+uT0aB8w/x', 'Ω 50%41?#;\\x'])('%j is sent', (id) => {
    expect(unsafeSegment(id)).toBeUndefined();
  });

  it('an id judged safe is one segment of the URL the client sends, and no router view of it (decoded, "+" as space, NFKC, trimmed, "\\" as "/") climbs or collapses to the collection (generated ids and encodings)', () => {
    const pieces = fc.constantFrom('a', 'Z', '0', '.', '/', '\\', '%', '2', 'e', 'E', 'f', 'F', '5', 'c', '+', ' ', '?', '#', ';', '\u00a0', '\uff0e', '\uff0f', '\uff3c', '\u0000', '\u202e', 'ß');
    const ids = fc.oneof(
      fc.array(pieces, { minLength: 1, maxLength: 10 }).map((p) => p.join('')),
      fc.array(pieces, { minLength: 1, maxLength: 4 }).map((p) => encodeAll(p.join(''))),
      fc.array(pieces, { minLength: 1, maxLength: 3 }).map((p) => encodeAll(encodeAll(p.join('')))),
      fc.string({ unit: 'grapheme', maxLength: 12 }),
    );
    fc.assert(
      fc.property(ids, (id) => {
        if (unsafeSegment(id) !== undefined) return;
        for (const view of routerViews(id)) {
          expect(view, `${JSON.stringify(id)} seen as ${JSON.stringify(view)}`).not.toMatch(/[\u0000-\u001f]/);
          const segments = view.split(/[/\\]/);
          for (const segment of segments) expect(segment, `${JSON.stringify(id)} seen as ${JSON.stringify(view)}`).not.toMatch(/^\s*\.+\s*$/);
          expect(segments.some((segment) => segment.trim() !== ''), `${JSON.stringify(id)} seen as ${JSON.stringify(view)}`).toBe(true);
        }
        // Sent percent-encoded, the path a URL parser makes is the one segment.
        const url = new URL(`http://x/v1/widgets/${encodeURIComponent(id)}`);
        expect(url.pathname.split('/')).toHaveLength(4);
      }),
      { numRuns: 2_000 },
    );
  });

  it('decoding is repeated until stable', () => {
    expect(decodedForms('%25252e')).toContain('.');
  });
});

describe('ids that equal another under a server\'s normalisations', () => {
  it.each([
    ['7', '007'],
    ['w_trim ', 'w_trim'],
    ['caf\u0065\u0301', 'caf\u00e9'],
    ['straße', 'strasse'],
    ['STRASSE', 'straße'],
    ['a+b', 'a b'],
    ['w_s/', 'w_s'],
    ['50%25', '50%'],
    ['İstanbul', 'istanbul'],
    ['ıd', 'ID'],
    ['ｗ１', 'w1'],
    ['W1', 'w1'],
  ])('%j and %j have one key', (a, b) => {
    expect(idKey(a)).toBe(idKey(b));
  });

  it.each([
    ['w1', 'w2'],
    ['70', '7'],
    ['a-b', 'a b'],
    ['wgt_0f3a', 'wgt_0f3b'],
  ])('%j and %j stay apart', (a, b) => {
    expect(idKey(a)).not.toBe(idKey(b));
  });

  it('the key is stable: normalising a key changes nothing (generated ids)', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 16 }), (id) => {
      expect(idKey(idKey(id))).toBe(idKey(id));
    }), {
      numRuns: 1_000,
      // NFKC makes escapes of compatibility characters (`﹪41` is `%41`), and ids nested in more
      // escapes than the decoding bound: both once gave a key that changed when keyed again.
      examples: [['﹪41'], ['%％34１'], [`${'%25'.repeat(20)}41`]],
    });
  });

  it('generated case, width, Unicode-form, zero-padding and trailing-slash variants of an id share its key', () => {
    const variant = fc.constantFrom<(s: string) => string>(
      (s) => s.toUpperCase(),
      (s) => s.toLowerCase(),
      (s) => s.normalize('NFD'),
      (s) => s.normalize('NFKD'),
      (s) => ` ${s} `,
      (s) => `${s}/`,
      (s) => s.replace(/\d+/g, (d) => `00${d}`),
      (s) => s.replace(/ /g, '+'),
      (s) => encodeURIComponent(s),
    );
    fc.assert(fc.property(fc.stringMatching(/^[a-zA-Z0-9äöüßÉé ]{1,12}$/), variant, (id, change) => {
      expect(idKey(change(id)), `${JSON.stringify(id)} and ${JSON.stringify(change(id))}`).toBe(idKey(id));
    }), { numRuns: 1_000 });
  });

  it('CRUD-3 a DELETE is not sent for an id that equals one the run saw and does not own; the reason names it, and no rule is blamed', () => {
    const ledger = new Ownership(() => true);
    ledger.setInventory('primary', ['007', 'w_trim', 'strasse'], true);
    ledger.saw('primary', 'a b', { id: 'a b', name: 'another client\'s' }, 'list');
    for (const ours of ['7', 'w_trim ', 'straße', 'a+b', 'w9']) ledger.claim('primary', ours, undefined);
    const verdicts = Object.fromEntries(['7', 'w_trim ', 'straße', 'a+b', 'w9'].map((id) => [id, deleteVerdict(factsOf(ledger, 'primary', id, 'marked'))]));
    expect(verdicts['w9']).toEqual({ send: true });
    for (const id of ['7', 'w_trim ', 'straße', 'a+b']) {
      expect(verdicts[id]).toMatchObject({ send: false, reason: expect.stringContaining('under the normalisations servers apply to ids') });
      expect(verdicts[id]).not.toHaveProperty('broken');
    }
    // In another account the same ids are no lookalikes: ids need not be unique across accounts.
    ledger.claim('second', '7', undefined);
    expect(deleteVerdict(factsOf(ledger, 'second', '7', 'marked'))).toEqual({ send: true });
  });

  it('CRUD-3 a DELETE is not sent for an id that equals another one a create of the run was answered with and the server has said something against since (a contradiction, no marker, nothing there): this id\'s proof says nothing of that widget', () => {
    // The adversary's seed -1394388508: a create answered with the user's w1 (hidden from every
    // list, and contradicted since), another made at `w1 `, and a DELETE route that trims ids.
    const ledger = new Ownership((w) => (w as { name?: string } | undefined)?.name === 'ours');
    ledger.claim('primary', 'w1', undefined);
    ledger.contradict('primary', 'w1', 'a retrieve showed another widget at this id than its create answered');
    ledger.claim('primary', 'w1 ', undefined);
    expect(deleteVerdict(factsOf(ledger, 'primary', 'w1 ', 'marked'))).toMatchObject({ send: false, why: 'lookalike', reason: expect.stringContaining('"w1"') });
    // The run's own W7 and w7, nothing said against either: each is deleted (a server that gives one run `a` and `A`).
    const created = (id: string): unknown => ({ id, name: 'ours', created_at: '2026-01-01T00:00:07Z' });
    for (const id of ['W7', 'w7']) ledger.claim('primary', id, ledger.sent('primary', 'ours'), created(id));
    expect(deleteVerdict(factsOf(ledger, 'primary', 'w7', 'marked'))).toEqual({ send: true });
    ledger.saw('primary', 'W7', created('W7'), 'retrieve');
    expect(deleteVerdict(factsOf(ledger, 'primary', 'w7', 'marked'))).toEqual({ send: true });
    // A retrieve of W7 that finds nothing there, or shows a widget without the marker: W7 may be anyone's now.
    ledger.sawAbsent('primary', 'W7');
    expect(deleteVerdict(factsOf(ledger, 'primary', 'w7', 'marked'))).toMatchObject({ send: false, why: 'lookalike', reason: expect.stringContaining('"W7"') });
    ledger.saw('primary', 'W7', created('W7'), 'retrieve');
    ledger.saw('primary', 'W7', { id: 'W7', name: 'someone else\'s' }, 'list');
    expect(deleteVerdict(factsOf(ledger, 'primary', 'w7', 'marked'))).toMatchObject({ send: false, why: 'lookalike' });
    // Deleted by the run: no widget there to reach.
    ledger.deleted('primary', 'W7');
    expect(deleteVerdict(factsOf(ledger, 'primary', 'w7', 'marked'))).toEqual({ send: true });
    // After a replay of the journal too (the final cleanup, `cleanup`).
    const replayed = new Ownership(() => true);
    replayed.load(journalFacts([{ kind: 'created', account: 'primary', key: 'a', id: '007' }, { kind: 'created', account: 'primary', key: 'b', id: '7' }, { kind: 'contradiction', account: 'primary', id: '007', why: 'listed twice' }]));
    expect(deleteVerdict(factsOf(replayed, 'primary', '7', 'marked'))).toMatchObject({ send: false, why: 'lookalike', reason: expect.stringContaining('"007"') });
  });

  it('DEL-4 an id a retrieve of another id answered with counts as a widget the run knows: a lenient lookup could reach it', () => {
    // The adversary's seed -1394388508 again: the user's w1, hidden from every list, shown by a
    // retrieve of `w1/x5-wcsprobe` on a router that reads ids leniently.
    const ledger = new Ownership(() => true);
    ledger.claim('primary', 'w1/x8', undefined);
    ledger.shownAt('primary', 'w1');
    expect(ledger.lenientNeighbour('primary', 'w1/x8-wcsprobe', 'w1/x8')).toBe('w1');
    expect(ledger.lookalike('primary', 'W1')).toBe('w1');
  });

  it('DEL-4 an id extends a widget\'s id only when it begins with it and says more, not when a server would read both as one id', () => {
    for (const [base, target] of [['31', '31wcsabcde'], ['31', '31-x'], ['wgt_3fa9', 'wgt_3fa9_x'], ['q3/9Zk+u', 'q3/9Zk+u~x']] as const) expect(extendsId(base, target), target).toBe(true);
    for (const [base, target] of [['31', '31'], ['31', '3'], ['31', '31.'], ['31', '31/'], ['31', '31 '], ['w1', 'W1'], ['31', 'x31'], ['', 'x']] as const) expect(extendsId(base, target), JSON.stringify(target)).toBe(false);
  });

  it('DEL-4 a lenient lookup can take an id for any id that begins it, as written or under the normalisations of ids (an integer cast of its leading digits among them)', () => {
    for (const known of ['3', '31', '31-', '031', 'W3']) expect(lenientlyReaches(known, known === 'W3' ? 'w31-x' : '31-x'), known).toBe(true);
    // Not itself, not a lookalike of it, not an id that does not begin it.
    for (const known of ['31-x', '31-X', '310', '4', 'x31']) expect(lenientlyReaches(known, '31-x'), known).toBe(false);
  });

  it('DEL-4 the ids a lenient lookup could take an extended id for are found among the inventory, the run\'s live widgets and the ids it saw, never the widget it extends', () => {
    const ledger = new Ownership(() => true);
    ledger.claim('primary', '314', undefined);
    expect(ledger.lenientNeighbour('primary', '314-wcsabcde', '314')).toBeUndefined();
    // A deleted widget of the run's is no widget to reach; a live one is.
    ledger.claim('primary', '3', undefined);
    ledger.deleted('primary', '3');
    expect(ledger.lenientNeighbour('primary', '314-wcsabcde', '314')).toBeUndefined();
    ledger.claim('primary', '31', undefined);
    expect(ledger.lenientNeighbour('primary', '314-wcsabcde', '314')).toBe('31');
    ledger.deleted('primary', '31');
    // The inventory, and an id a list showed that is not the run's (031 as an integer cast reads it).
    const other = new Ownership(() => true);
    other.setInventory('primary', ['31'], true);
    expect(other.lenientNeighbour('primary', '314-wcsabcde', '314')).toBe('31');
    const seen = new Ownership(() => true);
    seen.saw('primary', '031', { id: '031', name: 'another client\'s' }, 'list');
    expect(seen.lenientNeighbour('primary', '314-wcsabcde', '314')).toBe('031');
    // Only this account's ids, and never a lookalike of the target or of the widget (the lookalike rule's).
    expect(seen.lenientNeighbour('second', '314-wcsabcde', '314')).toBeUndefined();
    const lookalikes = new Ownership(() => true);
    lookalikes.setInventory('primary', ['0314', '314-WCSABCDE'], true);
    expect(lookalikes.lenientNeighbour('primary', '314-wcsabcde', '314')).toBeUndefined();
  });
});
