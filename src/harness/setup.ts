/**
 * Runs in the worker before each suite file: after the file's tests, delete what they
 * created (even when they failed), and leave the worker's request counts and the ids it still
 * holds for the runner, which tries them again and reports by id whatever stays.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach } from 'vitest';
import { consoleSafe } from '../report/console.ts';
import { deleteCreated, runContext } from './context.ts';
import { heldFile, profileFile, recordLiveRequests, statsFile } from './worker-to-runner.ts';
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

// The runner's progress line counts requests as tests end (cli/run/progress-reporter.ts): at most
// once a second, a few bytes, so a run of thousands of tests writes little.
let liveWritten = 0;
afterEach(() => {
  if (Date.now() - liveWritten < 1000) return;
  liveWritten = Date.now();
  const ctx = runContext();
  mkdirSync(ctx.settings.statsDir, { recursive: true });
  recordLiveRequests(ctx.settings.statsDir, ctx.id, ctx.http.stats.requests);
});

afterAll(async () => {
  const ctx = runContext();
  await deleteCreated(ctx);
  mkdirSync(ctx.settings.statsDir, { recursive: true });
  writeFileSync(statsFile(ctx.settings.statsDir, ctx.id), JSON.stringify(ctx.http.stats));
  writeFileSync(heldFile(ctx.settings.statsDir, ctx.id), JSON.stringify(ctx.ownership.outstanding()));
  writeFileSync(profileFile(ctx.settings.statsDir, ctx.id), JSON.stringify(ctx.profile.data));
});
