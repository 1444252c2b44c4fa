/**
 * A poisoned account (issue 36): a server that stores the bytes of FMT-4's create of a name that is
 * not UTF-8 as they came (Sinatra) and then answers 500 to every list of the account is never
 * called conformant. Accepting the bytes breaks no rule (RFC 8259 §8.2); the list that fails after
 * it breaks PAGE-6, and the failure names the create that poisoned the account: FMT-4's, the bytes
 * it sent, and the first 500 after it. The exact set of failed rules is PAGE-6 alone.
 */
import { describe, expect, test } from 'vitest';
import { STATE_FAULTS } from '../servers/faults/attribution.ts';
import { runAgainst } from '../servers/serve.ts';
import { explain, outcomesOf } from '../support/suite-runner.ts';

describe('an account poisoned by a create the server accepted', () => {
  test('PAGE-6 fails, naming FMT-4\'s create (the bytes sent) and the first 500 after it; FMT-4 has no Error object to judge; the verdict is NOT CONFORMANT', async () => {
    const fault = STATE_FAULTS.find((f) => f.name === 'stores-invalid-utf8')!;
    const run = await runAgainst(fault.make(), ['--only', 'PAGE-6,FMT-4,CRUD-1']);
    expect(run.exitCode, explain(run)).toBe(1);
    const outcomes = outcomesOf(run.report);
    expect(Object.entries(outcomes).filter(([, o]) => o === 'fail' || o === 'warn').map(([id]) => id), explain(run)).toEqual(['PAGE-6']);
    // FMT-4's create was accepted: no Error object for it to judge, said as such.
    const fmt4 = run.report!.rules.find((r) => r.id === 'FMT-4')!.tests.find((t) => t.title.includes('not UTF-8'))!;
    expect(fmt4.outcome).toBe('skip');
    expect(fmt4.skipReason).toBe("the server accepted a name that is not UTF-8 (bytes FF FE) with 201: no Error object for FMT-4 to judge; the list that then answered 500 is PAGE-6's failure");
    expect(run.report?.verdict).toBe('not-conformant');
    const page6 = run.report!.rules.find((r) => r.id === 'PAGE-6')!;
    const seen = page6.tests.find((t) => t.seenBy !== undefined)!;
    expect(seen.title).toBe('PAGE-6 violation seen by the test "FMT-4 the Error object for a create whose body is not UTF-8 has a non-empty code and message"');
    const failure = seen.failures![0]!;
    expect(failure.received).toMatch(/^500 .*to the first list after a create that poisoned the account$/);
    expect(failure.note).toMatch(/^the create that poisoned it: FMT-4's check sent a name whose text ends in the bytes FF FE, which are not UTF-8; the server accepted a name that is not UTF-8 \(bytes FF FE\) with 201/);
    expect(failure.exchanges?.map((x) => `${x.request.method} ${x.response?.status}`)).toEqual(['POST 201', 'GET 500']);
    // The console says it beside the failure, not only in a cleanup line.
    expect(run.stdout).toMatch(/✗ FAIL PAGE-6 /);
    expect(run.stdout).toContain('the create that poisoned it: FMT-4');
    expect(run.stdout).toMatch(/^Verdict: NOT CONFORMANT: 1 rule failed: PAGE-6$/m);
  });
});
