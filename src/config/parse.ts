/** The configuration resolved from flags, then the environment, then the .env file, then the defaults. */
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { ConfigError } from '../errors.ts';
import { userDirectory } from '../paths.ts';
import { usageOf } from './help.ts';
import { INT32_MAX, INT32_MIN, OPTIONS, type OptionDef, type SuiteConfig } from './options.ts';
import { checkRelations } from './relations.ts';
import { didYouMean } from './suggest.ts';
import { convert, type Given } from './values.ts';

/** The .env file the suite reads: in the directory the user ran the command from (see userDirectory). */
export function envFilePath(env: Record<string, string | undefined>): string {
  return join(userDirectory(env), '.env');
}

/** Resolves the configuration from flags, then `env`, then the .env file, then defaults. */
export function resolveConfig(
  argv: string[],
  env: Record<string, string | undefined>,
  options: { envFile?: string } = {},
): SuiteConfig {
  const envFile = options.envFile ?? envFilePath(env);
  const flags = parseArgv(argv);
  const file = readEnvFile(envFile);

  const config: Record<string, unknown> = {};
  const sources = new Map<OptionDef['key'], string>();
  for (const def of OPTIONS) {
    const given =
      flags.get(def) ?? fromEnv(def, env, (name) => name) ?? fromEnv(def, file, (name) => `${name} in ${envFile}`);
    const value = given ? convert(def, given) : def.default;
    if (value === undefined) continue;
    config[def.key] = value;
    if (given) sources.set(def.key, given.from);
  }
  config.seedGiven = config.seed !== undefined;
  config.concurrencyGiven = sources.has('concurrency');
  config.propertyBudgetGiven = sources.has('propertyBudgetMs');
  config.seed ??= randomInt(INT32_MIN, INT32_MAX + 1);

  // Every field was filled from a table entry whose key and kind are checked against SuiteConfig.
  const result = config as unknown as SuiteConfig;
  // --help and --list never contact a target, so a half-configured target must not block them.
  if (!result.help && !result.list) checkRelations(result, sources);
  return result;
}

function parseArgv(argv: readonly string[]): Map<OptionDef, Given> {
  const given = new Map<OptionDef, Given>();
  let previous: OptionDef | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('-') || arg === '-' || arg === '--') throw unexpectedArgument(arg, previous);

    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const def = OPTIONS.find((o) => o.flag === name || o.short === name);
    // Only the name is echoed: the part after '=' may be a token.
    if (!def) throw new ConfigError(`unknown option ${name}${suggestionFor(name)}`);
    const earlier = given.get(def);
    const repeatable = def.kind === 'headers' || ('repeatable' in def && def.repeatable === true);
    if (earlier && !repeatable) throw new ConfigError(`${def.flag} was given more than once`);

    let raw = eq === -1 ? undefined : arg.slice(eq + 1);
    if (def.kind === 'flag') {
      if (raw !== undefined) throw new ConfigError(`${name} takes no value`);
      raw = 'true';
    } else if (def.kind === 'bool') {
      raw ??= 'true';
    } else if (raw === undefined) {
      const next = argv[i + 1];
      // '-5' is a value (a seed), '-h' or '--runs' is the next option.
      if (next === undefined || /^-(?!\d)/.test(next)) {
        throw new ConfigError(`${name} needs a value: ${usageOf(def)}`);
      }
      raw = next;
      i++;
    }
    const items = [...(earlier?.items ?? []), raw];
    given.set(def, def.kind === 'headers' ? { raw, from: name, items } : repeatable ? { raw: items.join(','), from: name, items } : { raw, from: name });
    previous = def;
  }
  return given;
}

function unexpectedArgument(arg: string, previous: OptionDef | undefined): ConfigError {
  // `--header X-Key: value` unquoted splits at the space; the second half is the secret value.
  if (previous?.kind === 'headers') {
    return new ConfigError(`unexpected argument after the value of ${previous.flag}; quote the header: ${previous.flag} 'Name: value'`);
  }
  // An unquoted token containing a space splits in two; echoing the second half would leak it.
  if (previous?.secret) {
    return new ConfigError(`unexpected argument after the value of ${previous.flag}; a token cannot contain whitespace`);
  }
  // So does a base URL whose password has a space in it (`http://u:p a@ss@host`).
  if (previous?.kind === 'url') {
    return new ConfigError(`unexpected argument after the value of ${previous.flag}; a URL cannot contain whitespace`);
  }
  return new ConfigError(`unexpected argument ${JSON.stringify(arg)}; only options are accepted (see --help)`);
}

function suggestionFor(name: string): string {
  return didYouMean(name, OPTIONS.map((o) => o.flag));
}

function readEnvFile(path: string): Record<string, string> {
  try {
    return parseDotenv(readFileSync(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

function fromEnv(
  def: OptionDef,
  vars: Record<string, string | undefined>,
  label: (name: string) => string,
): Given | undefined {
  if (def.env === undefined) return undefined;
  const raw = vars[def.env];
  // Empty means unset, so a copied .env.example with blank values changes nothing.
  return raw === undefined || raw === '' ? undefined : { raw, from: label(def.env) };
}
