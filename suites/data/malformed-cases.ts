/**
 * Malformed create requests (§4.2, §7), one test each. Every body that can carry one holds
 * the case's marker, so the test can search the account for anything it created.
 */

export interface MalformedCase {
  /** Stable id; part of the test title. */
  readonly id: string;
  readonly rule: 'MAL-1' | 'MAL-2' | 'MAL-3';
  /** The expected outcome, as the test title says it. */
  readonly outcome: string;
  /** The raw request body, given the case's marker (a unique name). */
  readonly body: (marker: string) => string;
  /** Why the case exists: the bug it catches. */
  readonly why: string;
}

const json = JSON.stringify;

export const MALFORMED_CASES: readonly MalformedCase[] = [
  // MAL-1: name missing
  { id: 'missing-name', rule: 'MAL-1', outcome: 'a body without name is refused', body: (m) => json({ description: m }),
    why: 'The spec\'s own example of a malformed request; catches servers that default the name.' },
  { id: 'misspelled-name', rule: 'MAL-1', outcome: 'a body whose only name-like field is misspelled ("nmae") is refused', body: (m) => json({ nmae: m, description: m }),
    why: 'Catches servers that ignore unknown fields and then accept a missing name.' },
  { id: 'empty-object', rule: 'MAL-1', outcome: 'an empty object is refused', body: () => '{}',
    why: 'The smallest object without name; catches validation that only runs when some field is present.' },
  // MAL-2: name or description of another JSON type
  { id: 'name-number', rule: 'MAL-2', outcome: 'a number as name is refused', body: (m) => json({ name: 42, description: m }),
    why: 'Catches servers that coerce with String(name).' },
  { id: 'name-boolean', rule: 'MAL-2', outcome: 'a boolean as name is refused', body: (m) => json({ name: true, description: m }),
    why: 'Catches truthiness checks ("if (!body.name)") that let true through.' },
  { id: 'name-null', rule: 'MAL-2', outcome: 'null as name is refused', body: (m) => json({ name: null, description: m }),
    why: 'Catches "name in body" checks that accept a null value.' },
  { id: 'name-array', rule: 'MAL-2', outcome: 'an array as name is refused', body: (m) => json({ name: [m], description: m }),
    why: 'A one-element array stringifies to its element: catches coercion and length-only checks.' },
  { id: 'name-object', rule: 'MAL-2', outcome: 'an object as name is refused', body: (m) => json({ name: { text: m }, description: m }),
    why: 'Catches servers that store whatever JSON value arrives.' },
  { id: 'description-number', rule: 'MAL-2', outcome: 'a number as description is refused', body: (m) => json({ name: m, description: 7 }),
    why: 'description is optional but typed: catches validation of required fields only.' },
  { id: 'description-boolean', rule: 'MAL-2', outcome: 'a boolean as description is refused', body: (m) => json({ name: m, description: false }),
    why: 'Catches truthiness checks that skip a false description as "absent".' },
  { id: 'description-array', rule: 'MAL-2', outcome: 'an array as description is refused', body: (m) => json({ name: m, description: ['text'] }),
    why: 'Catches coercion of the optional field.' },
  { id: 'description-object', rule: 'MAL-2', outcome: 'an object as description is refused', body: (m) => json({ name: m, description: { text: 'x' } }),
    why: 'Catches servers that store whatever JSON value arrives in the optional field.' },
  // MAL-3: not JSON, or JSON that is not an object
  { id: 'invalid-json', rule: 'MAL-3', outcome: 'a truncated JSON object is refused, not a 5xx', body: (m) => `{"name": "${m}"`,
    why: 'A parse error must be the client\'s 4xx, not an unhandled exception\'s 500.' },
  { id: 'not-json', rule: 'MAL-3', outcome: 'a form-encoded body is refused, not a 5xx', body: (m) => `name=${encodeURIComponent(m)}`,
    why: 'Catches servers that fall back to another parser behind a JSON Content-Type.' },
  { id: 'trailing-garbage', rule: 'MAL-3', outcome: 'a valid object followed by more text is refused, not a 5xx', body: (m) => `${json({ name: m })} and more`,
    why: 'Not JSON as a whole: catches parsers that read the first value and ignore the rest (e.g. a streaming decoder).' },
  { id: 'empty-body', rule: 'MAL-3', outcome: 'an empty body is refused, not a 5xx', body: () => '',
    why: 'Catches parsers that read an empty body as undefined and fail later with a 500.' },
  { id: 'json-array', rule: 'MAL-3', outcome: 'a JSON array holding a valid widget is refused', body: (m) => json([{ name: m }]),
    why: 'Catches bulk-create leniency and code that reads body[0] or spreads the array.' },
  { id: 'json-string', rule: 'MAL-3', outcome: 'a JSON string is refused', body: (m) => json(m),
    why: 'Catches "typeof body === object" checks done after a lenient parse.' },
  { id: 'json-number', rule: 'MAL-3', outcome: 'a JSON number is refused', body: () => '42',
    why: 'Catches property access on a primitive that yields undefined and a 500.' },
  { id: 'json-null', rule: 'MAL-3', outcome: 'JSON null is refused', body: () => 'null',
    why: 'typeof null is "object": catches the classic JavaScript check.' },
];
