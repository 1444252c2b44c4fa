// Preloaded with `node --import` by the memory benchmark and its self-test: at exit, writes this
// process's peak resident set size in bytes (all threads, vitest's worker included) to
// $PEAK_RSS_FILE. Not part of a normal run.
import { writeFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

/** resourceUsage().maxRSS is in kibibytes. */
const BYTES_PER_KIB = 1024;

const file = process.env.PEAK_RSS_FILE;
if (file && isMainThread) {
  process.once('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS * BYTES_PER_KIB)));
}
