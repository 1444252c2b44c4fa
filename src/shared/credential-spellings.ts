/**
 * The spellings a credential takes on its way through servers and renderers, as regular
 * expression sources: a server that echoes a token rarely echoes it as it was sent.
 */

/** A regular expression source and the longest text it can match. */
export interface Pattern {
  readonly source: string;
  readonly maxLength: number;
}

/**
 * Below this length a secret is matched exactly (every spelling, but its own letter case and
 * all of its characters): a case-insensitive prefix of a 4-character secret is a common
 * word, and redacting every "abc" in a report would hide more than it protects. The suite's
 * own off-by-one and other-case variants are only sent for real tokens, which are longer.
 */
export const FUZZY_MIN_LENGTH = 8;

/**
 * Base64 characters that depend on the secret alone, fewer than this are not looked for:
 * 3 characters of a random alphabet appear by chance in any long blob.
 */
const BASE64_MIN_CORE = 4;

/** Leading zeros accepted in a numeric HTML entity (`&#0095;`); bounded so matches are too. */
const ENTITY_MAX_ZEROS = 3;

/**
 * Backslashes before an escaped character: one per escaping layer, e.g. JSON inside
 * Markdown (`\\/`). Bounded so the longest match stays known.
 */
const MAX_ESCAPE_LAYERS = 3;

/** Bits a base64 character and a byte carry; a base64 group is 3 bytes, 4 characters. */
const BITS_PER_CHAR = 6;
const BITS_PER_BYTE = 8;
const BYTES_PER_GROUP = 3;

/** Named HTML entities of ASCII punctuation (HTML5 names and the XML five). */
const NAMED_ENTITIES: Readonly<Record<string, readonly string[]>> = {
  '&': ['amp', 'AMP'], '<': ['lt', 'LT'], '>': ['gt', 'GT'], '"': ['quot', 'QUOT'], "'": ['apos'],
  '_': ['lowbar', 'UnderBar'], '/': ['sol'], '+': ['plus'], '=': ['equals'], '.': ['period'],
  ':': ['colon'], ';': ['semi'], ',': ['comma'], '!': ['excl'], '?': ['quest'], '#': ['num'],
  '$': ['dollar'], '%': ['percnt'], '@': ['commat'], '*': ['ast', 'midast'], '(': ['lpar'],
  ')': ['rpar'], '[': ['lsqb', 'lbrack'], ']': ['rsqb', 'rbrack'], '{': ['lcub', 'lbrace'],
  '}': ['rcub', 'rbrace'], '|': ['verbar', 'vert', 'VerticalLine'], '\\': ['bsol'], '^': ['Hat'],
  '`': ['grave', 'DiacriticalGrave'], ' ': [], '-': [], '~': [],
};

/**
 * Characters whose raw form also starts an escape of something else (`%25` is `%` encoded,
 * or `%` then `25`). Every other character's spellings are prefix-free, so matching them
 * never backtracks; these are matched atomically in one fixed order per pattern instead,
 * and each order is a mode: 0 raw first, 1 escaped first, 2 escaped twice first (a
 * backslash in JSON inside Markdown is four).
 */
const AMBIGUOUS: Readonly<Record<string, number>> = { '\\': 3, '%': 2, '&': 2 };

/** A backslash matched as a regular expression. */
const BACKSLASH = '\\\\';

const ASCII_PUNCTUATION = /^[!-/:-@[-`{-~]$/;

/** Quotes a string for use inside a regular expression. */
function quote(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/** Hex digits matched in either case, as `\uXXXX`, `%XX` and `&#xXX;` may be written. */
function hexOf(value: number, width: number): string {
  return value
    .toString(16)
    .padStart(width, '0')
    .replace(/[a-f]/g, (d) => `[${d}${d.toUpperCase()}]`);
}

function alt(patterns: readonly Pattern[]): Pattern {
  if (patterns.length === 1) return patterns[0]!;
  return { source: `(?:${patterns.map((p) => p.source).join('|')})`, maxLength: Math.max(...patterns.map((p) => p.maxLength)) };
}

/** Every spelling of one character, its raw form apart. */
function escapedSpellings(char: string): Pattern[] {
  const cp = char.codePointAt(0)!;
  const units = [...Array(char.length).keys()].map((i) => char.charCodeAt(i));
  const utf8 = [...Buffer.from(char, 'utf8')];
  const out: Pattern[] = [
    // JSON, also behind a Markdown escape of its backslash.
    {
      source: units.map((u) => `\\\\{1,2}[uU]${hexOf(u, 4)}`).join(''),
      maxLength: units.length * 7,
    },
    { source: utf8.map((b) => `%${hexOf(b, 2)}`).join(''), maxLength: utf8.length * 3 },
    { source: `&#0{0,${ENTITY_MAX_ZEROS}}${cp};`, maxLength: 3 + ENTITY_MAX_ZEROS + String(cp).length },
    { source: `&#[xX]0{0,${ENTITY_MAX_ZEROS}}${hexOf(cp, 1)};`, maxLength: 4 + ENTITY_MAX_ZEROS + cp.toString(16).length },
    ...(NAMED_ENTITIES[char] ?? []).map((name) => ({ source: `&${name};`, maxLength: name.length + 2 })),
  ];
  if (char === ' ') out.push({ source: '\\+', maxLength: 1 });
  // A backslash escapes itself only once: `\\\\` as two escaped backslashes must not be
  // read as one backslash escaped twice, or a secret holding `\\` would never match.
  if (char === '\\') out.unshift({ source: BACKSLASH.repeat(2), maxLength: 2 });
  else if (ASCII_PUNCTUATION.test(char)) out.unshift({ source: `\\\\{1,${MAX_ESCAPE_LAYERS}}${quote(char)}`, maxLength: MAX_ESCAPE_LAYERS + 1 });
  return out;
}

/** The letter-case forms of a character that are single characters themselves. */
function caseForms(char: string, caseInsensitive: boolean): string[] {
  if (!caseInsensitive) return [char];
  const forms = new Set([char, char.toLowerCase(), char.toUpperCase()]);
  return [...forms].filter((f) => [...f].length === 1);
}

// Group names only need to differ within one expression; a module-wide count is the
// simplest way to make them differ across the patterns a Redactor joins.
let atomicGroups = 0;

/** Matches the first alternative that fits and never retries another (an atomic group). */
function atomic(patterns: readonly Pattern[]): Pattern {
  const name = `a${(atomicGroups += 1)}`;
  const inner = alt(patterns);
  return { source: `(?=(?<${name}>${inner.source}))\\k<${name}>`, maxLength: inner.maxLength };
}

/** For each ambiguous character, the mode it is matched in (see AMBIGUOUS). */
type Modes = ReadonlyMap<string, number>;

const ESCAPED_TWICE: Readonly<Record<string, Pattern>> = { '\\': { source: BACKSLASH.repeat(4), maxLength: 4 } };

/** One character in any spelling. */
function charPattern(char: string, caseInsensitive: boolean, modes: Modes): Pattern {
  const forms = caseForms(char, caseInsensitive);
  const raw: Pattern = { source: forms.length === 1 ? quote(char) : `[${forms.map(quote).join('')}]`, maxLength: char.length };
  const escaped = forms.flatMap(escapedSpellings);
  const mode = modes.get(char);
  if (mode === undefined) return alt([raw, ...escaped]);
  const twice = ESCAPED_TWICE[char];
  if (mode === 0) return atomic([raw, ...escaped]);
  return atomic([...(mode === 2 && twice ? [twice] : []), ...escaped, raw]);
}

function sequence(chars: readonly string[], caseInsensitive: boolean, modes: Modes): Pattern {
  const parts = chars.map((c) => charPattern(c, caseInsensitive, modes));
  return { source: parts.map((p) => p.source).join(''), maxLength: parts.reduce((sum, p) => sum + p.maxLength, 0) };
}

/** Every combination of modes for the ambiguous characters in `chars`. */
function modeCombinations(chars: readonly string[]): Modes[] {
  const present = Object.keys(AMBIGUOUS).filter((c) => chars.includes(c));
  return present.reduce<Array<Map<string, number>>>(
    (all, c) => all.flatMap((m) => [...Array(AMBIGUOUS[c]).keys()].map((mode) => new Map([...m, [c, mode]]))),
    [new Map()],
  );
}

/**
 * The secret with each character in any of its spellings (raw, JSON `\uXXXX` and `\/`,
 * Markdown `\_`, `%XX`, `+` for space, HTML entities). A secret of FUZZY_MIN_LENGTH or more
 * also matches in any letter case and without its last character, the variants the suite
 * sends in its auth checks (longer variants contain the secret).
 */
export function escapedPatterns(secret: string): Pattern[] {
  const chars = [...secret];
  const fuzzy = chars.length >= FUZZY_MIN_LENGTH;
  // One pattern per combination of modes: a text spells each ambiguous character one way
  // throughout, and 3 × 2 × 2 patterns at most stay cheap, as long as each is compiled on its
  // own (joined in one alternation, V8 runs them ten times slower or worse).
  return modeCombinations(chars).map((modes) => {
    if (!fuzzy) return sequence(chars, false, modes);
    const head = sequence(chars.slice(0, -1), true, modes);
    const last = charPattern(chars.at(-1)!, true, modes);
    return { source: `${head.source}(?:${last.source})?`, maxLength: head.maxLength + last.maxLength };
  });
}

/**
 * The base64 characters that depend only on `data` when it starts `offset` bytes into a
 * group of three: the same whatever bytes surround it in a longer blob.
 */
function base64Core(data: Buffer, offset: number): string {
  const encoded = Buffer.concat([Buffer.alloc(offset), data, Buffer.alloc(BYTES_PER_GROUP)]).toString('base64');
  const firstBit = offset * BITS_PER_BYTE;
  const endBit = firstBit + data.length * BITS_PER_BYTE;
  const first = Math.ceil(firstBit / BITS_PER_CHAR);
  const end = Math.floor(endBit / BITS_PER_CHAR);
  return end > first ? encoded.slice(first, end) : '';
}

/** A base64 core in the standard and URL alphabets, raw, JSON-escaped or percent-encoded. */
function base64Source(core: string): string {
  return [...core]
    .map((c) => (c === '+' ? '(?:[+-]|%2[bB])' : c === '/' ? `(?:\\\\{0,${MAX_ESCAPE_LAYERS}}\\/|_|%2[fF])` : c))
    .join('');
}

/**
 * The secret as base64 or base64url, alone or as Basic credentials (`secret:`, `:secret`),
 * at any of the three byte alignments inside a longer blob; for long secrets also its
 * other-case and shortened variants.
 */
export function base64Pattern(secret: string): Pattern | undefined {
  const fuzzy = [...secret].length >= FUZZY_MIN_LENGTH;
  const swapped = [...secret].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
  const variants = fuzzy ? [secret, swapped, [...secret].slice(0, -1).join('')] : [secret];
  const cores = new Set<string>();
  for (const v of variants) {
    for (const data of [v, `${v}:`, `:${v}`]) {
      for (let offset = 0; offset < BYTES_PER_GROUP; offset++) {
        const core = base64Core(Buffer.from(data, 'utf8'), offset);
        if (core.length >= BASE64_MIN_CORE) cores.add(core);
      }
    }
  }
  if (cores.size === 0) return undefined;
  // Longest first: a core that begins another must not win and leave the rest showing.
  const sorted = [...cores].sort((a, b) => b.length - a.length);
  const perChar = MAX_ESCAPE_LAYERS + 1;
  return { source: `(?:${sorted.map(base64Source).join('|')})`, maxLength: sorted[0]!.length * perChar };
}
