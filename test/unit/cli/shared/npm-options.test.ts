/**
 * `npm test --base-url …` without `--`: npm keeps the flag as its own setting and hands the
 * script only an npm_config_ variable. Recognised, and answered with the command that works.
 */
import { describe, expect, it } from 'vitest';
import { checkNpmKeptOptions } from '../../../../src/cli/shared/npm-options.ts';
import { ConfigError, OPTIONS } from '../../../../src/config.ts';

const SECRET = 'tok-secret-value-123';
/** What npm 11 sets for `npm test --base-url http://h/v1 --token tok…`. */
const NPM_11 = { npm_lifecycle_event: 'test', npm_config_base_url: 'true', npm_config_token_description: SECRET };
/** Variables npm sets for every script: none of them is a flag of the suite. */
const NPM_OWN = { npm_lifecycle_event: 'test', npm_config_cache: '/root/.npm', npm_config_user_agent: 'npm/11', npm_config_yes: '', npm_config_local_prefix: '/suite' };

function messageOf(env: Record<string, string>): string | undefined {
  try {
    checkNpmKeptOptions(env);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
}

describe('flags npm kept for itself', () => {
  it('are recognised from npm_config_ variables and answered with the command that works', () => {
    expect(messageOf({ npm_lifecycle_event: 'test', npm_config_base_url: 'http://h/v1' })).toBe(
      'npm took --base-url as its own setting (npm_config_base_url) and did not pass it to the suite; ' +
        "put the suite's options after --: npm test -- --base-url …",
    );
  });

  it('include --token, which npm expands to its own token-description, and never show its value', () => {
    const message = messageOf(NPM_11)!;
    expect(message).toContain('npm took --base-url and --token as its own settings (npm_config_base_url, npm_config_token_description)');
    expect(message).toContain('npm test -- --base-url …, with tokens in WIDGET_TOKEN / WIDGET_SECOND_TOKEN or .env, never as flags');
    expect(message).not.toContain(SECRET);
    expect(message.split('\n')).toHaveLength(1);
  });

  it('cover every flag of the suite except --only, which npm swallows without a trace', () => {
    for (const def of OPTIONS.filter((o) => o.flag !== '--only')) {
      const variable = `npm_config_${def.flag.slice(2).replace(/-/g, '_')}`;
      expect(messageOf({ [variable]: 'true' }), def.flag).toContain(`npm took ${def.flag} `);
    }
  });

  it('name the npm script that was run', () => {
    expect(messageOf({ npm_lifecycle_event: 'cleanup', npm_config_second_token: 'true' })).toContain(
      'npm run cleanup -- …, with tokens in WIDGET_TOKEN / WIDGET_SECOND_TOKEN or .env',
    );
    expect(messageOf({ npm_lifecycle_event: 'test', npm_config_strict: 'true', npm_config_list: 'true' })).toContain('npm test -- --strict --list');
  });

  it("are not seen in npm's own variables, nor in empty ones (npm's way of saying false)", () => {
    expect(messageOf(NPM_OWN)).toBeUndefined();
    expect(messageOf({ ...NPM_OWN, npm_config_strict: '' })).toBeUndefined();
    expect(messageOf({})).toBeUndefined();
  });
});
