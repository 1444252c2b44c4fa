/**
 * A console that moves, and a verdict that does not depend on the server's pace (issue 36): the
 * reference server started as a user starts it (`widget-conformance serve`) behind a gateway's
 * 20 requests per second, and with every answer 200 ms late, is judged CONFORMANT under the
 * defaults (every property completes all its runs: the default property budget is counted in
 * requests, not seconds), exit 0; and from the first request to the summary the console says how
 * far the run is at most 15 s apart, each line with counts that changed since the one before.
 * Timing is asserted on what the run recorded (each line's own elapsed seconds, the report's
 * duration), never on this test's clock.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { ADAPTIVE_MAX_SLOTS } from '../../src/http/client.ts';
import { PROGRESS_EVERY_MS } from '../../src/cli/run/progress.ts';
import { serve, stopAllServers } from '../support/serve-process.ts';
import { explain, runSuite, type SuiteRun } from '../support/suite-runner.ts';

afterAll(stopAllServers);

/** The longest silence allowed: a CI log shows a line at least this often. */
const MOST_SILENT_S = 15;

interface ProgressLine {
  readonly seconds: number;
  /** The line without its elapsed time and pace: the counts it says. */
  readonly counts: string;
}

function progressLines(run: SuiteRun): ProgressLine[] {
  return run.stdout.split('\n').flatMap((line) => {
    const m = /^… (\d+) s: (.*) \([\d.]+\/s lately\)$/.exec(line);
    return m ? [{ seconds: Number(m[1]), counts: m[2]! }] : [];
  });
}

/** CONFORMANT, exit 0, every property run completed, and the progress lines as the issue asks. */
function expectConformantAndMoving(run: SuiteRun): void {
  expect(run.exitCode, explain(run)).toBe(0);
  const report = run.report!;
  expect(report.verdict, explain(run)).toBe('conformant');
  expect(report.verdictDetail.cutShort, 'no check cut short').toEqual([]);
  const properties = report.rules.flatMap((r) => r.tests).filter((t) => t.runs !== undefined);
  expect(properties.length).toBeGreaterThan(0);
  // Every planned run completed: the fixed inputs and all --runs random runs (more than --runs in all).
  for (const t of properties) {
    const [done, planned] = (/^(\d+) of (\d+)$/.exec(t.runs ?? '') ?? []).slice(1).map(Number);
    expect({ title: t.title, runs: t.runs, complete: done === planned && planned! > Number(report.config.runs) }).toEqual({ title: t.title, runs: t.runs, complete: true });
  }

  expect(PROGRESS_EVERY_MS / 1000, 'the line\'s period is within the bound').toBeLessThanOrEqual(MOST_SILENT_S);
  const lines = progressLines(run);
  const runS = report.durationMs / 1000;
  // A run of this length says how far it is at least once per period.
  expect(lines.length, run.stdout).toBeGreaterThanOrEqual(Math.floor(runS / MOST_SILENT_S));
  const times = [0, ...lines.map((l) => l.seconds)];
  for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!, `line ${i}: ${run.stdout}`).toBeLessThanOrEqual(MOST_SILENT_S);
  // From the last line to the end of the run (its report's duration counts from a moment before the first request).
  expect(runS - times.at(-1)!, run.stdout).toBeLessThanOrEqual(MOST_SILENT_S + 1);
  for (let i = 1; i < lines.length; i++) expect(lines[i]!.counts, `line ${i + 1} repeats line ${i}: ${run.stdout}`).not.toBe(lines[i - 1]!.counts);
}

describe.concurrent('a conformant server that is slow to answer, under the defaults', { timeout: 900_000 }, () => {
  test('behind a gateway of 20 requests per second (429 with Retry-After): CONFORMANT, exit 0, and a console line at most 15 s apart with changing counts', async () => {
    const serving = await serve(['--port', '0', '--rate-limit', '20/s']);
    const run = await runSuite(['--base-url', serving.baseUrl], { env: { WIDGET_TOKEN: serving.tokens[0], WIDGET_SECOND_TOKEN: serving.tokens[1] } });
    expectConformantAndMoving(run);
    // The gateway did pace the run: it refused, or the suite kept under its rate from what it learned.
    const report = run.report!;
    expect(report.refused > 0 || (report.pacedRate ?? Infinity) <= 20, explain(run)).toBe(true);
  });

  test('with every answer 200 ms late: CONFORMANT, exit 0, and a console line at most 15 s apart with changing counts', async () => {
    const serving = await serve(['--port', '0', '--latency', '200']);
    const run = await runSuite(['--base-url', serving.baseUrl], { env: { WIDGET_TOKEN: serving.tokens[0], WIDGET_SECOND_TOKEN: serving.tokens[1] } });
    expectConformantAndMoving(run);
    // The latency was real: no more than the most slots in flight at 200 ms each.
    expect(run.report!.durationMs, explain(run)).toBeGreaterThanOrEqual((run.report!.requests * 200) / ADAPTIVE_MAX_SLOTS);
  });
});
