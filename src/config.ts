/**
 * Suite configuration: the public entry of config/, one module per job (the option table,
 * parsing, values, relations between settings, headers, secrets, --help, "did you mean").
 */
export { ConfigError } from './errors.ts';
export { OPTIONS, PROPERTY_BUDGET_CAP_MS, PROPERTY_BUDGET_REQUESTS, type OptionDef, type SuiteConfig } from './config/options.ts';
export { envFilePath, resolveConfig } from './config/parse.ts';
export { redactedConfig, secretsOf } from './config/secrets.ts';
export { helpText, optionRows, SUBCOMMANDS, type OptionRow } from './config/help.ts';
export { didYouMean } from './config/suggest.ts';
