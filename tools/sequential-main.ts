// tools/bin/sequential.mjs <origin> <log.json>: the plain sequential checker as its own process,
// so that its time includes a process start, as a user's script would (tools/sequential.ts).
import { readFileSync } from 'node:fs';
import type { LoggedRequest } from './request-log.ts';
import { replaySequentially } from './sequential.ts';

const [origin, logFile] = process.argv.slice(2);
if (!origin || !logFile) {
  process.stderr.write('usage: node tools/bin/sequential.mjs <origin> <request-log.json>\n');
  process.exitCode = 2;
} else {
  const started = performance.now();
  const log = JSON.parse(readFileSync(logFile, 'utf8')) as LoggedRequest[];
  const result = await replaySequentially(origin, log);
  // The process's own time too: the start-up of node itself is measured by the caller.
  process.stdout.write(`${JSON.stringify({ ...result, processSeconds: (performance.now() - started) / 1000 })}\n`);
}
