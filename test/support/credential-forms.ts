/**
 * Every form in which a credential the suite sends may come back from a server or a renderer:
 * the variants suites/auth.test.ts sends (other case, shortened, extended, Basic, query
 * parameter) in every spelling (JSON, percent, form, Markdown, HTML, base64). The redactor's
 * unit tests and the hostile-server tests that scan every output share this one list.
 */
/** How a server or renderer may write a text: one entry per spelling the redactor must see through. */
export type Spell = (text: string) => string;

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');
const eachChar = (f: (c: string) => string): Spell => (text) => [...text].map(f).join('');
const eachUnit = (f: (u: number) => string): Spell => (text) => [...Array(text.length).keys()].map((i) => f(text.charCodeAt(i))).join('');
const eachByte = (f: (b: number) => string): Spell => (text) => [...Buffer.from(text)].map(f).join('');
const jsonWithSlashes: Spell = (text) => JSON.stringify(text).slice(1, -1).replace(/\//g, '\\/');
// The Markdown report's own escaping (src/report/markdown.ts).
const markdown: Spell = (text) => text.replace(/[\\`*_[\]<>|]/g, (c) => `\\${c}`);
const HTML_NAMES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', _: '&lowbar;', '/': '&sol;', '+': '&plus;', '%': '&percnt;', '=': '&equals;' };

/** Spellings that keep the text's characters in order, each one written its own way. */
export const TEXT_SPELLINGS: ReadonlyArray<readonly [string, Spell]> = [
  ['raw', (t) => t],
  ['JSON.stringify', (t) => JSON.stringify(t).slice(1, -1)],
  ['JSON with \\/', jsonWithSlashes],
  ['JSON, every character as \\u with lower-case hex', eachUnit((u) => `\\u${hex(u, 4)}`)],
  ['JSON, every character as \\u with upper-case hex', eachUnit((u) => `\\u${hex(u, 4).toUpperCase()}`)],
  ['percent-encoded, every byte, lower-case hex', eachByte((b) => `%${hex(b, 2)}`)],
  ['percent-encoded, every byte, upper-case hex', eachByte((b) => `%${hex(b, 2).toUpperCase()}`)],
  ['encodeURIComponent', encodeURIComponent],
  ['encodeURIComponent with lower-case hex', (t) => encodeURIComponent(t).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
  ['form-encoded', (t) => new URLSearchParams({ s: t }).toString().slice(2)],
  ['Markdown-escaped as the report escapes', markdown],
  ['Markdown-escaped, every punctuation', (t) => t.replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`)],
  ['JSON with \\/ inside Markdown', (t) => markdown(jsonWithSlashes(t))],
  ['HTML with named entities', eachChar((c) => HTML_NAMES[c] ?? c)],
  ['HTML with decimal entities', eachChar((c) => `&#${c.codePointAt(0)};`)],
  ['HTML with lower-case hex entities', eachChar((c) => `&#x${hex(c.codePointAt(0)!, 1)};`)],
  ['HTML with upper-case hex entities', eachChar((c) => `&#X${hex(c.codePointAt(0)!, 1).toUpperCase()};`)],
];

/** What the suite sends: the credential part and the text around it. */
export interface Variant {
  readonly name: string;
  readonly before: string;
  readonly credential: string;
  readonly after: string;
}

const swapCase = (s: string): string => [...s].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');

/** The variants of a token that suites/auth.test.ts sends; a short secret is only ever sent whole. */
export function variantsOf(token: string, long: boolean): Variant[] {
  const query = new URL('http://h/v1/widgets');
  query.searchParams.append('access_token', token);
  const [beforeQuery, afterQuery] = query.href.split('access_token=');
  return [
    { name: 'the token', before: '', credential: token, after: '' },
    ...(long
      ? [
          { name: 'the token in the other case', before: '', credential: swapCase(token), after: '' },
          { name: 'the token without its last character', before: '', credential: token.slice(0, -1), after: '' },
        ]
      : []),
    { name: 'the token with a character appended', before: '', credential: token, after: 'x' },
    { name: 'the token under Basic', before: 'Basic ', credential: token, after: '' },
    // As the HTTP client sends it: form-encoded into the URL.
    { name: 'the token as an access_token query parameter', before: `${beforeQuery}access_token=`, credential: afterQuery!, after: '' },
  ];
}


const MIN_BASE64_CORE = 8;

/** The base64 and base64url cores of `text` at byte offsets 0, 1 and 2 (the characters carrying only its bits). */
export function base64Cores(text: string): string[] {
  const bytes = Buffer.from(text);
  const out: string[] = [];
  for (const alphabet of ['base64', 'base64url'] as const) {
    for (const offset of [0, 1, 2]) {
      const encoded = Buffer.concat([Buffer.alloc(offset, 0x41), bytes]).toString(alphabet);
      const first = Math.ceil((offset * 8) / 6);
      const end = Math.floor(((offset + bytes.length) * 8) / 6);
      const core = encoded.slice(first, end);
      if (core.length >= MIN_BASE64_CORE) out.push(core);
    }
  }
  return out;
}

/** Every spelled form of every variant of the token that must never appear in any output. */
export function credentialForms(token: string): string[] {
  const long = token.length >= 8;
  const forms = new Set<string>();
  for (const v of variantsOf(token, long)) {
    for (const [, spell] of TEXT_SPELLINGS) forms.add(spell(v.credential));
    for (const core of base64Cores(v.credential)) forms.add(core);
  }
  return [...forms].filter((f) => f.length > 0);
}
