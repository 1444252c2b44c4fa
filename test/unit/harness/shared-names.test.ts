/**
 * What several tests share (a widget one of them makes for all) is named and drawn the same
 * whichever test makes it (RuleContext.shared), so a rerun with the seed sends the same requests;
 * its number never meets a test's own names' (rule.ts nameNumber).
 */
import { describe, expect, it } from 'vitest';
import type { RunContext } from '../../../src/harness/context.ts';
import { makeRuleContext, nameNumber, NAME_SLOTS } from '../../../src/harness/rule.ts';
import { tagsIn } from '../../../src/harness/marker.ts';
import { ruleById } from '../../../src/rules.ts';
import { Redactor } from '../../../src/shared/redact.ts';

const MARKER = 'wcs-abcdefghijklmn';

function contextOf(rule: string, title: string, slot: number): ReturnType<typeof makeRuleContext> {
  const redactor = new Redactor([]);
  const run = { settings: { marker: MARKER, keepFailing: false, seed: 7 }, primary: { http: { redactor } }, http: { redactor } } as unknown as RunContext;
  return makeRuleContext(ruleById(rule), run, { skip: async () => { throw new Error('skipped'); }, annotate: async () => undefined as never, seen: [], used: new Set(), title, slot, observed: { checks: 0 } });
}

describe('shared names', () => {
  it('are the same from any test, under the rule that names them, with the same random draws', () => {
    const a = contextOf('AUTH-2', 'AUTH-2 one test', 3).shared(4, 'AUTH-3');
    const b = contextOf('AUTH-3', 'AUTH-3 another test', 17).shared(4, 'AUTH-3');
    expect(a.name).toBe(`${MARKER} AUTH-3 4`);
    expect(b.name).toBe(a.name);
    expect(a.random.hex(8)).toBe(b.random.hex(8));
    expect(contextOf('AUTH-4', 'AUTH-4 x', 0).shared(0).name).toBe(`${MARKER} AUTH-4 0`);
    // A tag of the run, as every name the suite gives.
    expect(tagsIn({ name: a.name }, MARKER)).toEqual([a.name]);
  });

  it('never meet a test\'s own names, and refuse a number a test\'s name could take or a rule the catalogue lacks', () => {
    const t = contextOf('AUTH-4', 'AUTH-4 x', 0);
    expect(Number(t.name().split(' ').at(-1))).toBe(nameNumber(1, 0));
    expect(nameNumber(1, 0)).toBeGreaterThanOrEqual(NAME_SLOTS);
    expect(() => t.shared(NAME_SLOTS)).toThrow(/from 0 to 99/);
    expect(() => t.shared(-1)).toThrow(/from 0 to 99/);
    expect(() => t.shared(0, 'AUTH-99')).toThrow(/unknown rule id/);
  });
});
