/**
 * Widget tags (harness/marker.ts tagsIn): how a check tells a second widget at an id (one that
 * carries another widget's tag) from its own widget altered by the server (CRUD-4's fault).
 */
import { describe, expect, test } from 'vitest';
import { newMarker, tagsIn } from '../../../src/harness/marker.ts';

describe('tagsIn', () => {
  const marker = newMarker();
  test('finds the tag in a name or a description, alone or followed by more text', () => {
    expect(tagsIn({ name: `${marker} CRUD-4 64`, description: 'x' }, marker)).toEqual([`${marker} CRUD-4 64`]);
    expect(tagsIn({ name: 'generated', description: `${marker} PROP-2 7 rest of it` }, marker)).toEqual([`${marker} PROP-2 7`]);
  });

  test('a suffix a server appended does not change the tag; a longer number is another tag', () => {
    expect(tagsIn({ name: `${marker} CRUD-4 64 <img src=x>` }, marker)).toEqual([`${marker} CRUD-4 64`]);
    expect(tagsIn({ name: `${marker} CRUD-4 641` }, marker)).toEqual([`${marker} CRUD-4 641`]);
  });

  test('another run\'s marker, a marker inside a word, or no widget at all carries no tag of this run', () => {
    expect(tagsIn({ name: `${newMarker()} CRUD-4 64` }, marker)).toEqual([]);
    expect(tagsIn({ name: `x${marker} CRUD-4 64` }, marker)).toEqual([]);
    expect(tagsIn(null, marker)).toEqual([]);
  });
});
