/** Settings that are each valid but contradict each other, or need one another: refused before any request. */
import { ConfigError } from '../errors.ts';
import { IMPLEMENTATION_MAX, type OptionDef, type SuiteConfig } from './options.ts';

/** Throws a ConfigError for the first pair of settings that cannot go together; normalises --fail-on. */
export function checkRelations(c: SuiteConfig, sources: ReadonlyMap<OptionDef['key'], string>): void {
  const from = (key: OptionDef['key']) => sources.get(key) ?? key;
  if (c.baseUrl !== undefined && c.token === undefined && c.tokenCommand === undefined) {
    throw new ConfigError(`${from('baseUrl')} is set but no token is; set --token or WIDGET_TOKEN (or --token-command)`);
  }
  for (const [token, command] of [['token', 'tokenCommand'], ['secondToken', 'secondTokenCommand']] as const) {
    if (c[token] !== undefined && c[command] !== undefined) throw new ConfigError(`${from(token)} and ${from(command)} are both set: give one of them`);
  }
  for (const key of ['token', 'secondToken', 'tokenCommand', 'secondTokenCommand'] as const) {
    if (c[key] !== undefined && c.baseUrl === undefined) {
      throw new ConfigError(
        `${from(key)} is set without a base URL; set --base-url or WIDGET_BASE_URL, ` +
          'or drop the token (the embedded reference server uses its own tokens)',
      );
    }
  }
  // The embedded reference server stops with the run: nothing would be left for a replay to find.
  if (c.keepFailing && c.baseUrl === undefined) {
    throw new ConfigError(`${from('keepFailing')} needs --base-url: the embedded reference server stops with the run, and its widgets with it`);
  }
  if (c.secondToken !== undefined && c.secondToken === c.token) {
    throw new ConfigError(`${from('secondToken')} must differ from ${from('token')}: the second account needs a token of its own`);
  }
  if (c.implementation !== undefined && (c.implementation.length > IMPLEMENTATION_MAX || /[\p{Cc}]/u.test(c.implementation))) {
    throw new ConfigError(`${from('implementation')} must be at most ${IMPLEMENTATION_MAX} characters without control characters, e.g. acme-widgets@2.3.1`);
  }
  if (c.fileOrder !== undefined && c.fileOrder !== 'name' && c.fileOrder !== 'reverse') {
    throw new ConfigError(`${from('fileOrder')} must be name or reverse, got ${JSON.stringify(c.fileOrder)}`);
  }
  if (c.withoutSecondToken && (c.secondToken !== undefined || c.secondTokenCommand !== undefined)) {
    throw new ConfigError(`${from('withoutSecondToken')} contradicts a second token (${c.secondToken !== undefined ? from('secondToken') : from('secondTokenCommand')}): give one of them`);
  }
  if (c.failOn !== undefined) {
    const level = c.failOn.toLowerCase();
    if (level !== 'must' && level !== 'should') throw new ConfigError(`${from('failOn')} must be must or should, got ${JSON.stringify(c.failOn)}`);
    if (level === 'must' && c.strict) throw new ConfigError(`${from('failOn')} must contradicts ${from('strict')}: give one of them`);
    c.failOn = level;
    // --fail-on should is the long form of --strict: one switch for the rest of the suite to read.
    if (level === 'should') c.strict = true;
  }
}
