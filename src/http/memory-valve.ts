/**
 * A release valve for memory. A body near the 8 MiB cap costs several times its size while it
 * is read, decoded and parsed, and a walk of a large account goes through tens of thousands of
 * answers; V8 frees that garbage only at its next full collection, which it may put off until
 * the heap has grown by hundreds of MiB. At those points (before each large body is read, and
 * every so many pages of a walk), when the process's resident set is above a threshold, a full
 * collection runs, so peak memory stays bounded whatever the server's answers weigh. Below the
 * threshold, as in an ordinary run, nothing is collected.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Resident set size above which collectGarbageIfLarge() runs a full collection. */
export const COLLECT_ABOVE_RSS_BYTES = 256 * 1024 * 1024;

let collect: (() => void) | undefined | null;

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

/** Collects garbage now when memory is high (before a large body is read, or every so many pages of a walk). */
export function collectGarbageIfLarge(): void {
  if (process.memoryUsage.rss() <= COLLECT_ABOVE_RSS_BYTES) return;
  collector()?.();
}
