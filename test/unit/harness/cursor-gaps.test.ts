/**
 * PAGE-3's account of a cursor that skips (src/harness/cursor-gaps.ts): each widget a walk lost
 * that a plain list showed is placed between the neighbours the walk did show, by their pages,
 * naming the page request that should have returned it; in the plain list's order, never an
 * assumed one.
 */
import { describe, expect, it } from 'vitest';
import { describeSkipped, skippedIn } from '../../../src/harness/cursor-gaps.ts';
import { walkOf } from '../support/walks.ts';

/** A page of widgets with these ids, has_more as given. */
const page = (ids: readonly string[], more: boolean) => ({ json: { data: ids.map((id) => ({ id })), has_more: more } });

/** The plain list: one page, in the server's order (not sorted: the order is read, never assumed). */
const plain = walkOf([page(['e', 'a', 'd', 'b', 'c'], false)], { kind: 'complete' }, 100);

describe('a walk that lost widgets a plain list shows', () => {
  it('places each between the neighbours the walk showed, by page, in the plain list\'s order', () => {
    // At limit 1: page 1 "e", page 2 "d" (skipped "a"), page 3 "c" (skipped "b").
    const walk = walkOf([page(['e'], true), page(['d'], true), page(['c'], false)], { kind: 'complete' }, 1);
    expect(skippedIn(walk, plain, ['a', 'b'])).toEqual([
      { id: 'a', before: { id: 'e', page: 1 }, after: { id: 'd', page: 2 } },
      { id: 'b', before: { id: 'd', page: 2 }, after: { id: 'c', page: 3 } },
    ]);
    const said = describeSkipped(walk, plain, ['a', 'b']);
    expect(said.split('\n')).toEqual([
      'the cursor skipped them: a plain list made before this walk (1 page at limit 100) shows each, and the suite deleted none of them since; in that list\'s order:',
      '"a" stands between "e" (page 1) and "d" (page 2): the request for page 2, with the cursor page 1 gave, should have shown it',
      '"b" stands between "d" (page 2) and "c" (page 3): the request for page 3, with the cursor page 2 gave, should have shown it',
    ]);
    expect(said).not.toMatch(/list-settle-ms|appeared in the list|late/);
  });

  it('names the first page, a page that shows both neighbours, the page after the last one shown, and the page that ended the walk early', () => {
    const first = walkOf([page(['a'], true), page(['d', 'b'], true), page(['c'], false)], { kind: 'complete' }, 2);
    expect(describeSkipped(first, plain, ['e'])).toContain('"e" stands before "a" (page 1): the first page should have shown it');
    const within = walkOf([page(['e', 'd'], true), page(['b', 'c'], false)], { kind: 'complete' }, 2);
    expect(describeSkipped(within, plain, ['a'])).toContain('"a" stands between "e" (page 1) and "d" (page 1): page 1 shows both and not it');
    const tail = walkOf([page(['e', 'a'], true), page(['d', 'b'], true), page([], false)], { kind: 'complete' }, 2);
    expect(describeSkipped(tail, plain, ['c'])).toContain('"c" stands after "b" (page 2), and the walk showed nothing after it: the request for page 3, with the cursor page 2 gave, should have shown it');
    const ended = walkOf([page(['e', 'a'], true), page(['d', 'b'], false)], { kind: 'complete' }, 2);
    expect(describeSkipped(ended, plain, ['c'])).toContain('"c" stands after "b" (page 2), where the walk ended: page 2 should have said has_more true and given a cursor to it');
  });

  it('places the first three and counts the rest', () => {
    const walk = walkOf([page([], false)], { kind: 'complete' }, 1);
    const said = describeSkipped(walk, plain, ['e', 'a', 'd', 'b', 'c'], 'beside').split('\n');
    expect(said[0]).toMatch(/^the cursor skipped them: a plain list made in the same quiet window as this walk/);
    expect(said).toHaveLength(5);
    expect(said.at(-1)).toBe('and 2 more');
  });
});
