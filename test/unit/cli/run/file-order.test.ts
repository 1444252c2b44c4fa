/**
 * The order of the suite files (run-vitest.ts): by name or reversed, and the file of requests that
 * can break the server's later answers (suites/after-all.test.ts, FMT-4's create whose body is not
 * UTF-8) last in either order, so it cannot change another rule's verdict (issue 30).
 */
import { describe, expect, it } from 'vitest';
import type { TestSpecification } from 'vitest/node';
import { fileOrder } from '../../../../src/cli/run/run-vitest.ts';

const spec = (moduleId: string): TestSpecification => ({ moduleId }) as unknown as TestSpecification;
const FILES = ['/p/dist/suites/auth.test.js', '/p/dist/suites/after-all.test.js', '/p/dist/suites/crud.test.js', '/p/dist/suites/pagination.test.js'];

async function order(by: string | undefined, files = FILES): Promise<string[]> {
  const Sequencer = fileOrder(by);
  const sorted = await new Sequencer(undefined as never).sort(files.map(spec));
  return sorted.map((s) => s.moduleId.replace(/^.*\//, ''));
}

describe('suite file order', () => {
  it('FMT-4 the file of requests that can break later answers runs after every other file, by name', async () => {
    expect(await order('name')).toEqual(['auth.test.js', 'crud.test.js', 'pagination.test.js', 'after-all.test.js']);
  });

  it('FMT-4 the file of requests that can break later answers runs after every other file, in reverse order too', async () => {
    expect(await order('reverse')).toEqual(['pagination.test.js', 'crud.test.js', 'auth.test.js', 'after-all.test.js']);
  });

  it('FMT-1 the format rules\' file, which judges what the others recorded, runs after every other file but the last, in either order', async () => {
    const files = ['/p/dist/suites/format.test.js', ...FILES];
    expect(await order('name', files)).toEqual(['auth.test.js', 'crud.test.js', 'pagination.test.js', 'format.test.js', 'after-all.test.js']);
    expect(await order('reverse', files)).toEqual(['pagination.test.js', 'crud.test.js', 'auth.test.js', 'format.test.js', 'after-all.test.js']);
    expect(await order(undefined, ['/p/suites/b.test.ts', '/p/suites/not-format.test.ts', '/p/suites/format.test.ts', '/p/suites/a.test.ts'])).toEqual(['a.test.ts', 'b.test.ts', 'not-format.test.ts', 'format.test.ts']);
  });

  it('only that file: a name that merely contains it keeps its place', async () => {
    expect(await order(undefined, ['/p/suites/b.test.ts', '/p/suites/not-after-all.test.ts', '/p/suites/after-all.test.ts', '/p/suites/a.test.ts'])).toEqual(['a.test.ts', 'b.test.ts', 'not-after-all.test.ts', 'after-all.test.ts']);
  });
});
