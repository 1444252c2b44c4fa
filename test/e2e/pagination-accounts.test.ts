/**
 * Faults that hide from checks of the suite's own widgets (issue 11): a keyset cursor that skips
 * pre-existing widgets sharing a timestamp (PAGE-3), offset pages over an account that already
 * holds widgets, in both orders (PAGE-7), member names that differ from `name` only in case or
 * normalisation (MAL-1), a page far over the body cap (PAGE-1, the run not ended as unreachable).
 * Each asserts the exact sets of failed, warned and inconclusive rules, and that the message names
 * the difference; conformant servers over pre-existing widgets in several orders still pass.
 */
import { describe, expect, test } from 'vitest';
import { MEMBER_NAME_FAULTS, PAGE_ACCOUNT_FAULTS, PRE_EXISTING, PRE_EXISTING_VARIANTS } from '../servers/faults/page-accounts.ts';
import type { FaultCase } from '../servers/faults/case.ts';
import { runAgainst } from '../servers/serve.ts';
import { ALL_BUT_PROPERTIES } from '../support/families.ts';
import { explain, type SuiteRun } from '../support/suite-runner.ts';

const WITHOUT_PROPERTIES = ['--only', ALL_BUT_PROPERTIES];

/** Rule ids by outcome; an inconclusive rule shows as `error` until reports name it (or as `inconclusive`). */
function verdicts(run: SuiteRun): { fail: string[]; warn: string[]; inconclusive: string[] } {
  const rules = run.report?.rules ?? [];
  const ids = (...outcomes: string[]): string[] => rules.filter((r) => outcomes.includes(r.outcome)).map((r) => r.id).sort();
  return { fail: ids('fail'), warn: ids('warn'), inconclusive: ids('error', 'inconclusive') };
}

/** Every message of a rule's tests: failures, errors and warnings. */
function messagesOf(run: SuiteRun, id: string): string {
  const rule = run.report?.rules.find((r) => r.id === id);
  return (rule?.tests ?? []).flatMap((t) => [...(t.failures ?? []).map((f) => f.message), ...(t.errors ?? []), ...(t.warnings ?? [])]).join('\n');
}

const fault = (name: string): FaultCase => [...PAGE_ACCOUNT_FAULTS, ...MEMBER_NAME_FAULTS].find((f) => f.name === name) as FaultCase;

describe.concurrent('whole-account pagination and member names', () => {
  test(`PAGE-3 fails a keyset cursor that skips ${PRE_EXISTING} pre-existing widgets sharing a timestamp; PAGE-7 is inconclusive for PAGE-3's reason`, async () => {
    const run = await runAgainst(fault('timestamp-cursor-skips-ties').make(), WITHOUT_PROPERTIES);
    expect(verdicts(run), explain(run)).toEqual({ fail: ['PAGE-3'], warn: [], inconclusive: ['PAGE-7'] });
    expect(run.exitCode, explain(run)).toBe(1);
    expect(messagesOf(run, 'PAGE-3'), explain(run)).toMatch(/missing from both walks at limit 1 .*a retrieve still shows them/);
    expect(messagesOf(run, 'PAGE-7'), explain(run)).toContain('depends on PAGE-3, which this server breaks');
  });

  test('PAGE-3 fails on what PAGE-7\'s own quiet walk shows, even when only PAGE-7 is selected (evidence belongs to its rule)', async () => {
    const run = await runAgainst(fault('timestamp-cursor-skips-ties').make(), ['--only', 'PAGE-7']);
    expect(verdicts(run), explain(run)).toEqual({ fail: ['PAGE-3'], warn: [], inconclusive: ['PAGE-7'] });
    expect(run.exitCode, explain(run)).toBe(1);
    expect(messagesOf(run, 'PAGE-3'), explain(run)).toMatch(/widget\(s\) seen in another walk and still retrievable are missing|widget\(s\) the suite created are missing/);
  });

  for (const name of ['offset-newest-first-pre-existing', 'offset-oldest-first-pre-existing']) {
    test(`PAGE-7 warns on ${name}, and nothing else fails`, async () => {
      const run = await runAgainst(fault(name).make(), WITHOUT_PROPERTIES);
      expect(verdicts(run), explain(run)).toEqual({ fail: [], warn: ['PAGE-7'], inconclusive: [] });
      expect(run.exitCode, explain(run)).toBe(0);
      expect(messagesOf(run, 'PAGE-7'), explain(run)).toMatch(/(seen twice \[|[1-9]\d* missing \[)/);
    });

    test(`PAGE-7 fails on ${name} under --strict`, async () => {
      const run = await runAgainst(fault(name).make(), ['--only', 'PAGE', '--strict']);
      expect(verdicts(run), explain(run)).toEqual({ fail: ['PAGE-7'], warn: [], inconclusive: [] });
      expect(run.exitCode, explain(run)).toBe(1);
    });
  }

  for (const name of ['member-names-case-folded', 'member-names-nfkc']) {
    test(`MAL-1 fails ${name}, and nothing else fails or warns`, async () => {
      const run = await runAgainst(fault(name).make(), ['--only', 'MAL,CRUD,FMT']);
      expect(verdicts(run), explain(run)).toEqual({ fail: ['MAL-1'], warn: [], inconclusive: [] });
      expect(messagesOf(run, 'MAL-1'), explain(run)).toMatch(name.endsWith('nfkc') ? /name-fullwidth/ : /name-capitalised/);
    });
  }

  test('PAGE-1 fails a page far over the body cap for limit=1, judged from the part read; the run is not ended as unreachable', async () => {
    const run = await runAgainst(fault('oversize-page-at-limit-1').make(), WITHOUT_PROPERTIES);
    // AUTH-6 lists at limit 1 too, while its account holds AUTH-4's widget alone (one widget for
    // every credential: a page of 2 MiB, under the cap), so it is judged, and passes.
    expect(verdicts(run), explain(run)).toEqual({ fail: ['PAGE-1'], warn: [], inconclusive: ['PAGE-3'] });
    expect(run.exitCode, explain(run)).toBe(1);
    expect(run.stdout + run.stderr).not.toContain('cannot reach the target');
    expect(messagesOf(run, 'PAGE-1'), explain(run)).toMatch(/complete widgets in the part read of a body larger than the cap/);
    expect(messagesOf(run, 'PAGE-3'), explain(run)).toContain('PAGE-1 reports why');
  });

  for (const variant of PRE_EXISTING_VARIANTS) {
    test(`PAGE-3 and PAGE-7 pass the conformant variant "${variant.name}" (${variant.description})`, async () => {
      const run = await runAgainst(variant.make(), WITHOUT_PROPERTIES);
      expect(verdicts(run), explain(run)).toEqual({ fail: [], warn: [], inconclusive: [] });
      expect(run.exitCode, explain(run)).toBe(0);
    });
  }
});
