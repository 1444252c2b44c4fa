/**
 * Runs in the worker before each suite file: after the file's tests, delete what they
 * created (even when they failed), and leave the worker's request counts and the ids it still
 * holds for the runner, which tries them again and reports by id whatever stays.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach } from 'vitest';
import { consoleSafe } from '../report/console.ts';
import { deleteCreated, perWorker, runContext } from './context.ts';
import { heldFile, profileFile, recordLiveRequests, requestsFile, statsFile } from './worker-to-runner.ts';
import { registerCommandRunner } from './renewal.ts';
import { runTokenCommand } from '../client/token-command.ts';

registerCommandRunner(runTokenCommand);

// Every error a test ends with is printed by vitest to the console and a CI log: whatever
// server text it carries (a transport error's reason, an assertion's received value) is escaped
// for them before vitest reports it (report/console.ts). A ConformanceFailure already is.
beforeEach((ctx) => {
  ctx.onTestFailed(({ task }) => {
    for (const error of task.result?.errors ?? []) {
      error.message = consoleSafe(error.message);
      if (error.stack !== undefined) error.stack = consoleSafe(error.stack);
    }
  });
});

// The runner's progress line (cli/run/progress.ts) counts the worker's requests as they go, also
// while one long test runs (a property, against a slow server): every LIVE_EVERY_MS, when the
// count changed, a few bytes. One timer per worker (this file runs before each suite file); it
// never keeps the worker alive.
const LIVE_EVERY_MS = 2_000;
const LIVE_TIMER = Symbol.for('widget-conformance.live-requests');
perWorker(LIVE_TIMER, () => {
  let written = -1;
  const timer = setInterval(() => {
    try {
      const ctx = runContext();
      const requests = ctx.http.stats.requests;
      if (requests === written) return;
      written = requests;
      mkdirSync(ctx.settings.statsDir, { recursive: true });
      recordLiveRequests(ctx.settings.statsDir, ctx.id, requests);
    } catch {
      // A count not written now is written at the next tick; the progress line is never worth a test.
    }
  }, LIVE_EVERY_MS);
  timer.unref();
  return timer;
});

afterAll(async () => {
  const ctx = runContext();
  await deleteCreated(ctx);
  mkdirSync(ctx.settings.statsDir, { recursive: true });
  writeFileSync(statsFile(ctx.settings.statsDir, ctx.id), JSON.stringify(ctx.http.stats));
  writeFileSync(heldFile(ctx.settings.statsDir, ctx.id), JSON.stringify(ctx.ownership.outstanding()));
  writeFileSync(profileFile(ctx.settings.statsDir, ctx.id), JSON.stringify(ctx.profile.data));
  writeFileSync(requestsFile(ctx.settings.statsDir, ctx.id), JSON.stringify(ctx.tally.data));
});
