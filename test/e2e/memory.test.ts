/**
 * Memory bounded by design: the real suite against a conformant server whose every list page
 * is padded to just under the body cap passes, prints no stack trace, and stays under the
 * peak RSS bound (measured by the preloaded recorder, as `npm run bench` does).
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PaddedService, type PaddingPlace } from '../../tools/padded.ts';
import { mib, PADDED_PAGE_BYTES, PEAK_RSS_BOUND_BYTES, PEAK_RSS_FILE_VARIABLE, PEAK_RSS_NODE_ARGS, readPeakRss } from '../../tools/peak-rss.ts';
import { runAgainst } from '../servers/serve.ts';
import { serve } from '../servers/support.ts';
import { explain } from '../support/suite-runner.ts';

/** A line of a JavaScript stack trace. */
const STACK_LINE = /^\s+at .+(:\d+:\d+\)?|\(native\))$/m;
/** The rules that walk the list most, and the schema checks of every body. */
const ONLY = 'PAGE,FMT';

describe('memory against padded list pages', () => {
  test.each<[PaddingPlace, string]>([
    ['page', 'an extra field of the page'],
    ['items', 'an extra field of each Widget'],
  ])(`pages padded in %s (%s) to just under the body cap: exit 0, no stack trace, peak RSS under the bound`, async (place) => {
    const handler = new PaddedService(place, PADDED_PAGE_BYTES);
    // The run's report folder is made by the runner, so the recorder writes to a file of this test's own.
    const peakFile = join(tmpdir(), `wcs-peak-${place}-${process.pid}`);
    const run = await runAgainst(serve(handler), ['--only', ONLY], {
      env: { NODE_OPTIONS: PEAK_RSS_NODE_ARGS.join('='), [PEAK_RSS_FILE_VARIABLE]: peakFile },
    });
    const peak = readPeakRss(peakFile);
    rmSync(peakFile, { force: true });
    const output = run.stdout + run.stderr;
    expect(run.exitCode, explain(run)).toBe(0);
    expect(output.match(STACK_LINE)?.[0], 'no stack trace in the output').toBeUndefined();
    expect(peak, 'the recorder wrote the peak RSS').toBeDefined();
    expect(peak!, `peak RSS ${mib(peak!)}, bound ${mib(PEAK_RSS_BOUND_BYTES)}`).toBeLessThanOrEqual(PEAK_RSS_BOUND_BYTES);
  });
});
