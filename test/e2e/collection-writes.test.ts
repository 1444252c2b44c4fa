/**
 * MAL-5 sends PUT and PATCH to /widgets only with --allow-collection-writes: a server could take
 * them for "replace or change them all", and no list proves an account empty (a list may hide
 * widgets, another client may create one meanwhile). Without the flag, no PUT or PATCH on
 * /widgets reaches the server, those checks are skipped with a reason naming the flag, the
 * checks on the suite's own widget still judge, and the user's widgets are untouched. With it,
 * the collection checks judge (put-on-collection-creates in test/servers/faults/mal.ts shows
 * them failing on a server that breaks MAL-5 so).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { expect, test } from 'vitest';
import { prefilledStore } from '../../src/reference/prefill.ts';
import { DEFAULT_TOKENS, ReferenceService } from '../../src/reference/service.ts';
import { TOKENS } from '../servers/support.ts';
import { runAgainst } from '../servers/serve.ts';
import { explain } from '../support/suite-runner.ts';

const ACCOUNT = Object.values(DEFAULT_TOKENS)[0]!;

/** The reference service over `store`, recording every PUT or PATCH on /widgets. */
function recording(store = prefilledStore(ACCOUNT, 0)): { handler: { handle(req: IncomingMessage, res: ServerResponse): void | Promise<void> }; collectionWrites: string[] } {
  const service = new ReferenceService({ store });
  const collectionWrites: string[] = [];
  return {
    collectionWrites,
    handler: {
      handle(req: IncomingMessage, res: ServerResponse) {
        if ((req.method === 'PUT' || req.method === 'PATCH') && /\/widgets\/?(\?|$)/.test(req.url ?? '')) collectionWrites.push(`${req.method} ${req.url}`);
        return service.handle(req, res);
      },
    },
  };
}

test('MAL-5 never sends PUT or PATCH on /widgets without --allow-collection-writes, even into an account that lists as empty', async () => {
  const store = prefilledStore(ACCOUNT, 5);
  const before = JSON.stringify(store.page(ACCOUNT, undefined, 100));
  const { handler, collectionWrites } = recording(store);
  const run = await runAgainst({ handler, tokens: TOKENS }, ['--only', 'MAL-5']);
  expect(run.exitCode, explain(run)).toBe(0);
  expect(collectionWrites, 'PUT or PATCH on /widgets sent').toEqual([]);
  const tests = run.report!.rules.find((r) => r.id === 'MAL-5')!.tests;
  const onCollection = tests.filter((t) => t.title.includes('on /widgets'));
  expect(onCollection.map((t) => t.outcome)).toEqual(['skip', 'skip', 'skip', 'skip']);
  for (const t of onCollection) expect(t.skipReason).toMatch(/--allow-collection-writes \(destructive on such a server\)/);
  expect(tests.filter((t) => t.title.includes('on a widget')).map((t) => t.outcome), 'the checks on its own widget still judge').toEqual(Array(6).fill('pass'));
  expect(JSON.stringify(store.page(ACCOUNT, undefined, 100)), "the user's widgets untouched").toBe(before);
});

test('MAL-5 with --allow-collection-writes judges PUT and PATCH on /widgets, and the run leaves nothing behind', async () => {
  const { handler, collectionWrites } = recording();
  const run = await runAgainst({ handler, tokens: TOKENS }, ['--only', 'MAL-5', '--allow-collection-writes']);
  expect(run.exitCode, explain(run)).toBe(0);
  expect(collectionWrites.map((w) => w.split(' ')[0]).sort()).toEqual(['PATCH', 'PATCH', 'PUT', 'PUT']);
  const tests = run.report!.rules.find((r) => r.id === 'MAL-5')!.tests;
  expect(tests.filter((t) => t.title.includes('on /widgets')).map((t) => t.outcome)).toEqual(['pass', 'pass', 'pass', 'pass']);
  expect(run.stdout).toContain('nothing left behind');
});
