/**
 * --token-command: a shell command whose output is a token, run at the start and again when
 * the target stops accepting the token it gave (short-lived tokens, OAuth). Its output and its
 * stderr are never shown: either may hold a credential. Only its exit code is.
 */
import { spawn } from 'node:child_process';
import { ConfigError } from '../errors.ts';

/** Longest a token command may run before it is killed and the run ends (exit 2). */
export const TOKEN_COMMAND_TIMEOUT_MS = 30_000;
/** More output than any token: a command that prints without end is stopped. */
const MAX_OUTPUT_BYTES = 64 * 1024;

/** Runs `command` with `sh -c` and no stdin; its trimmed stdout, or a ConfigError naming `label` and the exit code. */
export function runTokenCommand(command: string, label: string, timeoutMs = TOKEN_COMMAND_TIMEOUT_MS): Promise<string> {
  return new Promise((resolve, reject) => {
    // Its own process group: on a timeout the whole group is killed, so a grandchild that holds
    // the output pipe open (`sleep 600 & wait`) cannot keep the run waiting.
    const child = spawn('sh', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const chunks: Buffer[] = [];
    let size = 0;
    let why: string | undefined;
    const stop = (reason: string) => {
      why ??= reason;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      // The pipes close with the group; destroying them makes sure 'close' comes even if not.
      child.stdout.destroy();
      child.stderr.destroy();
    };
    const timer = setTimeout(() => stop(`did not finish within ${timeoutMs / 1000} s`), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES) stop(`printed more than ${MAX_OUTPUT_BYTES} bytes`);
      else chunks.push(chunk);
    });
    // Read and dropped: it may hold a secret, and an unread pipe could block the command.
    child.stderr.resume();
    child.on('error', (error) => stop(`could not be started (${(error as NodeJS.ErrnoException).code ?? 'error'})`));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const fail = (reason: string) => reject(new ConfigError(`${label} ${reason} (its output is not shown: it may hold secrets)`));
      if (why !== undefined) return fail(why);
      if (code !== 0) return fail(code === null ? `was killed by ${signal}` : `exited with code ${code}`);
      const token = Buffer.concat(chunks).toString('utf8').trim();
      if (token === '') return fail('printed nothing');
      if (/[\s\p{Cc}]/u.test(token)) return fail('printed more than one word: it must print the bare token only');
      resolve(token);
    });
  });
}
