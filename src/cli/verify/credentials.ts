/**
 * Does a report bundle hold a credential? Two ways to tell. With the tokens at hand
 * (WIDGET_TOKEN, WIDGET_SECOND_TOKEN, WIDGET_HEADERS, from the environment or .env), every file
 * is searched for them in every spelling the run's redactor knows (shared/redact.ts). Without
 * them, by shape: a URL password that is not hidden, and a recorded request that carried a
 * configured token (its `credential` says which) but whose Authorization header is not redacted.
 * Never prints what it found: only where.
 */
import { isSecretHeader, secretHeaderSet } from '../../shared/header-secrecy.ts';
import { Redactor, REDACTED } from '../../shared/redact.ts';
import type { RunReport } from '../../report/model.ts';

/**
 * The first line of the text that holds a credential long enough to be one for certain
 * (Redactor.leak), or undefined. A shorter token's letters occur by chance in any report.
 */
export function credentialLine(text: string, redactor: Redactor): number | undefined {
  return redactor.leak(text)?.line;
}

/** Recorded requests that sent a configured token yet show an Authorization value that is not hidden. */
export function unredactedAuthorization(report: RunReport): string[] {
  const problems: string[] = [];
  for (const rule of report.rules) {
    for (const test of rule.tests) {
      for (const failure of test.failures ?? []) {
        for (const x of failure.exchanges ?? []) {
          const token = x.request.credential?.token;
          if (token !== 'WIDGET_TOKEN' && token !== 'WIDGET_SECOND_TOKEN') continue;
          const value = Object.entries(x.request.headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
          if (value !== undefined && !value.includes(REDACTED)) {
            problems.push(`conformance.json: a request of "${test.title}" sent ${token} and records its Authorization header unredacted`);
          }
        }
      }
    }
  }
  return [...new Set(problems)];
}

/** The credentials to look for: the tokens and the secret header values the user has set, wherever they are set. */
export function knownSecrets(vars: Readonly<Record<string, string | undefined>>): string[] {
  const headers = (vars.WIDGET_HEADERS ?? '').split(/\r?\n/).filter((line) => line.includes(':'));
  const listed = secretHeaderSet(vars.WIDGET_SECRET_HEADERS);
  const headerValues = headers.filter((line) => isSecretHeader(line.slice(0, line.indexOf(':')).trim(), listed)).map((line) => line.slice(line.indexOf(':') + 1).trim());
  return [vars.WIDGET_TOKEN, vars.WIDGET_SECOND_TOKEN, ...headerValues].filter((v): v is string => typeof v === 'string' && v.length > 0);
}
