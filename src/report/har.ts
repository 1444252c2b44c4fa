/**
 * exchanges.har: every recorded exchange of every failed rule as HAR 1.2, so a browser's
 * developer tools can open them (schemas/har.schema.json). Built from the recorded
 * exchanges, which are redacted already; the writer redacts the file once more.
 */
import type { Exchange } from '../shared/exchange.ts';
import { safeJson } from './json.ts';
import type { RunReport } from './model.ts';

type NameValue = { name: string; value: string };

function pairs(headers: Readonly<Record<string, string>>): NameValue[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

function queryOf(url: string): NameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    // A recorded URL that no longer parses (a redacted password in its authority) has no query to show.
    return [];
  }
}

function mimeOf(headers: Readonly<Record<string, string>>): string {
  return Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
}

function entry(x: Exchange, fallbackStart: string, comment: string): Record<string, unknown> {
  const { request, response } = x;
  const requestBytes = request.body === undefined ? 0 : Buffer.byteLength(request.body);
  return {
    startedDateTime: x.startedAt ?? fallbackStart,
    time: x.durationMs,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(request.headers),
      queryString: queryOf(request.url),
      ...(request.body === undefined ? {} : { postData: { mimeType: mimeOf(request.headers), params: [], text: request.body } }),
      headersSize: -1,
      bodySize: requestBytes,
    },
    response: {
      // HAR has no entry without a response: status 0 is what browsers record for a request that got none.
      status: response?.status ?? 0,
      statusText: '',
      httpVersion: response ? 'HTTP/1.1' : '',
      cookies: [],
      headers: pairs(response?.headers ?? {}),
      content: { size: Buffer.byteLength(response?.body ?? ''), mimeType: mimeOf(response?.headers ?? {}), text: response?.body ?? '' },
      redirectURL: response?.headers.location ?? '',
      headersSize: -1,
      // The recorded body may be cut: its size on the wire is not known here.
      bodySize: -1,
      ...(x.error === undefined ? {} : { _error: x.error }),
    },
    cache: {},
    timings: { send: 0, wait: x.durationMs, receive: 0 },
    comment,
  };
}

/** The HAR document as text. */
export function renderHar(report: RunReport): string {
  const entries: Array<Record<string, unknown>> = [];
  for (const rule of report.rules.filter((r) => r.outcome === 'fail')) {
    for (const test of rule.tests) {
      for (const failure of test.failures ?? []) {
        for (const x of failure.exchanges ?? []) entries.push(entry(x, report.startedAt, test.title));
      }
    }
  }
  // The interoperability profile's evidence, each under the id its entries name (report/profile.ts).
  for (const { id, entry: key, exchange } of report.profile?.evidence ?? []) entries.push({ ...entry(exchange, report.startedAt, `profile: ${key}`), _id: id });
  const log = {
    version: '1.2',
    creator: { name: report.suite, version: report.suiteVersion },
    entries,
    comment: `Every exchange of every failed rule, then the profile's evidence (entries with _id); credentials redacted. Target: ${report.target}`,
  };
  return `${safeJson({ log })}\n`;
}
