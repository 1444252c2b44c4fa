/**
 * Reproduction end to end: a run against a faulty server gives every failure a curl command
 * per exchange that names $WIDGET_TOKEN (never its value) in conformance.json, the console, the
 * Markdown and the HTML, and writes exchanges.har valid against schemas/har.schema.json.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Redactor } from '../../src/http/redact.ts';
import { formatIssues, validateSchema } from '../../src/schema.ts';
import { CRUD_FAULTS } from '../servers/faults/crud.ts';
import { runAgainst } from '../servers/serve.ts';
import { TOKENS } from '../servers/support.ts';
import { explain } from '../support/suite-runner.ts';

const fault = CRUD_FAULTS.find((f) => f.name === 'retrieve-drops-description')!;

describe('replay', () => {
  test('every failure carries a curl command per exchange naming $WIDGET_TOKEN, no token value anywhere, and exchanges.har is valid HAR 1.2', async () => {
    const run = await runAgainst(fault.make(), ['--only', 'CRUD,AUTH']);
    expect(run.exitCode, explain(run)).toBe(1);
    const failures = run.report!.rules.flatMap((r) => r.tests.flatMap((t) => t.failures ?? []));
    expect(failures.length, explain(run)).toBeGreaterThan(0);
    for (const f of failures) {
      expect(f.curl?.length, f.message).toBe(f.exchanges?.length);
      for (const command of f.curl ?? []) {
        expect(command).toMatch(/--path-as-is/);
        expect(command).toContain('"${WIDGET_TOKEN}"');
      }
    }
    const files = ['conformance.json', 'conformance.md', 'conformance.html', 'junit.xml', 'exchanges.har'].map((f) => readFileSync(join(run.reportDir, f), 'utf8'));
    const [, markdown, html] = files;
    expect(markdown).toContain('"${WIDGET_TOKEN}"');
    expect(html).toContain('<pre class="curl"');
    // The failure messages (the console's) come through vitest's reporter, on either stream.
    expect(run.stdout + run.stderr).toContain('"${WIDGET_TOKEN}"');
    expect(run.stdout).toMatch(/Reports: .*exchanges\.har/);
    expect(run.stdout).toMatch(/^Replay: .*export WIDGET_TOKEN/m);
    // Every spelling the redactor knows, in every output: none may hold a token.
    const spellings = new Redactor(TOKENS);
    for (const text of [...files, run.stdout, run.stderr]) expect(spellings.text(text)).toBe(text);
    const har = JSON.parse(files[4]!) as { log: { entries: Array<{ _id?: string }> } };
    const issues = validateSchema('har', har);
    expect(issues, formatIssues(issues)).toEqual([]);
    // Every exchange of every failure, then the profile's evidence, each with its _id (report/har.ts).
    const evidence = (run.report?.profile?.evidence ?? []).length;
    expect(har.log.entries.filter((e) => e._id === undefined).length, 'failure exchanges').toBe(failures.flatMap((f) => f.exchanges ?? []).length);
    expect(har.log.entries.filter((e) => e._id !== undefined).length, 'profile evidence').toBe(evidence);
  });
});
