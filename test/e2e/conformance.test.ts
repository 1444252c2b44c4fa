/**
 * The suite judged against known servers: the reference must pass clean, every conformant
 * variant must pass with no MUST failure, and every faulty server must fail on its rule.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { startReferenceServer } from '../../src/reference/server.ts';
import { settingsFor } from '../servers/faults/case.ts';
import { ALL_FAULTS } from '../servers/faults/index.ts';
import { runAgainst } from '../servers/serve.ts';
import { VARIANTS } from '../servers/variants.ts';
import { ALL_BUT_PROPERTIES } from '../support/families.ts';
import { explain, outcomesOf, runSuite } from '../support/suite-runner.ts';
import { ruleById } from '../../src/rules.ts';

/** A run at concurrency 1, or beside two busy processes (a CPU-load setting of a neighbouring self-test), on a shared machine. */
const FAULT_RUN_TIMEOUT_MS = 400_000;

describe.concurrent('the suite', () => {
  test('passes the embedded reference server with no failure, warning, error or skip', async () => {
    const run = await runSuite([]);
    expect(run.exitCode, explain(run)).toBe(0);
    const notPassed = Object.entries(outcomesOf(run.report)).filter(([, o]) => o !== 'pass');
    expect(notPassed, explain(run)).toEqual([]);
    expect(run.stdout).toContain('testing the embedded reference server');
    // Test titles are identifiers (dashboards key on them): unique, and stable from run to run.
    const titles = (run.report?.rules ?? []).flatMap((r) => r.tests.map((t) => t.title));
    expect(titles.filter((title, i) => titles.indexOf(title) !== i), 'repeated test titles').toEqual([]);
    expect(titles.filter((title) => /wcs-|seed/i.test(title)), 'titles that change from run to run').toEqual([]);
  }, FAULT_RUN_TIMEOUT_MS);

  test('passes the reference server reached by --base-url, with both tokens', async () => {
    const server = await startReferenceServer();
    try {
      const run = await runSuite(['--base-url', server.baseUrl, '--token', server.tokens[0], '--second-token', server.tokens[1]]);
      expect(run.exitCode, explain(run)).toBe(0);
      expect(Object.values(outcomesOf(run.report)).every((o) => o === 'pass'), explain(run)).toBe(true);
    } finally {
      await server.close();
    }
  }, FAULT_RUN_TIMEOUT_MS);

  for (const variant of VARIANTS) {
    test(`passes the conformant variant "${variant.name}" (${variant.description})`, async () => {
      const run = await runAgainst(variant.make());
      expect(run.exitCode, explain(run)).toBe(0);
      const mustNotPassed = (run.report?.rules ?? []).filter((r) => r.level === 'MUST' && r.outcome !== 'pass');
      expect(mustNotPassed.map((r) => r.id), explain(run)).toEqual([]);
      // Every widget of the run is deleted on a conformant server, whatever it chose (FMT-4's non-UTF-8 create included).
      expect(run.stdout, explain(run)).toContain('Cleanup: nothing left behind');
      if (variant.everyRulePasses) expect(Object.entries(outcomesOf(run.report)).filter(([, o]) => o !== 'pass'), explain(run)).toEqual([]);
    }, FAULT_RUN_TIMEOUT_MS);
  }

  // Faults of non-property rules are run without the property tests, the slowest part of a
  // run: those are judged across seeds in properties.test.ts.
  const WITHOUT_PROPERTIES = ['--only', ALL_BUT_PROPERTIES];

  const scoreboard: Array<{ fault: string; expected: string; caughtBy: string; seconds: number }> = [];
  afterAll(() => {
    if (scoreboard.length === 0) return;
    const caught = scoreboard.filter((s) => s.caughtBy.split(', ').includes(s.expected)).length;
    const width = Math.max(...scoreboard.map((s) => s.fault.length));
    console.log(
      [
        `Fault catalogue: ${caught} of ${scoreboard.length} faults caught by the rule they break`,
        `${'fault'.padEnd(width)}  expected  time    caught by (failed or warned)`,
        ...scoreboard.map((s) => `${s.fault.padEnd(width)}  ${s.expected.padEnd(8)}  ${s.seconds.toFixed(1).padStart(4)} s  ${s.caughtBy || '(nothing)'}`),
      ].join('\n'),
    );
  });

  for (const [index, fault] of ALL_FAULTS.entries()) {
    const level = ruleById(fault.rule).level;
    // The same exact sets at every setting (case.ts SETTINGS): one for each fault (varied by index), all
    // for a timing-sensitive one. No state of an earlier run takes part (run-vitest.ts: no results cache).
    for (const setting of settingsFor(fault, index)) {
      test(`catches the fault "${fault.name}" (${fault.description}) on ${fault.rule}, ${setting.label}`, async () => {
        const run = await runAgainst(fault.make(), [...(fault.rule.startsWith('PROP-') ? [] : WITHOUT_PROPERTIES), ...(fault.args ?? []), ...setting.args], { load: setting.load === true });
        const outcomes = outcomesOf(run.report);
        const caughtBy = Object.entries(outcomes).filter(([, o]) => o === 'fail' || o === 'warn').map(([id]) => id).join(', ');
        scoreboard.push({ fault: `${fault.name} (${setting.label})`, expected: fault.rule, caughtBy, seconds: run.seconds });
        const outcome = outcomes[fault.rule];
        if (level === 'MUST') {
          expect(outcome, explain(run)).toBe('fail');
          expect(run.exitCode, explain(run)).toBe(1);
        } else {
          expect(outcome, explain(run)).toBe('warn');
        }
        // The exact sets: no collateral failure the fault does not explain (case.ts).
        const broken = Object.entries(outcomes).filter(([, o]) => o === 'fail' || o === 'warn').map(([id]) => id).sort();
        const expectedBroken = [fault.rule, ...Object.keys(fault.alsoBreaks ?? {}), ...Object.keys(fault.wrongBlame ?? {})].sort();
        expect(broken, `rules failed or warned\n${explain(run)}`).toEqual(expectedBroken);
        const inconclusive = Object.entries(outcomes).filter(([, o]) => o === 'inconclusive').map(([id]) => id).sort();
        expect(inconclusive, `rules inconclusive\n${explain(run)}`).toEqual(Object.keys(fault.inconclusive ?? {}).sort());
        for (const [id, by] of Object.entries(fault.inconclusive ?? {})) {
          expect(run.report?.rules.find((r) => r.id === id)?.inconclusive?.explainedBy, `${id} explained by ${by}`).toContain(by);
        }
        // A deterministic fault is never called intermittent.
        if (!fault.timing) expect(run.report?.rules.filter((r) => r.intermittent).map((r) => r.id), explain(run)).toEqual([]);
        // The message names the difference: expected beside received, for a failure or a warning.
        const own = run.report?.rules.find((r) => r.id === fault.rule);
        const named = (own?.tests ?? []).some((t) => (t.failures ?? []).some((f) => !!f.expected && !!f.received) || (t.warnings ?? []).some((w) => /expected: .+\| received: ./.test(w)));
        expect(named, `${fault.rule}'s message puts the expectation beside what was received\n${explain(run)}`).toBe(true);
        if (level === 'SHOULD') {
          const mustBroken = broken.some((id) => ruleById(id).level === 'MUST');
          expect(run.exitCode, explain(run)).toBe(mustBroken ? 1 : 0);
        }
      }, FAULT_RUN_TIMEOUT_MS);
    }
  }
});
