/**
 * One setting's raw text turned into its value by the kind of its option: booleans, integers in
 * range, the base URL, headers, strings. Each refusal is one line naming where the value came
 * from; a secret's value is never echoed.
 */
import { ConfigError } from '../errors.ts';
import { parseHeaders } from './headers.ts';
import type { IntOption, OptionDef } from './options.ts';
import { withoutPassword } from './secrets.ts';

/** A raw option value and a label naming where it came from, for error messages. */
export interface Given {
  readonly raw: string;
  readonly from: string;
  /** Every value of a repeatable option given as flags, in order (a headers option only). */
  readonly items?: readonly string[];
}

/** The value of `def` given as `raw`, or a ConfigError naming where it came from. */
export function convert(def: OptionDef, { raw, from, items }: Given): string | number | boolean | Record<string, string> {
  const invalid = (rule: string, shown = raw) => new ConfigError(`${from} must ${rule}, got ${JSON.stringify(shown)}`);
  switch (def.kind) {
    case 'flag':
      return true;
    case 'bool': {
      const value = parseBool(raw);
      if (value === undefined) throw invalid('be a boolean (true/false, yes/no, on/off, 1/0)');
      return value;
    }
    case 'int': {
      const value = Number(raw);
      const ok = /^-?\d+$/.test(raw) && value >= def.min && value <= (def.max ?? Number.MAX_SAFE_INTEGER);
      if (!ok) throw invalid(`be ${intRule(def)}`);
      return value;
    }
    case 'url':
      // The message echoes the URL as given: never with its password.
      return parseBaseUrl(raw, (rule, shown = withoutPassword(raw)) => invalid(rule, shown));
    case 'headers':
      // From a variable, one header per line: a value may hold commas (`Forwarded`, lists), never a line break.
      return parseHeaders(items ?? raw.split(/\r?\n/).filter((line) => line.trim() !== ''), from);
    case 'command':
    case 'string':
      if (raw === '') throw new ConfigError(`${from} must not be empty`);
      if (def.secret && /[\s\p{Cc}]/u.test(raw)) {
        throw new ConfigError(`${from} must not contain whitespace or control characters (give the bare token, without "Bearer ")`);
      }
      return raw;
  }
}

function parseBool(raw: string): boolean | undefined {
  const value = raw.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  return undefined;
}

function intRule({ min, max, unit }: IntOption): string {
  const range =
    max !== undefined ? `an integer from ${min} to ${max}`
    : min === 1 ? 'a positive integer'
    : min === 0 ? 'a non-negative integer'
    : `an integer of at least ${min}`;
  return unit ? `${range} (${unit})` : range;
}

function parseBaseUrl(raw: string, invalid: (rule: string, shown?: string) => ConfigError): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('use http or https');
  if (url.username !== '' || url.password !== '') {
    throw invalid('not carry user:password credentials (use --token)', `${url.protocol}//***@${url.host}${url.pathname}`);
  }
  // Tested on the raw text because a bare trailing '?' or '#' leaves url.search and url.hash empty.
  if (/[?#]/.test(raw)) throw invalid('not have a query or fragment', raw.replace(/([?#]).*$/s, '$1…'));
  return url.href.replace(/\/+$/, '');
}
