/** The start-of-run warnings about how secrets were handed over (src/cli/run/secret-warnings.ts). */
import { describe, expect, test } from 'vitest';
import { NPM_ECHO_WARNING, npmEchoedToken, SHORT_SECRET_WARNING, secretWarnings } from '../../../../src/cli/run/secret-warnings.ts';

const UNDER_NPM = { npm_lifecycle_event: 'test' };

describe('npm echoed a token', () => {
  test('a token, second token or header flag, in either spelling, under npm: echoed', () => {
    for (const flag of ['--token', '--token=abc', '--second-token', '--second-token=abc', '--header', '--header=x-key: v']) {
      expect(npmEchoedToken([flag], UNDER_NPM), flag).toBe(true);
    }
  });

  test('npm --silent prints no command line, and outside npm nobody printed it', () => {
    expect(npmEchoedToken(['--token=abc'], { ...UNDER_NPM, npm_config_loglevel: 'silent' })).toBe(false);
    expect(npmEchoedToken(['--token=abc'], {})).toBe(false);
  });

  test('flags that only start like a secret one, or carry no secret, are not an echo', () => {
    expect(npmEchoedToken(['--token-command=get-token', '--base-url=http://x', '--headers-file'], UNDER_NPM)).toBe(false);
  });
});

describe('secret warnings', () => {
  test('none when the secrets are long and nobody printed them', () => {
    expect(secretWarnings({ hasShortSecret: false }, ['--token=abc'], {})).toEqual([]);
  });

  test('a short secret first, then the echo, each said once', () => {
    expect(secretWarnings({ hasShortSecret: true }, ['--token=abc'], UNDER_NPM)).toEqual([SHORT_SECRET_WARNING, NPM_ECHO_WARNING]);
  });
});
