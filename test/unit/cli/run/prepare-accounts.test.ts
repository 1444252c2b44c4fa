/** Where each account's token came from, as a rejected token's message names it (src/cli/run/prepare-accounts.ts). */
import { describe, expect, test } from 'vitest';
import { tokenOrigin } from '../../../../src/cli/run/prepare-accounts.ts';

const NONE = { maxWidgets: 1000, seed: 1 };

describe('token origin', () => {
  test('the primary account: the command, else the flag or variable, else the reference server', () => {
    expect(tokenOrigin({ ...NONE, tokenCommand: 'get-token', token: 't' }, 0)).toBe('the token --token-command printed');
    expect(tokenOrigin({ ...NONE, token: 't' }, 0)).toBe('--token / WIDGET_TOKEN');
    expect(tokenOrigin(NONE, 0)).toBe('the reference server token');
  });

  test('the second account: the command, else the flag or variable', () => {
    expect(tokenOrigin({ ...NONE, secondTokenCommand: 'get-second' }, 1)).toBe('the token --second-token-command printed');
    expect(tokenOrigin({ ...NONE, token: 't' }, 1)).toBe('--second-token / WIDGET_SECOND_TOKEN');
  });
});
