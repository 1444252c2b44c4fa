/**
 * The suite against hostile servers (test/servers/hostile.ts), with a short --timeout and a
 * small retry budget. For each: the right exit code, the one-line reason, an end within the
 * stated bound, no stack trace, no token anywhere in the output or the reports.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { startServer } from '../../src/reference/server.ts';
import { HOSTILE, MORE_HOSTILE } from '../servers/hostile.ts';
import { TOKENS } from '../servers/support.ts';
import { ALL_BUT_PROPERTIES } from '../support/families.ts';
import { credentialForms } from '../support/credential-forms.ts';
import { explain, outcomesOf, reportTexts, runSuite } from '../support/suite-runner.ts';

const TIMEOUT_MS = 1000;
const MAX_RETRIES = 2;
const MAX_RETRY_WAIT_MS = 1000;
const MAX_RATE_LIMIT_WAIT_MS = 3000;
const args = (timeoutMs: number): string[] => ['--timeout', String(timeoutMs), '--max-retries', String(MAX_RETRIES), '--max-retry-wait', String(MAX_RETRY_WAIT_MS), '--max-rate-limit-wait', String(MAX_RATE_LIMIT_WAIT_MS)];

/** Every form of every credential the run sends (see test/support/credential-forms.ts). */
const FORMS = TOKENS.flatMap((t) => credentialForms(t));

/**
 * The bound on a run against a hostile server: start-up, plus the give-up budget of five
 * timed-out requests (each with its retries), plus the suite's own work on a fast failing
 * server. Generous for a loaded 2-core machine; a hang would blow far past it.
 */
const BOUND_S = 45;

/** A line of a JavaScript stack trace. */
const STACK_LINE = /^\s+at .+(:\d+:\d+\)?|\(native\))$/m;

describe.concurrent('hostile servers', () => {
  for (const hostile of [...HOSTILE, ...MORE_HOSTILE]) {
    test(`"${hostile.name}" (${hostile.description}) ends with exit ${hostile.exitCodes.join(' or ')}, no stack trace and no token`, async () => {
      const setup = await hostile.setup();
      const server = await startServer(setup.handler);
      try {
        const summary = join(mkdtempSync(join(tmpdir(), 'wcs-summary-')), 'summary.md');
        writeFileSync(summary, '');
        const run = await runSuite(['--base-url', server.baseUrl, '--token', TOKENS[0], '--second-token', TOKENS[1], ...args(hostile.timeoutMs ?? TIMEOUT_MS), '--only', hostile.only ?? `${ALL_BUT_PROPERTIES},PROP-3`, ...(hostile.args ?? [])], { env: { GITHUB_STEP_SUMMARY: summary } });
        const output = run.stdout + run.stderr;
        expect(hostile.exitCodes, explain(run)).toContain(run.exitCode);
        if (hostile.says) expect(output, explain(run)).toContain(hostile.says);
        if (hostile.fails) expect(outcomesOf(run.report)[hostile.fails], explain(run)).toBe('fail');
        expect(run.seconds, 'the run ends within the bound').toBeLessThan(hostile.boundS ?? BOUND_S);
        expect(output.match(STACK_LINE)?.[0], 'no stack trace in the output').toBeUndefined();
        const outputs = [['the console', output], ['the job summary', readFileSync(summary, 'utf8')], ...reportTexts(run.reportDir)];
        for (const [where, text] of outputs) {
          const leaked = FORMS.filter((form) => text!.includes(form));
          expect(leaked, `no credential form in ${where}`).toEqual([]);
        }
        expect(await setup.after?.() ?? []).toEqual([]);
      } finally {
        await server.close();
        await setup.close?.();
      }
    });
  }
});
