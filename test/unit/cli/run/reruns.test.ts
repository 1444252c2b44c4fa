/**
 * What a rerun command repeats of the run's settings (cli/run/reruns.ts): --property-budget as
 * given, even at its default's value, since without it the budget scales with the server's pace
 * instead; and nothing of it when it was not given.
 */
import { describe, expect, it } from 'vitest';
import { rerunSettings } from '../../../../src/cli/run/reruns.ts';
import { resolveConfig } from '../../../../src/config.ts';

const config = (argv: string[]) => resolveConfig(['--base-url', 'http://h.example/v1', '--token', 'tok-aaaa', '--second-token', 'tok-bbbb', ...argv], {}, { envFile: '/nonexistent/.env' });

describe('rerun settings', () => {
  it('repeat a --property-budget that was given, even the default\'s value, and none that was not', () => {
    expect(rerunSettings(config(['--property-budget', '60000']), false, false).extra).toContainEqual(['--property-budget', '60000']);
    expect(rerunSettings(config(['--property-budget', '1500']), false, false).extra).toContainEqual(['--property-budget', '1500']);
    expect(rerunSettings(config([]), false, false).extra?.map(([flag]) => flag)).not.toContain('--property-budget');
  });

  it('still repeat other settings only when they differ from their defaults', () => {
    expect(rerunSettings(config(['--timeout', '10000']), false, false).extra).toEqual([]);
    expect(rerunSettings(config(['--timeout', '2000']), false, false).extra).toEqual([['--timeout', '2000']]);
  });
});
