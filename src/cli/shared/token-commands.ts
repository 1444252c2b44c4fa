/**
 * The tokens of --token-command / --second-token-command, run once at the start, before the
 * probe: the config then holds them like tokens given directly, and the commands stay in it
 * for the workers to renew a token the target stops accepting.
 */
import { ConfigError, type SuiteConfig } from '../../config.ts';
import { runTokenCommand } from '../../client/token-command.ts';

/** The config with each command's token filled in; a ConfigError (exit 2) when a command fails. */
export async function withCommandTokens(config: SuiteConfig): Promise<SuiteConfig> {
  const token = config.tokenCommand === undefined ? config.token : await runTokenCommand(config.tokenCommand, '--token-command');
  const secondToken = config.secondTokenCommand === undefined ? config.secondToken : await runTokenCommand(config.secondTokenCommand, '--second-token-command');
  if (secondToken !== undefined && secondToken === token) throw new ConfigError('the two accounts got the same token: the second account needs a token of its own');
  return { ...config, ...(token === undefined ? {} : { token }), ...(secondToken === undefined ? {} : { secondToken }) };
}
