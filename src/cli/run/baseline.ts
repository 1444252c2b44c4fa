/**
 * `--baseline FILE`: rule ids known to fail, so that a team can adopt the gate before its
 * server is fully conformant. One id per line; `#` starts a comment. A JSON array of ids is
 * read too.
 */
import { readFileSync, statSync } from 'node:fs';
import { ConfigError } from '../../config.ts';
import { RULES } from '../../rules.ts';

/** The rule ids of a baseline file; throws ConfigError for an unreadable file or an unknown id. */
export function readBaseline(file: string): ReadonlySet<string> {
  let text: string;
  try {
    // A FIFO or a device would block the read or never end: only a regular file is a baseline.
    if (!statSync(file).isFile()) throw new ConfigError(`--baseline: ${file} is not a regular file`);
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`--baseline: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let entries: string[];
  if (text.trimStart().startsWith('[')) {
    try {
      entries = (JSON.parse(text) as unknown[]).map(String);
    } catch {
      throw new ConfigError(`--baseline: ${file} starts like a JSON array but is not valid JSON`);
    }
  } else {
    entries = text.split('\n').map((line) => line.replace(/#.*/, '').trim()).filter((line) => line !== '');
  }
  const known = new Set(RULES.map((r) => r.id));
  const ids = new Set<string>();
  for (const entry of entries) {
    const id = entry.toUpperCase();
    if (!known.has(id)) throw new ConfigError(`--baseline: ${file} names ${JSON.stringify(entry)}, which is no rule id (--list shows them)`);
    ids.add(id);
  }
  return ids;
}
