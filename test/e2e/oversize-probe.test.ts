/**
 * PAGE-1: a server whose every list answer is far over the body cap, the probe's first list
 * included, is judged from the bounded prefix the suite reads: PAGE-1 fails with the prefix as
 * evidence, and the run never ends as "cannot reach the target".
 */
import { expect, test } from 'vitest';
import { oversizeEveryList } from '../servers/oversize.ts';
import { runAgainst } from '../servers/serve.ts';
import { ALL_BUT_PROPERTIES } from '../support/families.ts';
import { explain, type SuiteRun } from '../support/suite-runner.ts';

function verdicts(run: SuiteRun): { fail: string[]; warn: string[]; inconclusive: string[] } {
  const rules = run.report?.rules ?? [];
  const ids = (...outcomes: string[]): string[] => rules.filter((r) => outcomes.includes(r.outcome)).map((r) => r.id).sort();
  return { fail: ids('fail'), warn: ids('warn'), inconclusive: ids('error', 'inconclusive') };
}

test('PAGE-1 fails a server whose every list (the probe\'s too) is far over the body cap, judged from the part read; the run is not ended as unreachable', { timeout: 240_000 }, async () => {
  const run = await runAgainst(oversizeEveryList(), ['--only', ALL_BUT_PROPERTIES]);
  expect(run.stdout + run.stderr).not.toContain('cannot reach the target');
  expect(run.exitCode, explain(run)).toBe(1);
  // Only PAGE-1 is blamed: the checks whose lists could not be read whole say so (inconclusive), never fail.
  const { fail, warn, inconclusive } = verdicts(run);
  expect({ fail, warn }, explain(run)).toEqual({ fail: ['PAGE-1'], warn: [] });
  expect(inconclusive, explain(run)).toEqual(expect.arrayContaining(['FMT-1', 'PAGE-3']));
  const page1 = run.report!.rules.find((r) => r.id === 'PAGE-1')!;
  const messages = page1.tests.flatMap((t) => (t.failures ?? []).map((f) => f.message)).join('\n');
  expect(messages, explain(run)).toMatch(/complete widgets in the part read of a body larger than the cap/);
});
