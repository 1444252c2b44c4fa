/**
 * Runs in the worker before each suite file: after the file's tests, delete what they
 * created (even when they failed) and leave the worker's request counts for the runner.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { deleteCreated, runContext } from './context.ts';

afterAll(async () => {
  const ctx = runContext();
  // Whatever does not delete here is left to the runner's final sweep, which finds it by the run marker.
  await deleteCreated(ctx).catch(() => []);
  mkdirSync(ctx.settings.statsDir, { recursive: true });
  writeFileSync(join(ctx.settings.statsDir, `${ctx.id}.json`), JSON.stringify(ctx.http.stats));
});
