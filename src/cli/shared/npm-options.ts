/**
 * `npm test --base-url …` without `--`: npm takes the suite's flags for its own settings. It
 * hands them to the script only as `npm_config_<name>` variables (npm 11 keeps just `true`
 * there and passes the value on as a bare argument; `--base-url=x` keeps the value), so the
 * suite would otherwise run against the embedded reference server, or fail on a stray
 * argument, and never say why. Recognised here from those variables, before anything else is
 * read, and answered with the command that works. No value is ever echoed: one may be a token.
 */
import { ConfigError, OPTIONS, type OptionDef } from '../../config.ts';

/**
 * npm's own settings that one of the suite's flags abbreviates: npm expands an unambiguous
 * prefix of its own setting's name, so `--token abc` becomes npm's `token-description`.
 * (`--only` is npm's own, deprecated setting: npm neither exports nor passes it on, so it cannot
 * be recognised.)
 */
const NPM_EXPANSIONS: Readonly<Record<string, string>> = { '--token': 'npm_config_token_description' };

function variablesOf(def: OptionDef): string[] {
  const own = `npm_config_${def.flag.slice(2).replace(/-/g, '_')}`;
  const expansion = NPM_EXPANSIONS[def.flag];
  return expansion === undefined ? [own] : [own, expansion];
}

/** The npm command that runs the current script: `npm test`, or `npm run <script>`. */
function npmCommand(env: Record<string, string | undefined>): string {
  const script = env.npm_lifecycle_event;
  return script === undefined || script === 'test' ? 'npm test' : `npm run ${script}`;
}

/** `a`, `a and b`, `a, b and c`. */
function listed(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
}

/** Throws one ConfigError naming the right command when npm kept any of the suite's flags for itself. */
export function checkNpmKeptOptions(env: Record<string, string | undefined>): void {
  // An empty variable is npm saying "false" (or one of its own settings at its default): no flag was taken.
  const taken = OPTIONS.flatMap((def) => {
    const variables = variablesOf(def).filter((name) => (env[name] ?? '') !== '');
    return variables.length === 0 ? [] : [{ def, variables }];
  });
  if (taken.length === 0) return;

  const flags = taken.map(({ def }) => def.flag);
  const plain = taken.filter(({ def }) => !def.secret).map(({ def }) => ('arg' in def ? `${def.flag} …` : def.flag));
  const secret = taken.some(({ def }) => def.secret);
  const command = `${npmCommand(env)} -- ${plain.length > 0 ? plain.join(' ') : '…'}`;
  throw new ConfigError(
    `npm took ${listed(flags)} as its own setting${flags.length > 1 ? 's' : ''} ` +
      `(${taken.flatMap(({ variables }) => variables).join(', ')}) and did not pass ${flags.length > 1 ? 'them' : 'it'} to the suite; ` +
      `put the suite's options after --: ${command}` +
      (secret ? ', with tokens in WIDGET_TOKEN / WIDGET_SECOND_TOKEN or .env, never as flags' : ''),
  );
}
