/**
 * The probe's reading of one answer (src/cli/run/probe-classify.ts): which answers to GET /widgets
 * are setup problems, and which go to the rules; and how a body or a redirect is shown in one
 * line. Setup problems are not rules of the catalogue: these tests name the check instead.
 */
import { describe, expect, test } from 'vitest';
import { classify, describeBody, describeContentType, endsWithV1, oneLine, otherVersion, showLocation, type ProbeAnswer } from '../../../../src/cli/run/probe-classify.ts';

const answer = (status: number, json: unknown, headers: Record<string, string> = {}): ProbeAnswer => ({ status, headers, text: json === undefined ? '<html></html>' : JSON.stringify(json), json });
const PAGE = { data: [], has_more: false };

describe('probe: what an answer to GET /widgets means', () => {
  const cases: Array<[string, ProbeAnswer, ReturnType<typeof classify>]> = [
    ['a JSON page is listed', answer(200, PAGE, { 'content-type': 'application/json' }), 'listed'],
    ['a JSON page with a charset is listed', answer(200, PAGE, { 'content-type': 'application/json; charset=utf-8' }), 'listed'],
    // Conformance questions, not setup: FMT-1 judges the Content-Type, PAGE-1 the shape.
    ['JSON sent as text/plain is left to the rules', answer(200, PAGE, { 'content-type': 'text/plain' }), 'listed'],
    ['a JSON body of the wrong shape is left to the rules', answer(200, { hello: 'world' }), 'listed'],
    ['401 is a refused token', answer(401, { code: 'x', message: 'y' }, { 'content-type': 'application/problem+json' }), 'refused'],
    ['403 is a refused token', answer(403, undefined), 'refused'],
    ['301 is a redirect', answer(301, undefined, { location: '/x' }), 'redirect'],
    ['308 is a redirect', answer(308, undefined), 'redirect'],
    ['304 is left to the rules', answer(304, undefined), 'for-the-rules'],
    ['404 is a missing path', answer(404, { code: 'not_found', message: 'no' }), 'not-found'],
    ['an HTML 200 is not JSON', answer(200, undefined, { 'content-type': 'text/html' }), 'not-json'],
    ['a 200 that is not JSON, without Content-Type, is not JSON', answer(200, undefined), 'not-json'],
    // The API answering, badly: FMT-1 fails it (test/servers/hostile.ts "invalid-json").
    ['broken JSON sent as application/json is left to the rules', answer(200, undefined, { 'content-type': 'application/json; charset=utf-8' }), 'listed'],
    ['broken JSON sent as application/vnd.api+json is left to the rules', answer(200, undefined, { 'content-type': 'application/vnd.api+json' }), 'listed'],
    ['503 is a server error', answer(503, undefined), 'server-error'],
    // The part read of a body over the cap (client.ts prefixOverCap): the API answering at length, for PAGE-1.
    ['a JSON page over the body cap, without Content-Type, is left to the rules', { status: 200, headers: {}, text: '{"data":[{"id":"a"},{"id":"b"}],"padding":"xxxx', json: undefined, truncated: true }, 'listed'],
    ['an HTML page over the body cap is not JSON', { status: 200, headers: { 'content-type': 'text/html' }, text: '<html><head><title>Login</title>', json: undefined, truncated: true }, 'not-json'],
    ['500 with an Error object is a server error', answer(500, { code: 'x', message: 'y' }), 'server-error'],
    ['400 is left to the rules', answer(400, { code: 'x', message: 'y' }), 'for-the-rules'],
    ['405 is left to the rules', answer(405, undefined), 'for-the-rules'],
  ];
  for (const [title, a, kind] of cases) test(title, () => expect(classify(a)).toBe(kind));
});

describe('probe: one line for a body, a Content-Type, a Location', () => {
  test('an HTML page is named by its title', () => {
    expect(describeBody('<!doctype html>\n<html><head><title>\n Acme  Portal </title>')).toBe('an HTML page titled "Acme Portal"');
  });
  test('other text by its first non-blank line, cut with an ellipsis', () => {
    expect(describeBody('\n\n  Service Unavailable\nmore')).toBe('a body starting "Service Unavailable"');
    expect(describeBody('x'.repeat(500))).toBe(`a body starting "${'x'.repeat(79)}…"`);
  });
  test('an empty body says so', () => expect(describeBody(' \n')).toBe('an empty body'));
  test('control characters (a terminal escape) never reach the line', () => {
    expect(oneLine('a\u001b[31mb\u0007c\u2028d')).toBe('a [31mb c d');
  });
  test('the Content-Type as sent, or none', () => {
    expect(describeContentType({ 'content-type': 'text/html; charset=utf-8' })).toBe('Content-Type text/html; charset=utf-8');
    expect(describeContentType({})).toBe('no Content-Type');
  });
  test('a Location is resolved against the request, and a list moved elsewhere names the base URL to use', () => {
    expect(showLocation('/api/v1/widgets', 'http://h:1/v1/widgets')).toEqual({ shown: 'http://h:1/api/v1/widgets', base: 'http://h:1/api/v1' });
  });
  test('a Location with a query, fragment or user info shows none of them, and suggests nothing', () => {
    const shown = showLocation('https://u:s3cr3t@login.example/sso?state=st4te#fr4g', 'http://h/v1/widgets');
    expect(shown).toEqual({ shown: 'https://login.example/sso (its query, fragment or user info not shown)' });
    expect(JSON.stringify(shown)).not.toMatch(/st4te|s3cr3t|fr4g/);
  });
  test('no Location, or one that is not a URL, is said', () => {
    expect(showLocation(undefined, 'http://h/v1/widgets').shown).toBe('no Location header');
    expect(showLocation('http://[bad', 'http://h/v1/widgets').shown).toBe('an unusable Location "http://[bad"');
  });
  test('a base URL ending in another version segment is named, so /v2 is never answered "try /v2/v1"', () => {
    expect(otherVersion('http://h/v2')).toBe('v2');
    expect(otherVersion('http://h/api/V3/')).toBe('V3');
    expect(otherVersion('http://h/v1')).toBeUndefined();
    expect(otherVersion('http://h/api')).toBeUndefined();
    expect(otherVersion('http://h/v2x')).toBeUndefined();
  });

  test('a base URL ending in /v1 is recognised, in any case', () => {
    expect(endsWithV1('http://h/v1')).toBe(true);
    expect(endsWithV1('http://h/api/V1')).toBe(true);
    expect(endsWithV1('http://h/api')).toBe(false);
    expect(endsWithV1('http://h/v10')).toBe(false);
  });
});
