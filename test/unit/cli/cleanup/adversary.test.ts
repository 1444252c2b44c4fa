/**
 * Generated adversaries for `cleanup` (cleanJournal, in-process): a killed run's journal, then
 * cleanup with what a user or a deployment gets wrong, drawn by fast-check: another target or
 * none recorded, swapped, missing or refused tokens, a base URL whose every path 404s, torn or
 * foreign lines, a directory or a symbolic link in the journal's place (a FIFO: the e2e tier), ids holding a short token or terminal controls,
 * a proxy's 404 or a 500 for some retrieves, widgets gone behind the run's back.
 * Property: nothing the run did not create is changed or deleted; nothing is claimed gone that
 * is not gone; the journal survives unless every journalled widget is gone; every widget of the
 * run left is listed by id (escaped as the console escapes it) unless cleanup refused at once
 * (exit 2, one line, nothing sent); no raw control reaches the console.
 * WIDGET_ADVERSARY_RUNS (40 by default here) and WIDGET_ADVERSARY_SEED as in the run's adversary.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { consoleSafe } from '../../../../src/report/console.ts';
import { cleanup, closeAll, killedRun } from './killed-run.ts';

afterEach(closeAll);

const RUNS = Math.max(1, Math.floor(Number(process.env.WIDGET_ADVERSARY_RUNS ?? 160) / 4));
const SEED = process.env.WIDGET_ADVERSARY_SEED === undefined ? undefined : Number(process.env.WIDGET_ADVERSARY_SEED);
/** Short tokens: below the fuzzy length, matched exactly, so ids can hold them whole. */
const TOKENS = ['tq7x', 'zv4k'] as const;

const IDS: Record<string, (n: number) => string> = {
  plain: (n) => `w${n}`,
  'holds-token': (n) => `w${TOKENS[n % 2]}${n}`,
  controls: (n) => `w${n}\u009b\u007f\u202e\u2066`,
  spaces: (n) => `w ${n}`,
};

const scenario = fc.record({
  ids: fc.constantFrom(...Object.keys(IDS)),
  creates: fc.integer({ min: 0, max: 3 }),
  others: fc.integer({ min: 0, max: 2 }),
  target: fc.constantFrom('same', 'other', 'none', 'none-trusted'),
  tokens: fc.constantFrom('right', 'swapped', 'primary-only', 'second-refused', 'primary-is-second'),
  baseUrl: fc.constantFrom('right', 'everything-404'),
  journal: fc.constantFrom('whole', 'torn-tail', 'foreign-line', 'directory', 'symlink'),
  retrieves: fc.constantFrom('honest', 'proxy-404-one', '500-one'),
  goneBehind: fc.boolean(),
});

describe('generated adversaries for cleanup', () => {
  it(`CRUD-3 cleanup changes nothing the run did not create, claims nothing unproven, keeps the journal unless all is gone, lists every leftover (${RUNS} generated cases)`, async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const ran = await killedRun({ tokens: TOKENS, ids: IDS[s.ids], creates: s.creates, others: s.others, ...(s.target === 'other' ? { target: 'https://elsewhere.example/v1' } : s.target.startsWith('none') ? { target: null } : {}) });
        const before = new Map([...ran.store.widgets].flatMap(([account, m]) => [...m.values()].map((w) => [`${account}\n${w.id}`, JSON.stringify(w)] as const)));
        if (s.goneBehind && ran.made[0]) ran.store.widgets.get(ran.made[0].account)!.delete(ran.made[0].id);
        if (s.retrieves === 'proxy-404-one' && ran.made[1]) ran.store.faults.proxy404 = new Set([ran.made[1].id]);
        if (s.retrieves === '500-one' && ran.made[1]) ran.store.faults.retrieve500 = new Set([ran.made[1].id]);
        if (s.baseUrl === 'everything-404') ran.store.faults.everything404 = true;
        if (s.journal === 'torn-tail') appendFileSync(ran.file, '{"kind":"created","account":"primary","key":"k","id":"w');
        if (s.journal === 'foreign-line') writeFileSync(ran.file, `${readFileSync(ran.file, 'utf8')}{"kind":"created","account":"third","key":"k","id":"x"}\n`);
        if (s.journal === 'directory' || s.journal === 'symlink') {
          renameSync(ran.file, `${ran.file}.real`);
          if (s.journal === 'directory') mkdirSync(ran.file);
          else symlinkSync(`${ran.file}.real`, ran.file);
        }
        const tokens: readonly [string, string | undefined] =
          s.tokens === 'swapped' ? [TOKENS[1], TOKENS[0]]
          : s.tokens === 'primary-only' ? [TOKENS[0], undefined]
          : s.tokens === 'second-refused' ? [TOKENS[0], 'refused-token']
          : s.tokens === 'primary-is-second' ? [TOKENS[1], undefined]
          : TOKENS;
        const { code, said } = await cleanup(ran, { tokens, ...(s.target === 'none-trusted' ? { trustBaseUrl: true } : {}) });
        ran.store.faults.everything404 = false;
        const report = `${JSON.stringify(s)}\n${said}`;

        // Nothing the run did not create is changed or deleted.
        for (const d of ran.store.deletes) expect(ran.made.some((m) => m.account === d.account && m.id === d.id), `deleted ${d.id}, not the run's\n${report}`).toBe(true);
        for (const o of ran.others) expect(JSON.stringify(ran.store.widgets.get(o.account)!.get(o.id)), report).toBe(before.get(`${o.account}\n${o.id}`));
        // No raw control reaches the console.
        expect(said, report).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
        const left = ran.made.filter((m) => ran.store.widgets.get(m.account)!.has(m.id));
        const gone = ran.made.length - left.length;
        // Nothing claimed gone that is not gone.
        const claimed = /(\d+) of (\d+) journalled widget\(s\) proven gone/.exec(said);
        if (claimed) expect(Number(claimed[1]), `claimed more gone than are\n${report}`).toBeLessThanOrEqual(gone);
        // The journal survives unless everything is gone (and then only with exit 0).
        const special = s.journal === 'directory' || s.journal === 'symlink';
        const removed = !special && !existsSync(ran.file);
        if (removed || code === 0) {
          expect(left, `journal removed or exit 0 while the run's widgets remain\n${report}`).toEqual([]);
          expect([removed, code]).toEqual([true, 0]);
        }
        if (code === 2) {
          // Refused at once: one line, nothing sent.
          expect(said.split('\n'), report).toHaveLength(1);
          expect(ran.store.deletes, report).toEqual([]);
        } else {
          for (const m of left) expect(said, `${m.id} left and not listed\n${report}`).toContain(consoleSafe(JSON.stringify(m.id)));
        }
        // Refusals the scenario calls for.
        if (special || s.target === 'other' || s.target === 'none') expect(code, report).toBe(2);
        if (s.journal !== 'whole') expect(code, report).not.toBe(0);
      }),
      { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
    );
  }, 60_000 + RUNS * 2_000);
});
