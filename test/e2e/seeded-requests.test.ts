/**
 * Every random choice of a run comes from --seed (src/harness/random.ts): two runs of the same
 * tests with the same seed send the same requests, modulo the run marker (random per run, on
 * purpose: one run's cleanup must never take another run's widgets for its own) and what the
 * server chose (its ids, the cursors it issued). A third run with another seed sends others: the
 * comparison can fail. In the end-to-end tier because it runs the suite itself, as a user does,
 * against the reference server behind a recorder of every request it receives.
 */
import { describe, expect, test } from 'vitest';
import { startServer } from '../../src/reference/server.ts';
import { ReferenceService } from '../../src/reference/service.ts';
import { recordingHandler, type LoggedRequest } from '../../tools/request-log.ts';
import { explain, runSuite } from '../support/suite-runner.ts';

/**
 * Tests whose requests hold made-up values: unknown tokens, unknown and foreign ids, cursors of
 * every shape, generated names and descriptions. PAGE-8's cursors derived from the server's own
 * are left out by the filter: they are the server's choice, not the seed's.
 */
const ARGS = ['--only', 'PAGE-8,AUTH-2,AUTH-4,AUTH-5,CRUD-5,ISO-2', '--test', "/^(?![\\s\\S]*account's own cursor)/", '--concurrency', '4'];

/** The requests of a log as comparable text: marker, the server's ids and its cursors masked, sorted (tests run concurrently). */
function normalised(log: readonly LoggedRequest[]): string[] {
  const cursors = [...new Set(log.flatMap((e) => (e.cursor ? [e.cursor] : [])))];
  const mask = (text: string): string => {
    let out = text.replace(/wcs-[a-z2-7]{14}/g, '<marker>').replace(/wgt_[0-9a-z]{20}/g, '<id>');
    for (const c of cursors) out = out.split(c).join('<cursor>').split(encodeURIComponent(c)).join('<cursor>');
    return out;
  };
  return log.map((e) => mask(`${e.method} ${e.target} ${JSON.stringify(e.headers)} ${e.body === undefined ? '' : Buffer.from(e.body, 'base64').toString('utf8')}`)).sort();
}

/** The requests of `a` that `b` does not hold as often (a multiset difference). */
function surplus(a: readonly string[], b: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const r of b) left.set(r, (left.get(r) ?? 0) + 1);
  return a.filter((r) => {
    const n = left.get(r) ?? 0;
    left.set(r, n - 1);
    return n <= 0;
  });
}

describe('--seed', () => {
  test('two runs with the same seed send the same requests (modulo marker, ids and cursors); another seed sends others', async () => {
    const service = new ReferenceService();
    let log: LoggedRequest[] = [];
    const running = await startServer({ handle: (req, res) => recordingHandler(service, log).handle(req, res) });
    const [token, second] = Object.keys(service.tokens);
    const env = { WIDGET_TOKEN: token!, WIDGET_SECOND_TOKEN: second! };
    const requestsOf = async (seed: number): Promise<string[]> => {
      log = [];
      const run = await runSuite(['--base-url', running.baseUrl, ...ARGS, '--seed', String(seed)], { env });
      expect(run.exitCode, explain(run)).toBe(0);
      return normalised(log);
    };
    try {
      const first = await requestsOf(4242);
      const again = await requestsOf(4242);
      const other = await requestsOf(4243);
      expect(first.length).toBeGreaterThan(50);
      // What one run sent more often than the other, rather than two long arrays.
      expect(surplus(again, first), 'sent by the second run with the same seed, not by the first').toEqual([]);
      expect(surplus(first, again), 'sent by the first run, not by the second with the same seed').toEqual([]);
      expect(other).not.toEqual(first);
      // What the seed decides is in the requests: an unknown token, a made-up cursor, a foreign id.
      expect(first.filter((r) => /wcs-unknown-[0-9a-f]{24}|wcs-not-a-cursor-[0-9a-f]{16}|wcs-unknown-[0-9a-f]{16}/.test(r)).length).toBeGreaterThan(3);
    } finally {
      await running.close();
    }
  });
});
