/**
 * A release valve for memory. A body near the 8 MiB cap costs several times its size while it
 * is read, decoded and parsed (the chunks, the buffer they make, the text, the parsed value), and
 * all of that is garbage as soon as the checks let go of the answer; a walk of a large account
 * goes through tens of thousands of answers. V8 frees that garbage only at its next full
 * collection, which it may put off until the heap has grown by hundreds of MiB, and a thread that
 * goes idle (the runner's, while the worker runs the tests) may keep it for the whole run. So each
 * thread counts the bytes of the large bodies it has read since its last full collection, and
 * collects before the next large body once they reach COLLECT_AFTER_LARGE_BYTES, or when the
 * process's resident set is above COLLECT_ABOVE_RSS_BYTES (checked too every so many pages of a
 * walk). An ordinary run, whose bodies are small, never collects.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Resident set size above which collectGarbageIfLarge() runs a full collection. */
export const COLLECT_ABOVE_RSS_BYTES = 256 * 1024 * 1024;

/**
 * Bytes of large bodies a thread may have read since its last full collection before it
 * collects again: one body at the 8 MiB cap, so the garbage a thread keeps is at most what one
 * such body leaves (a few times its size), whatever the server sends.
 */
export const COLLECT_AFTER_LARGE_BYTES = 4 * 1024 * 1024;

let collect: (() => void) | undefined | null;
/** Bytes of large bodies this thread has read since its last full collection (module state is per thread). */
let owed = 0;

/** V8's own gc(), exposed for this purpose only; null where the runtime refuses. */
function collector(): (() => void) | null {
  if (collect !== undefined) return collect;
  try {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  } catch {
    collect = null;
  }
  return collect;
}

function collectNow(): void {
  owed = 0;
  collector()?.();
}

/** Counts a large body this thread has read: all it cost is garbage once its answer is let go. */
export function oweLargeBody(bytes: number): void {
  owed += bytes;
}

/** Collects garbage now when the large bodies read since the last collection reach the budget, or memory is high (before a large body is read, or every so many pages of a walk). */
export function collectGarbageIfLarge(): void {
  if (owed < COLLECT_AFTER_LARGE_BYTES && process.memoryUsage.rss() <= COLLECT_ABOVE_RSS_BYTES) return;
  collectNow();
}

/** Collects what the large bodies this thread read left, if it read any since its last collection: for a thread about to go idle. */
export function collectLargeBodyGarbage(): void {
  if (owed > 0) collectNow();
}
