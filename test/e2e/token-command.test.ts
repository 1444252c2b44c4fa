/**
 * A --token-command is bounded whatever it does: one that never ends, even through a grandchild
 * holding its output pipe open, is stopped at its timeout with one line and no output shown.
 */
import { describe, expect, test } from 'vitest';
import { runTokenCommand } from '../../src/client/token-command.ts';
import { ConfigError } from '../../src/errors.ts';

const TIMEOUT_MS = 300;
/** Far below the grandchild's sleep: a wait on the pipe would blow past it. */
const BOUND_MS = 5_000;

describe('a token command that does not end', () => {
  for (const [what, command] of [
    ['itself', 'sleep 60; echo late-token'],
    ['through a grandchild holding its output open', 'echo partial; sleep 60 & wait'],
  ] as const) {
    test(`(${what}) is stopped at its timeout with a ConfigError that shows none of its output`, async () => {
      const started = performance.now();
      const error = await runTokenCommand(command, '--token-command', TIMEOUT_MS).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain('did not finish within');
      expect((error as Error).message).not.toContain('partial');
      expect(performance.now() - started).toBeLessThan(BOUND_MS);
    });
  }

  test('one that prints its token and exits is answered with the token', async () => {
    await expect(runTokenCommand("printf ' tok-123\\n'", '--token-command', TIMEOUT_MS * 10)).resolves.toBe('tok-123');
  });
});
