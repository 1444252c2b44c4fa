/** The JSON Schemas in schemas/, the RFC 3339 date-time check and the wording of schema messages. */
import { describe, expect, it } from 'vitest';
import { describeString } from '../../src/harness/arbitraries.ts';
import { asText, checkSchema, formatIssues, isRfc3339DateTime, loadSchema, parseRfc3339, preview, PREVIEW_CHARS, PREVIEW_MAX_DEPTH, validateSchema, type SchemaName } from '../../src/schema.ts';

const WIDGET = { id: 'w_1', name: 'Sprocket', created_at: '2026-01-02T03:04:05Z' } as const;

/** The formatted issues of a value, one per line ('' when it conforms). */
const issues = (name: SchemaName, value: unknown): string => formatIssues(validateSchema(name, value));

describe('schema files', () => {
  it('every schema is a draft 2020-12 document with its own $id', () => {
    for (const name of ['widget', 'page', 'error', 'create-request'] as const) {
      const schema = loadSchema(name);
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(String(schema.$id)).toMatch(new RegExp(`/${name}\\.schema\\.json$`));
    }
  });
});

describe('Widget schema', () => {
  it('accepts a widget with id, name and created_at, with or without a string description', () => {
    expect(validateSchema('widget', WIDGET)).toEqual([]);
    expect(validateSchema('widget', { ...WIDGET, description: '' })).toEqual([]);
    expect(validateSchema('widget', { ...WIDGET, description: 'a blue one' })).toEqual([]);
    expect(validateSchema('widget', { ...WIDGET, name: '' })).toEqual([]);
  });

  it('accepts extra fields it does not know', () => {
    expect(validateSchema('widget', { ...WIDGET, color: 'blue', updated_at: null, tags: [1] })).toEqual([]);
  });

  it('rejects a widget missing id, name or created_at, naming each missing field', () => {
    for (const field of ['id', 'name', 'created_at'] as const) {
      const { [field]: _omitted, ...rest } = WIDGET;
      expect(issues('widget', rest)).toBe(`/${field}: expected a required field, received nothing (field absent)`);
    }
  });

  it('rejects a null description: optional means absent, not null', () => {
    expect(issues('widget', { ...WIDGET, description: null })).toBe('/description: expected type string, received null');
  });

  it('rejects an empty or non-string id', () => {
    expect(issues('widget', { ...WIDGET, id: '' })).toBe('/id: expected a string of at least 1 character(s), received ""');
    expect(issues('widget', { ...WIDGET, id: 42 })).toBe('/id: expected type string, received 42');
  });

  it('rejects a created_at that is not an RFC 3339 date-time, or not a string', () => {
    expect(issues('widget', { ...WIDGET, created_at: '2026-01-02 03:04:05Z' })).toBe(
      '/created_at: expected format date-time (RFC 3339), received "2026-01-02 03:04:05Z"',
    );
    expect(issues('widget', { ...WIDGET, created_at: 1767323045 })).toBe('/created_at: expected type string, received 1767323045');
  });

  it('rejects a body that is not an object, saying what it was', () => {
    expect(issues('widget', [WIDGET])).toMatch(/^\(body\): expected type object, received \[\{"id":"w_1"/);
    expect(issues('widget', null)).toBe('(body): expected type object, received null');
    expect(issues('widget', 'w_1')).toBe('(body): expected type object, received "w_1"');
  });

  it('reports every violation at once, one per line', () => {
    const lines = issues('widget', { id: '', name: 5, created_at: 'yesterday', description: null }).split('\n');
    expect(lines).toHaveLength(4);
    expect(lines).toEqual(
      expect.arrayContaining([
        '/id: expected a string of at least 1 character(s), received ""',
        '/name: expected type string, received 5',
        '/description: expected type string, received null',
        '/created_at: expected format date-time (RFC 3339), received "yesterday"',
      ]),
    );
  });
});

describe('page schema', () => {
  it('accepts a page of widgets with has_more and a string or null next_cursor, or none', () => {
    expect(validateSchema('page', { data: [WIDGET, { ...WIDGET, id: 'w_2' }], has_more: true, next_cursor: 'abc' })).toEqual([]);
    expect(validateSchema('page', { data: [], has_more: false, next_cursor: null })).toEqual([]);
    expect(validateSchema('page', { data: [], has_more: false })).toEqual([]);
  });

  it('accepts extra fields on the page', () => {
    expect(validateSchema('page', { data: [], has_more: false, total: 0, links: {} })).toEqual([]);
  });

  it('rejects a page without data or has_more', () => {
    expect(issues('page', { has_more: false })).toBe('/data: expected a required field, received nothing (field absent)');
    expect(issues('page', { data: [] })).toBe('/has_more: expected a required field, received nothing (field absent)');
  });

  it('rejects data that is not an array, a has_more that is not a boolean and a next_cursor that is neither string nor null', () => {
    expect(issues('page', { data: {}, has_more: false })).toBe('/data: expected type array, received {}');
    expect(issues('page', { data: [], has_more: 'false' })).toBe('/has_more: expected type boolean, received "false"');
    expect(issues('page', { data: [], has_more: true, next_cursor: 5 })).toBe('/next_cursor: expected type string or null, received 5');
  });

  it('checks every item as a Widget, naming the item index in the path', () => {
    const text = issues('page', { data: [WIDGET, { id: 'w_2', name: 'n', created_at: '2026-13-01T00:00:00Z' }, { id: 'w_3' }], has_more: false });
    expect(text.split('\n').sort()).toEqual(
      [
        '/data/1/created_at: expected format date-time (RFC 3339), received "2026-13-01T00:00:00Z"',
        '/data/2/name: expected a required field, received nothing (field absent)',
        '/data/2/created_at: expected a required field, received nothing (field absent)',
      ].sort(),
    );
  });
});

describe('Error schema', () => {
  it('accepts code and message, with or without a string request_id, and extra fields', () => {
    expect(validateSchema('error', { code: 'not_found', message: 'No widget.' })).toEqual([]);
    expect(validateSchema('error', { code: 'not_found', message: 'No widget.', request_id: 'req_1', details: [] })).toEqual([]);
  });

  it('rejects a missing code or message and non-string fields', () => {
    expect(issues('error', { message: 'm' })).toBe('/code: expected a required field, received nothing (field absent)');
    expect(issues('error', { code: 'c' })).toBe('/message: expected a required field, received nothing (field absent)');
    expect(issues('error', { code: 404, message: 'm' })).toBe('/code: expected type string, received 404');
    expect(issues('error', { code: 'c', message: 'm', request_id: 7 })).toBe('/request_id: expected type string, received 7');
    expect(issues('error', { code: 'c', message: null })).toBe('/message: expected type string, received null');
  });
});

describe('create-request schema', () => {
  it('accepts a name with an optional string description', () => {
    expect(validateSchema('create-request', { name: 'n' })).toEqual([]);
    expect(validateSchema('create-request', { name: 'n', description: 'd' })).toEqual([]);
  });

  it('rejects a missing or non-string name and a null description', () => {
    expect(issues('create-request', {})).toBe('/name: expected a required field, received nothing (field absent)');
    expect(issues('create-request', { name: ['n'] })).toBe('/name: expected type string, received ["n"]');
    expect(issues('create-request', { name: 'n', description: null })).toBe('/description: expected type string, received null');
  });
});

describe('isRfc3339DateTime', () => {
  it.each([
    '2026-01-02T03:04:05Z',
    '2026-01-02t03:04:05z',
    '2026-01-02T03:04:05.1Z',
    '2026-01-02T03:04:05.123Z',
    '2026-01-02T03:04:05.123456789Z',
    '2026-01-02T03:04:05+05:30',
    '2026-01-02T03:04:05-00:00',
    '2026-01-02T03:04:05.5-12:00',
    '2016-12-31T23:59:60Z',
    '2024-02-29T00:00:00Z',
    '2000-02-29T12:00:00Z',
    '2026-12-31T23:59:59+23:59',
  ])('accepts %s', (value) => {
    expect(isRfc3339DateTime(value)).toBe(true);
  });

  it.each([
    ['no zone', '2026-01-02T03:04:05'],
    ['offset without colon', '2026-01-02T03:04:05+0530'],
    ['offset hours only', '2026-01-02T03:04:05+05'],
    ['space separator', '2026-01-02 03:04:05Z'],
    ['Feb 29 in a common year', '2027-02-29T00:00:00Z'],
    ['Feb 29 in a century year not divisible by 400', '1900-02-29T00:00:00Z'],
    ['month 13', '2026-13-01T00:00:00Z'],
    ['month 00', '2026-00-01T00:00:00Z'],
    ['day 00', '2026-01-00T00:00:00Z'],
    ['April 31', '2026-04-31T00:00:00Z'],
    ['hour 24', '2026-01-02T24:00:00Z'],
    ['minute 60', '2026-01-02T03:60:00Z'],
    ['second 61', '2026-01-02T03:04:61Z'],
    ['offset hour 24', '2026-01-02T03:04:05+24:00'],
    ['offset minute 60', '2026-01-02T03:04:05+05:60'],
    ['date only', '2026-01-02'],
    ['no seconds', '2026-01-02T03:04Z'],
    ['empty fraction', '2026-01-02T03:04:05.Z'],
    ['comma fraction', '2026-01-02T03:04:05,5Z'],
    ['one-digit month', '2026-1-02T03:04:05Z'],
    ['trailing text', '2026-01-02T03:04:05Z '],
    ['empty string', ''],
  ])('rejects %s (%s)', (_why, value) => {
    expect(isRfc3339DateTime(value)).toBe(false);
  });
});

describe('parseRfc3339', () => {
  it('returns the epoch milliseconds of a time with a numeric offset', () => {
    expect(parseRfc3339('2026-01-02T03:04:05+05:30')).toBe(Date.UTC(2026, 0, 1, 21, 34, 5));
    expect(parseRfc3339('2026-01-02T03:04:05-08:00')).toBe(Date.UTC(2026, 0, 2, 11, 4, 5));
    expect(parseRfc3339('2026-01-02T03:04:05Z')).toBe(Date.UTC(2026, 0, 2, 3, 4, 5));
  });

  it('reads lowercase separators and fractions of any length', () => {
    expect(parseRfc3339('2026-01-02t03:04:05.25z')).toBe(Date.UTC(2026, 0, 2, 3, 4, 5, 250));
    expect(parseRfc3339('2026-01-02T03:04:05.123456789Z')).toBe(Date.UTC(2026, 0, 2, 3, 4, 5, 123));
  });

  it('reads a leap second as second 59', () => {
    expect(parseRfc3339('2016-12-31T23:59:60Z')).toBe(Date.UTC(2016, 11, 31, 23, 59, 59));
    expect(parseRfc3339('2016-12-31T23:59:60.5+01:00')).toBe(Date.UTC(2016, 11, 31, 22, 59, 59, 500));
  });

  it('returns NaN for anything that is not an RFC 3339 date-time', () => {
    expect(parseRfc3339('2026-01-02 03:04:05Z')).toBeNaN();
    expect(parseRfc3339('2026-01-02T03:04:05')).toBeNaN();
    expect(parseRfc3339('Fri, 02 Jan 2026 03:04:05 GMT')).toBeNaN();
  });
});

describe('preview', () => {
  it('renders values as JSON so that the type shows, and cuts long ones', () => {
    expect(preview(undefined)).toBe('nothing (undefined)');
    expect(preview('5')).toBe('"5"');
    expect(preview(5)).toBe('5');
    expect(preview(null)).toBe('null');
    const long = 'x'.repeat(300);
    expect(preview(long)).toBe(`"${'x'.repeat(199)}… (302 characters)`);
  });

  it('renders objects and arrays as JSON.stringify does', () => {
    const value = { id: 'w', tags: [1, 'two', null, { deep: [true] }] };
    expect(preview(value)).toBe(JSON.stringify(value));
  });
});

/** Nesting far beyond what JSON.stringify, String() or any recursion survives. */
const DEEP = 100_000;

function deepArray(levels: number): unknown {
  let value: unknown = 'core';
  for (let i = 0; i < levels; i += 1) value = [value];
  return value;
}

function deepObject(levels: number): unknown {
  let value: unknown = 'core';
  for (let i = 0; i < levels; i += 1) value = { k: value };
  return value;
}

describe('values nested 100,000 deep', () => {
  it.each([
    ['an array', deepArray(DEEP), '['],
    ['an object', deepObject(DEEP), '{"k":'],
  ])('preview of %s is short, shows the nesting cut, and says so', (_what, value, opener) => {
    const text = preview(value);
    expect(text.startsWith(opener.repeat(PREVIEW_MAX_DEPTH))).toBe(true);
    expect(text).toContain('…');
    expect(text).toContain(`(nested more than ${PREVIEW_MAX_DEPTH} levels deep)`);
    expect(text.length).toBeLessThan(PREVIEW_CHARS * 2);
  });

  it('a wide value nested deep is cut at the preview length', () => {
    let value: unknown = 'end';
    for (let i = 0; i < DEEP; i += 1) value = ['x'.repeat(50), value];
    const text = preview(value);
    expect(text.length).toBeLessThan(PREVIEW_CHARS + 60);
    expect(text).toMatch(/… \(nested more than \d+ levels deep\)$/);
  });

  it.each([
    ['an array', deepArray(DEEP)],
    ['an object', deepObject(DEEP)],
  ])('a Widget whose name is %s fails the schema with a one-line message', (_what, name) => {
    const text = issues('widget', { ...WIDGET, name });
    expect(text.split('\n')).toHaveLength(1);
    expect(text).toMatch(/^\/name: expected type string, received [[{].*nested more than/);
  });

  it('describeString and asText show such a value without recursing', () => {
    expect(describeString(deepArray(DEEP))).toContain('nested more than');
    expect(asText(deepObject(DEEP))).toContain('nested more than');
    expect(asText('plain')).toBe('plain');
    expect(asText(7)).toBe('7');
  });
});

describe('checkSchema', () => {
  it('describes at most the issues asked for and counts them all', () => {
    const page = { data: Array.from({ length: 10 }, () => 1), has_more: false };
    const { issues: first, total } = checkSchema('page', page, 3);
    expect(first).toHaveLength(3);
    expect(total).toBe(10);
    expect(validateSchema('page', page)).toHaveLength(10);
  });
});

