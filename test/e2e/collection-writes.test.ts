/**
 * MAL-5 sends PUT and PATCH to /widgets only into an account that held nothing before the run:
 * a server could take them for "replace or change them all". Against an account holding a
 * user's widgets, no PUT or PATCH on /widgets reaches the server, those checks are skipped with
 * the reason, the checks on the suite's own widgets still judge, and the user's widgets are
 * untouched.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { expect, test } from 'vitest';
import { prefilledStore } from '../../src/reference/prefill.ts';
import { DEFAULT_TOKENS, ReferenceService } from '../../src/reference/service.ts';
import { TOKENS } from '../servers/support.ts';
import { runAgainst } from '../servers/serve.ts';
import { explain } from '../support/suite-runner.ts';

const ACCOUNT = Object.values(DEFAULT_TOKENS)[0]!;

test('MAL-5 never sends PUT or PATCH on /widgets into an account that held widgets before the run', async () => {
  const store = prefilledStore(ACCOUNT, 5);
  const before = JSON.stringify(store.page(ACCOUNT, undefined, 100));
  const service = new ReferenceService({ store });
  const collectionWrites: string[] = [];
  const handler = {
    handle(req: IncomingMessage, res: ServerResponse) {
      if ((req.method === 'PUT' || req.method === 'PATCH') && /\/widgets\/?(\?|$)/.test(req.url ?? '')) collectionWrites.push(`${req.method} ${req.url}`);
      return service.handle(req, res);
    },
  };
  const run = await runAgainst({ handler, tokens: TOKENS }, ['--only', 'MAL-5']);
  expect(run.exitCode, explain(run)).toBe(0);
  expect(collectionWrites, 'PUT or PATCH on /widgets sent').toEqual([]);
  const tests = run.report!.rules.find((r) => r.id === 'MAL-5')!.tests;
  const onCollection = tests.filter((t) => t.title.includes('on /widgets'));
  expect(onCollection.map((t) => t.outcome)).toEqual(['skip', 'skip', 'skip', 'skip']);
  for (const t of onCollection) expect(t.skipReason).toMatch(/held widgets before the run/);
  expect(tests.filter((t) => t.title.includes('on a widget')).map((t) => t.outcome), 'the checks on its own widgets still judge').toEqual(Array(6).fill('pass'));
  expect(JSON.stringify(store.page(ACCOUNT, undefined, 100)), "the user's widgets untouched").toBe(before);
});
