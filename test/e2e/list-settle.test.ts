/**
 * Lists that catch up late (docs/profile.md): a server whose lists read a replica trailing writes
 * by LAG_MS fails the rules that judge "listed" and "no longer listed", each failure saying when
 * the list caught up; with --list-settle-ms above the lag every rule passes and every report
 * states the window; a replica that never shows a created widget fails the same rules within the window too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { lagging } from '../servers/lagging.ts';
import { runAgainst } from '../servers/serve.ts';
import { explain, outcomesOf } from '../support/suite-runner.ts';

/**
 * The replica's lag: well above the time from a create to the list after it on a busy machine
 * (a shorter lag may pass unseen: the list has caught up before it is read), well below the window.
 */
const LAG_MS = 1_200;
const WINDOW_MS = 4_000;
/** The window a replica that never catches up is given: shorter, since every failing look waits it out. */
const NEVER_WINDOW_MS = 1_000;
/**
 * The rules that judge whether a list reflects a create or a delete. PAGE-4 among them: a list
 * that does not show the suite's widgets yet has no more to show, so has_more false is all it can say.
 */
const LIST_RULES = ['DEL-1', 'PAGE-3', 'PAGE-4', 'PROP-1', 'PROP-3'];
const ARGS = ['--seed', '11', '--runs', '3'];

const failing = (run: Awaited<ReturnType<typeof runAgainst>>): string[] =>
  Object.entries(outcomesOf(run.report)).filter(([, o]) => o === 'fail' || o === 'warn').map(([id]) => id);

describe.concurrent('a list that catches up late', () => {
  test('DEL-1 PAGE-3 PAGE-4 PROP-1 PROP-3 fail without a settle window, each saying when the list caught up', async () => {
    const run = await runAgainst(lagging(LAG_MS), ARGS);
    expect(run.exitCode, explain(run)).toBe(1);
    expect(failing(run), explain(run)).toEqual(LIST_RULES);
    const messages = JSON.stringify(run.report?.rules.filter((r) => LIST_RULES.includes(r.id)));
    expect(messages).toMatch(/appeared in the list \d+ ms after create/);
    expect(messages).toMatch(/left the list \d+ ms after delete/);
    const lag = run.report?.profile?.entries.find((e) => e.key === 'list.lag.create');
    expect(lag?.value, explain(run)).toMatch(/^late: up to \d+ ms$/);
  });

  test(`DEL-1 PAGE-3 PAGE-4 PROP-1 PROP-3 pass with --list-settle-ms ${WINDOW_MS}, and every report states the window`, async () => {
    const run = await runAgainst(lagging(LAG_MS), [...ARGS, '--list-settle-ms', String(WINDOW_MS)]);
    expect(run.exitCode, explain(run)).toBe(0);
    expect(failing(run), explain(run)).toEqual([]);
    const line = `settle window of ${WINDOW_MS} ms`;
    expect(run.stdout).toMatch(new RegExp(`^Verdict: CONFORMANT.*; lists judged with a ${line}$`, 'm'));
    for (const file of ['conformance.md', 'conformance.html', 'junit.xml']) expect(readFileSync(join(run.reportDir, file), 'utf8'), file).toContain(line);
    expect(run.report?.profile?.listSettleMs).toBe(WINDOW_MS);
    expect(run.report?.profile?.entries.find((e) => e.key === 'list.lag.create')?.value, explain(run)).toMatch(/^late: up to \d+ ms$/);
    expect(run.report?.profile?.entries.find((e) => e.key === 'list.lag.delete')?.value, explain(run)).toMatch(/^late: up to \d+ ms$/);
  });

  test(`PAGE-3 PAGE-4 PROP-1 PROP-3 still fail within --list-settle-ms ${NEVER_WINDOW_MS} when the list never shows a created widget`, async () => {
    // Deletes are immediate here (a widget never listed is not held after its delete): DEL-1 has nothing to judge late.
    const run = await runAgainst(lagging(Number.POSITIVE_INFINITY, 0), [...ARGS, '--list-settle-ms', String(NEVER_WINDOW_MS)]);
    expect(run.exitCode, explain(run)).toBe(1);
    expect(failing(run), explain(run)).toEqual(['PAGE-3', 'PAGE-4', 'PROP-1', 'PROP-3']);
    for (const id of ['PAGE-3', 'PAGE-4', 'PROP-1', 'PROP-3']) {
      expect(JSON.stringify(run.report?.rules.find((r) => r.id === id)), id).toMatch(/still not listed after \d/);
    }
    expect(run.report?.profile?.entries.find((e) => e.key === 'list.lag.create')?.value, explain(run)).toMatch(/^never within \d/);
  });
});
