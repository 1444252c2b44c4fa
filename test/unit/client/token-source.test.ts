// TokenSource: one renewal for requests refused together, bounded renewals, no renewal without a command.
import { describe, expect, it } from 'vitest';
import { TokenSource } from '../../../src/client/token-source.ts';

describe('TokenSource', () => {
  it('renews once for requests refused together; one that sent an older token retries with the current one', async () => {
    let runs = 0;
    const source = new TokenSource('A', async () => `B${++runs}`);
    const [first, second] = await Promise.all([source.renewed('A'), source.renewed('A')]);
    expect([first, second, runs]).toEqual(['B1', 'B1', 1]);
    expect(await source.renewed('A')).toBe('B1');
    expect(runs).toBe(1);
  });

  it('stops renewing after its limit, and never renews a fixed token', async () => {
    const source = new TokenSource('A', async () => 'A', 2);
    expect(await source.renewed('A')).toBe('A');
    expect(await source.renewed('A')).toBe('A');
    expect(await source.renewed('A')).toBeUndefined();
    expect(await new TokenSource('A').renewed('A')).toBeUndefined();
  });

  it('passes on a failed renewal, and can renew again after it', async () => {
    let fail = true;
    const source = new TokenSource('A', async () => {
      if (fail) throw new Error('exited with code 1');
      return 'B';
    });
    await expect(source.renewed('A')).rejects.toThrow('exited with code 1');
    fail = false;
    expect(await source.renewed('A')).toBe('B');
    expect(source.token).toBe('B');
  });
});
