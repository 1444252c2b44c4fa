/**
 * What the property rules send: the random values' shape (how many to a run) and the fixed
 * inputs every run tries before them. The fixed inputs carry the coverage: each named fault
 * family of test/unit/harness/property-power.test.ts (a character class a server mangles, a
 * limit, a coercion) meets one of them on every run, whatever the seed, so the random runs
 * widen the search instead of having to find those by luck. Kept apart from the suites so that
 * the power test draws exactly the values a run sends.
 */
import fc from 'fast-check';
import { COERCIBLE, LONG_STRING_MAX, LONGEST_ORDINARY_DESCRIPTION, LONGEST_ORDINARY_NAME, ORDINARY_DESCRIPTION_MAX } from './arbitraries.ts';

/** Values per property run: each its own widget, created together, one list walk for all of them. */
export const PER_RUN = { minLength: 1, maxLength: 4 };

/** Groups values into runs of `size`, the way a property run batches several creates. */
export function inRunsOf<T>(size: number, values: readonly T[]): T[][] {
  return Array.from({ length: Math.ceil(values.length / size) }, (_, i) => values.slice(i * size, (i + 1) * size));
}

/**
 * One value per class of text servers are known to mangle, each alone in its value so that a
 * server refusing one class (control characters, say: the spec lets it) does not hide the
 * others. A round trip that changes any of them is PROP-1's finding.
 */
export const HARD_CLASSES: readonly string[] = [
  'it\'s "quoted"', // quotes: SQL and JSON escaping
  'back\\slash \\n \\u0041 \\"', // backslashes, and text that looks like an escape
  '<b>bold</b> &amp; &#0; &lt;', // markup and entities: escaping or tag stripping on the way in
  '${x} {{x}} %s %n', // template and format strings
  'a\u00a0b\u2003c\u3000d', // spaces that are not U+0020, inside the text
  'a  b   c', // runs of spaces inside (collapsed by some)
  'zero\u200bwidth\u200c\u200d\u2060\ufeffjoin', // zero-width characters
  'bidi \u202eabc\u202c \u200f\u200e x', // direction marks and overrides
  'line\r\nbreak\rcr\nlf', // line endings (CRLF folded to LF by some)
  'nul\u0000byte', // NUL: C strings end there
  'tab\there\u2028line\u2029para', // tab, line and paragraph separators
  'e\u0301 A\u030a \u212b \u1100\u1161 \ufb01 q\u0307\u0323', // normalisation: NFC, NFKC and mark order would change each
  '\u{1f600}\u{1f984} \u{1f468}\u200d\u{1f469}\u200d\u{1f467} \u{1f1eb}\u{1f1f7} \u{1f3f3}\ufe0f\u200d\u{1f308}', // astral characters and emoji sequences (utf8mb3 columns)
  '\u0141\u00f3d\u017a \u00d1and\u00fa stra\u00dfe \u00c0\u00c9\u00ce', // letters beyond ASCII and Latin-1, upper case
  '\u00e9'.repeat(200), // 200 characters in 400 UTF-8 bytes: a byte limit is not a character limit
];

/**
 * PROP-1's fixed inputs, four to a run as the random runs batch them: the empty string, a lone
 * space, the values that trip truthiness and coercion, the longest generated string, and one
 * value per class of HARD_CLASSES. The spec does not constrain names, so an empty one is
 * accepted and comes back exactly, or is refused with nothing created, as any generated value;
 * the profile records which (create.empty-name). Its widget carries the run marker in the
 * other field, as every PROP-1 run's does, so it is proven the suite's and deleted.
 */
export const HARD_EXAMPLES: Record<'name' | 'description', string[][]> = {
  name: inRunsOf(4, ['', ' ', ...COERCIBLE, 'x'.repeat(LONG_STRING_MAX), ...HARD_CLASSES]),
  description: inRunsOf(4, ['', ' ', ...COERCIBLE, 'x'.repeat(LONG_STRING_MAX), ...HARD_CLASSES]),
};

export type Ordinary = { name: string; description: string };

/**
 * Ordinary text that covers what a blacklist or a sanitiser refuses: every printable ASCII
 * character (the symbols are in LONGEST_ORDINARY_NAME and _DESCRIPTION), the characters a
 * CSV-injection guard refuses at the start (`=`, `+`, `-`, `@`), and the sequences SQL, HTML
 * and template guards look for. Each is sent once as a name (at most 32) and once as a
 * description (at most 64).
 */
export const ORDINARY_COVERAGE: readonly string[] = [
  'ABCDEFGHIJKLMNOPQRSTUVWXYZ012345',
  'abcdefghijklmnopqrstuvwxyz_`|~{}',
  '=1+1',
  '+33 1 23 45',
  '@home 6789',
  "x--y /*z*/ <b> ${a} {{b}} &#3; '",
  'a  b',
];

/**
 * PROP-2's fixed inputs, tried before the random ones on every run. A value at an even place
 * of a run is sent as the name, at an odd place as the description (see PROP-2's bodies), so
 * each value below appears once as each: the values that trip truthiness and coercion,
 * ORDINARY_COVERAGE, and the shortest and longest name (1 and 32 characters) and description
 * (0 and 64).
 */
export const ORDINARY_EXAMPLES: Ordinary[][] = [
  ...inRunsOf(8, [...COERCIBLE, ...ORDINARY_COVERAGE].flatMap((value) => [{ name: value, description: '' }, { name: 'unused', description: value }])),
  [
    { name: LONGEST_ORDINARY_NAME, description: '' },
    { name: 'unused', description: LONGEST_ORDINARY_DESCRIPTION },
    { name: 'a', description: '' },
    { name: 'unused', description: '' },
  ],
];

/**
 * The body PROP-2 sends for the value at place `i` of a run, with `tag` (RuleContext.name()). The
 * run marker has to be in every widget (the sweep finds it there): at an even place it takes the
 * place of the description's first characters (the name is sent as generated, the description
 * kept ordinary: at most 64, unpadded); at an odd place it is the name, and the description is
 * sent as generated. Names and descriptions are judged alike, with no more creates.
 */
export function ordinaryBody({ name, description }: Ordinary, i: number, tag: string): Ordinary {
  if (i % 2 === 1) return { name: tag, description };
  const rest = description.slice(0, Math.max(0, ORDINARY_DESCRIPTION_MAX - tag.length - 1)).trimEnd();
  return { name, description: rest === '' ? tag : `${tag} ${rest}` };
}

/** The examples as fast-check takes them: one tuple per run. */
export function asExamples<T>(runs: readonly T[]): Array<[T]> {
  return runs.map((run) => [run] as [T]);
}

/** The random values of one PROP-1 run: one to four, as PER_RUN says. */
export const valuesPerRun = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T[]> => fc.array(arbitrary, PER_RUN);
