/**
 * The config's secrets: the config as a report may show it (every secret redacted), the values
 * the redactor must hide, and a URL fit for an error message.
 */
import { isSecretHeader, secretHeaderSet, secretHeaderValues } from '../shared/header-secrecy.ts';
import { REDACTED, redactUrlCredentials, urlPassword } from '../shared/redact.ts';
import { OPTIONS, type SuiteConfig } from './options.ts';

/** The config with every secret replaced by "[REDACTED]", safe to print or write to a report. */
export function redactedConfig(c: SuiteConfig): Record<string, unknown> {
  const out: Record<string, unknown> = { ...c };
  for (const def of OPTIONS) {
    if ((def.secret || def.kind === 'command') && out[def.key] !== undefined) out[def.key] = REDACTED;
  }
  // The header names say which gateway or tenant headers were sent; only the secret ones' values are hidden.
  if (c.headers !== undefined) {
    const listed = secretHeaderSet(c.secretHeaders);
    out.headers = Object.fromEntries(Object.entries(c.headers).map(([name, value]) => [name, isSecretHeader(name, listed) ? REDACTED : value]));
  }
  if (c.baseUrl !== undefined) out.baseUrl = redactUrlCredentials(c.baseUrl);
  return out;
}

/** The non-empty secret values of `c`, the base URL's password among them, for scrubbing them from logs and reports. */
export function secretsOf(c: SuiteConfig): string[] {
  const tokens = OPTIONS.filter((def) => def.secret && def.kind !== 'headers')
    .map((def) => c[def.key])
    .filter((v): v is string => typeof v === 'string' && v !== '');
  tokens.push(...secretHeaderValues(c.headers, c.secretHeaders));
  const password = c.baseUrl === undefined ? undefined : urlPassword(c.baseUrl);
  return password === undefined ? tokens : [...tokens, ...new Set([password, percentDecoded(password)])];
}

function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `raw` with the password of a URL, even an unparseable one, replaced: fit for an error message. */
export function withoutPassword(raw: string): string {
  const password = urlPassword(raw);
  // The password runs from the first ':' after 'scheme://' to the last '@', so `:password@`
  // first occurs exactly there.
  return password === undefined ? raw : raw.replace(`:${password}@`, `:${REDACTED}@`);
}
