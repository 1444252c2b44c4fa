/**
 * `widget-conformance serve` as a user starts it, in a child process: its base URL and the two
 * test tokens it prints, read from its own start-up lines (no clock). Every server started here
 * is killed by stopAllServers (call it in afterEach or afterAll).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/paths.ts';

export interface Serving {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  readonly tokens: [string, string];
  /** Everything printed so far. */
  output(): string;
}

const children: ChildProcess[] = [];

/** Kills every server still running. */
export function stopAllServers(): void {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
}

/** Starts `bin/<bin> [serve] …args` and waits for its last start-up line. */
export async function serve(args: readonly string[], bin = 'widget-conformance.mjs'): Promise<Serving> {
  const argv = bin === 'widget-conformance.mjs' ? ['serve', ...args] : [...args];
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'bin', bin), ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (out += chunk));
  // Waits on the server's own last line, not on a clock.
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('Press Ctrl+C to stop.')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}) before it was ready:\n${out}`)));
  });
  const baseUrl = /listening on (http:\/\/\S+\/v1)$/m.exec(out)?.[1];
  const token = /^ {2}WIDGET_TOKEN=(\S+)$/m.exec(out)?.[1];
  const second = /^ {2}WIDGET_SECOND_TOKEN=(\S+)$/m.exec(out)?.[1];
  if (!baseUrl || !token || !second) throw new Error(`serve printed no base URL or tokens:\n${out}`);
  return { child, baseUrl, tokens: [token, second], output: () => out };
}

/** Stops a server with `signal`; resolves with its exit code. */
export async function stop(serving: Serving, signal: NodeJS.Signals): Promise<number | null> {
  const exited = once(serving.child, 'exit');
  serving.child.kill(signal);
  return (await exited)[0] as number | null;
}
