/**
 * The plain sequential checker the speed target is stated against (issue 22, docs/speed.md):
 * the same requests a suite run sent, in the order the server received them, one after another
 * over one keep-alive connection, with nothing else to do in between: no framework, no proofs,
 * no reports. It is the least time any checker needs that makes those requests one at a time,
 * so the suite's ratio to it is measured against the strictest such baseline.
 *
 * Ids and cursors differ between servers, so a path or query naming an id a recorded create was
 * given (or a cursor a recorded page handed out) is re-pointed to what this server gave for the
 * same request: the server does the same work as in the recorded run.
 */
import { Agent, request } from 'undici';
import type { LoggedRequest } from './request-log.ts';

export interface SequentialResult {
  readonly requests: number;
  readonly seconds: number;
  /** Requests answered with the status the recorded run got: the replay did the same work. */
  readonly sameStatus: number;
}

/** Replays `log` against `origin` (scheme, host and port; the log's targets carry the path). */
export async function replaySequentially(origin: string, log: readonly LoggedRequest[]): Promise<SequentialResult> {
  const dispatcher = new Agent({ connections: 1, pipelining: 1 });
  const ids = new Map<string, string>();
  const cursors = new Map<string, string>();
  let sameStatus = 0;
  const started = performance.now();
  try {
    for (const entry of log) {
      const res = await request(`${origin}${repoint(entry.target, ids, cursors)}`, {
        method: entry.method as 'GET',
        headers: { ...entry.headers },
        ...(entry.body === undefined ? {} : { body: Buffer.from(entry.body, 'base64') }),
        dispatcher,
      });
      const text = await res.body.text();
      if (res.statusCode === entry.status) sameStatus += 1;
      if (res.statusCode < 200 || res.statusCode > 299 || (entry.id === undefined && entry.cursor === undefined)) continue;
      const answer = parse(text);
      if (entry.id !== undefined && typeof answer?.id === 'string') ids.set(entry.id, answer.id);
      if (entry.cursor !== undefined && typeof answer?.next_cursor === 'string') cursors.set(entry.cursor, answer.next_cursor);
    }
  } finally {
    await dispatcher.close();
  }
  return { requests: log.length, seconds: (performance.now() - started) / 1000, sameStatus };
}

function parse(text: string): { id?: unknown; next_cursor?: unknown } | undefined {
  try {
    const json: unknown = JSON.parse(text);
    return json !== null && typeof json === 'object' ? (json as { id?: unknown; next_cursor?: unknown }) : undefined;
  } catch {
    return undefined;
  }
}

/** `target` with every path segment that names a recorded id, and a recorded cursor parameter, re-pointed. */
export function repoint(target: string, ids: ReadonlyMap<string, string>, cursors: ReadonlyMap<string, string>): string {
  const queryAt = target.indexOf('?');
  const path = queryAt < 0 ? target : target.slice(0, queryAt);
  const query = queryAt < 0 ? '' : target.slice(queryAt + 1);
  const segments = path.split('/').map((s) => {
    const id = ids.get(safeDecode(s));
    return id === undefined ? s : encodeURIComponent(id);
  });
  if (!query) return segments.join('/');
  const params = new URLSearchParams(query);
  const cursor = params.get('cursor');
  const mapped = cursor === null ? undefined : cursors.get(cursor);
  if (mapped === undefined) return `${segments.join('/')}?${query}`;
  params.set('cursor', mapped);
  return `${segments.join('/')}?${params.toString()}`;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
