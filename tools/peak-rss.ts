/**
 * Peak memory of a suite run, as the benchmark and the self-tests measure it: the suite
 * process is started with tools/bin/record-peak-rss.mjs preloaded, which writes its peak resident
 * set size (every thread, vitest's worker included) to $PEAK_RSS_FILE at exit.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MAX_RESPONSE_BYTES } from '../src/http/client.ts';
import { PROJECT_ROOT } from '../src/paths.ts';

const MIB = 1024 * 1024;
/** The most peak RSS a run against padded pages or a large account may reach: memory must not follow the size of the answers. */
export const PEAK_RSS_BOUND_BYTES = 400 * MIB;
/** How far under the client's body cap padded pages stay (headers and rounding). */
const PADDING_MARGIN_BYTES = 16 * 1024;
/** The size of every padded list page: just under the cap, the most a conformant page can cost. */
export const PADDED_PAGE_BYTES = MAX_RESPONSE_BYTES - PADDING_MARGIN_BYTES;
/** The node arguments that preload the recorder. */
export const PEAK_RSS_NODE_ARGS = ['--import', pathToFileURL(join(PROJECT_ROOT, 'tools/bin/record-peak-rss.mjs')).href] as const;
/** The variable naming the file the recorder writes. */
export const PEAK_RSS_FILE_VARIABLE = 'PEAK_RSS_FILE';

/** The peak RSS in bytes a run recorded in `file`; undefined when it wrote none. */
export function readPeakRss(file: string): number | undefined {
  try {
    const bytes = Number(readFileSync(file, 'utf8'));
    return Number.isFinite(bytes) && bytes > 0 ? bytes : undefined;
  } catch {
    return undefined;
  }
}

/** Bytes as whole MiB, for tables and messages. */
export function mib(bytes: number): string {
  return `${(bytes / MIB).toFixed(0)} MiB`;
}
