/**
 * The warnings a run gives at its start about how its secrets were handed over: a secret too
 * short to be hidden reliably in the server's text, and a token npm has already printed.
 * Said before the first request, so the user can fix it before the next run.
 */
import type { Redactor } from '../../shared/redact.ts';

/** Said once per run when a secret is shorter than 8 characters (credential-spellings.ts FUZZY_MIN_LENGTH). */
export const SHORT_SECRET_WARNING =
  'a token or secret header value is shorter than 8 characters: it is hidden wherever the suite records what it sent, ' +
  'but in text the server chose it cannot be told from chance (every occurrence there is hidden, whatever it meant); use longer tokens (see docs/output-integrity.md)';

/** Said when npm echoed a command line that carried a token or a header value. */
export const NPM_ECHO_WARNING =
  'npm printed the command line above, token included (or a --header value); pass them in WIDGET_TOKEN / WIDGET_SECOND_TOKEN / WIDGET_HEADERS or a .env file (or run npm with --silent)';

/** True when npm ran this with a token flag and printed its command line (npm echoes script arguments unless --silent). */
export function npmEchoedToken(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  const underNpm = env.npm_lifecycle_event !== undefined && env.npm_config_loglevel !== 'silent';
  return underNpm && argv.some((a) => /^--((second-)?token|header)(=|$)/.test(a));
}

/** The warnings that apply, in the order they are printed. */
export function secretWarnings(redactor: Pick<Redactor, 'hasShortSecret'>, argv: readonly string[], env: NodeJS.ProcessEnv): string[] {
  return [...(redactor.hasShortSecret ? [SHORT_SECRET_WARNING] : []), ...(npmEchoedToken(argv, env) ? [NPM_ECHO_WARNING] : [])];
}
