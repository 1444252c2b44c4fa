/**
 * The documentation stands on its own: a clone has no files beside the repository, so every
 * link and relative path in README.md and docs/ must land on a file inside it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { blocksIn, documentationFiles, GENERATORS, regenerate } from '../../tools/docs.ts';

const DOCS = ['README.md', ...readdirSync(join(PROJECT_ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f))];

/** Markdown link targets `](target)` and code spans that look like relative paths (`../x`, `./x`). */
const LINK = /\]\(([^)\s]+)\)/g;
const RELATIVE_SPAN = /`(\.{1,2}\/[^`\s]*)`/g;

describe('documentation', () => {
  for (const doc of DOCS) {
    it(`${doc} links and points only inside the repository`, () => {
      const text = readFileSync(join(PROJECT_ROOT, doc), 'utf8');
      const targets = [...text.matchAll(LINK), ...text.matchAll(RELATIVE_SPAN)].map((m) => m[1]!);
      const outside = targets
        .filter((t) => !/^(https?:|mailto:|#)/.test(t))
        .map((t) => resolve(dirname(join(PROJECT_ROOT, doc)), t.split('#')[0]!))
        .filter((path) => relative(PROJECT_ROOT, path).startsWith('..') || !existsSync(path))
        .map((path) => relative(PROJECT_ROOT, path));
      expect(outside).toEqual([]);
      expect(text).not.toMatch(/shared\/spec/);
    });
  }
});

describe('generated documentation', () => {
  for (const doc of documentationFiles()) {
    it(`${doc}: every generated block is what the code says now (npm run docs rewrites them)`, () => {
      const text = readFileSync(join(PROJECT_ROOT, doc), 'utf8');
      expect(regenerate(text, doc), `${doc} is out of date: run npm run docs`).toBe(text);
    });
  }

  it('the options, the exit codes and the rule catalogue each stand in a generated block somewhere', () => {
    const names = documentationFiles().flatMap((doc) => blocksIn(readFileSync(join(PROJECT_ROOT, doc), 'utf8')));
    for (const name of Object.keys(GENERATORS)) expect(names, name).toContain(name);
  });

  it('a stale block is found, and an unknown one is refused', () => {
    expect(regenerate('<!-- generated:exit-codes -->\nold\n<!-- end generated:exit-codes -->', 'x.md')).not.toContain('old');
    expect(() => regenerate('<!-- generated:nope -->\n<!-- end generated:nope -->', 'x.md')).toThrow(/no generator for the block "nope"/);
  });
});
