/**
 * Ids that are safe to send. A server's id is untrusted input, and a server's router may decode
 * and normalise a path before it finds the widget. Every id is sent percent-encoded as one
 * segment, and the proof of a write is a retrieve of the identical request target: a router that
 * reads an encoded `/`, `?`, `#` or `;` (or anything else) its own way reads it so for that GET
 * too, and the proof shows what the write would reach. What a GET on the same path does not
 * reveal is a path that climbs or collapses (unsafeSegment): an id is refused when it is empty,
 * over-long, holds a control or format character or a lone surrogate, or when, under any
 * decoding a server may apply, it holds a `.` or `..` segment or nothing but separators. And a delete is not sent
 * when an id the run saw that is not its own equals it under the normalisations servers apply
 * to ids (idKey). Either way the id is left and listed with the reason: a risky-looking id is not
 * a finding by itself.
 */

/** The longest id the suite puts in a path: a server's id is untrusted input. */
export const MAX_ID_LENGTH = 1024;

/** Percent-decodings applied at most (a server decoding more often than this is not told apart: the id is refused). */
const MAX_DECODINGS = 8;

/** C0 and C1 controls, DEL, and the format characters routers and terminals drop or act on (bidi, zero-width, BOM). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/u;

/** What separates segments once a server has decoded a path: `/`, and `\` as WHATWG URL parsing reads it. */
const SEPARATORS = /[/\\]/;

/** A lone surrogate: text no UTF-8 encoder can write. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** One percent-decoding as a lenient server applies it: every %XX read as a byte, the bytes read as UTF-8 (bad bytes as U+FFFD). */
function percentDecodeOnce(text: string): string {
  if (!/%[0-9a-f]{2}/i.test(text)) return text;
  const bytes: number[] = [];
  const out: string[] = [];
  const flush = (): void => {
    if (bytes.length) out.push(Buffer.from(bytes).toString('utf8'));
    bytes.length = 0;
  };
  for (let i = 0; i < text.length; ) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '%' && /^[0-9a-f]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 3;
    } else {
      flush();
      const cp = text.codePointAt(i)!;
      out.push(String.fromCodePoint(cp));
      i += cp > 0xffff ? 2 : 1;
    }
  }
  flush();
  return out.join('');
}

/**
 * Every form a server may route the id as: the id itself, each percent-decoding of it repeated
 * until stable, each with `+` read as a space, and the NFKC form of each (full-width `／`, `＼`
 * and `．` are `/`, `\` and `.` there). Undefined when decoding does not become stable within MAX_DECODINGS.
 */
export function decodedForms(id: string): string[] | undefined {
  const layers = [id];
  for (let i = 0; i < MAX_DECODINGS; i += 1) {
    const next = percentDecodeOnce(layers.at(-1)!);
    if (next === layers.at(-1)) break;
    layers.push(next);
    if (i === MAX_DECODINGS - 1 && percentDecodeOnce(next) !== next) return undefined;
  }
  const forms = new Set<string>();
  for (const layer of layers) {
    for (const form of [layer, layer.replace(/\+/g, ' ')]) {
      forms.add(form);
      forms.add(form.normalize('NFKC'));
    }
  }
  return [...forms];
}

/**
 * A segment a router resolves rather than routes: dots alone, white space around them included
 * (`.` stays, `..` climbs, and servers that trim trailing dots and spaces, as Windows paths do,
 * read `...` and ` .` so).
 */
function dotSegment(segment: string): boolean {
  return /^\s*\.+\s*$/u.test(segment);
}

/**
 * Why a decoded form climbs or collapses, or undefined: a dot segment, or nothing but separators
 * and white space (the path collapses to the collection itself). An empty or blank segment beside
 * real ones (`a//b`, a leading or trailing "/", as one base64 id in about sixteen holds; `/+` with
 * "+" read as a space) merges the same way for the proof's GET as for the write (nginx and Apache
 * merge slashes whatever the method): the proof covers it.
 */
function climbs(form: string): string | undefined {
  const segments = form.split(SEPARATORS);
  if (segments.some(dotSegment)) return 'a "." or ".." segment';
  if (segments.every((segment) => segment.trim() === '')) return 'nothing but "/" and white space (the path collapses to the collection)';
  return undefined;
}

/**
 * Why an id cannot be sent, or undefined when it can: empty or too long, not encodable (a lone
 * surrogate), a control or format character, or, under any decoding a server may apply
 * (decodedForms, with `\` read as `/`), a segment of dots alone or nothing but separators: a path
 * that climbs or collapses, which a router may resolve for one method and not another (so a GET
 * on the same path does not reveal it). Everything else (`/`, `?`, `#`,
 * `;`, `%`, `+`, white space, any script) is sent percent-encoded as one segment, and the proof's
 * retrieve of the identical target covers whatever a router makes of it.
 */
export function unsafeSegment(id: string): string | undefined {
  if (id === '') return 'the id is empty';
  if (id.length > MAX_ID_LENGTH) return `the id is longer than ${MAX_ID_LENGTH} characters`;
  let encoded: string;
  try {
    encoded = encodeURIComponent(id);
  } catch {
    return 'the id is not well-formed Unicode (a lone surrogate)';
  }
  const base = new URL('http://suite.invalid/widgets/');
  if (new URL(encoded, base).pathname !== `${base.pathname}${encoded}`) return 'URL normalisation would change the path (a "." or ".." segment)';
  const forms = decodedForms(id);
  if (forms === undefined) return `the id still holds percent-escapes after ${MAX_DECODINGS} decodings`;
  for (const form of forms) {
    const decoded = form === id ? '' : ` once a server decodes it (as ${JSON.stringify(form.slice(0, 40))})`;
    if (CONTROL.test(form)) return `the id holds a control or format character${decoded}`;
    if (LONE_SURROGATE.test(form)) return `the id is not well-formed Unicode${decoded}`;
    const climbing = climbs(form);
    if (climbing !== undefined) return `the id holds ${climbing}${decoded}: a router that resolves it for a DELETE alone would reach another path, which a retrieve does not reveal`;
  }
  return undefined;
}

/**
 * The id as servers may compare ids: percent-decoded until stable, `+` read as a space, NFKC,
 * case-folded (`ß` is `ss`, dotted `İ` and dotless `ı` are `i`), white space trimmed, trailing
 * `/`, `\` and `.` dropped, and leading zeros of each run of digits dropped. Two ids with the
 * same key may reach the same widget through some server's router (7 and 007, `straße` and
 * `strasse`, NFD and NFC, `a+b` and `a b`, `w_s/` and `w_s`).
 */
export function idKey(id: string): string {
  // Decoding and normalising alternate until neither changes anything: NFKC can make escapes
  // (`％４１` is `%41`), so a key decoded only first would change when keyed again.
  let text = id;
  for (let round = 0; round < MAX_KEY_ROUNDS; round += 1) {
    const previous = text;
    text = normalised(percentDecodeOnce(text));
    if (text === previous) return text;
  }
  // Escapes nested past the bound (such an id is never sent: unsafeSegment refuses it): the
  // escapes are dropped so the key stays a key. Ids it merges are only refused more often.
  let previous: string;
  do {
    previous = text;
    text = normalised(text.replace(/%/g, ''));
  } while (text !== previous);
  return text;
}

/**
 * Whether `target` extends `base`: it starts with it and has more after it, and the two are not
 * one id under the normalisations servers apply to ids (idKey: `31` and `31.` are). Such an id is
 * what DEL-4 and CRUD-5 send to find a lookup that reads ids leniently.
 */
export function extendsId(base: string, target: string): boolean {
  return base !== '' && target.length > base.length && target.startsWith(base) && idKey(target) !== idKey(base);
}

/**
 * Whether a lookup that reads ids leniently could take `target` for the widget at `known`:
 * `known` is a proper prefix of it as written (a prefix match finds `3` for `31-x`), or under the
 * normalisations of idKey, which also covers an integer cast of the target's leading digits
 * (`031-x` is read as 31). An id equal to the target under idKey is a lookalike, not this.
 */
export function lenientlyReaches(known: string, target: string): boolean {
  if (known === target) return false;
  return target.startsWith(known) || keyReaches(idKey(known), idKey(target));
}

/** lenientlyReaches on keys already made (idKey): the known key a proper prefix of the target's. */
export function keyReaches(knownKey: string, targetKey: string): boolean {
  return knownKey !== targetKey && targetKey.startsWith(knownKey);
}

/** Decodings and normalisations idKey alternates before it stops decoding. */
const MAX_KEY_ROUNDS = MAX_DECODINGS * 2;

/** The normalisations of idKey, repeated until stable (without percent-decoding). */
function normalised(input: string): string {
  let text = input;
  let previous: string;
  do {
    previous = text;
    text = text.replace(new RegExp(LONE_SURROGATE.source, 'g'), '\ufffd')
      .replace(/\+/g, ' ')
      .normalize('NFKC')
      .toUpperCase()
      .toLowerCase()
      .normalize('NFKD')
      .replace(/\u0307/g, '')
      .replace(/\u0131/g, 'i')
      .normalize('NFKC')
      .replace(/\s+/gu, ' ')
      .trim()
      .replace(/[/\\.\s]+$/u, '')
      .replace(/\d+/gu, (digits) => digits.replace(/^0+(?=\d)/, ''));
  } while (text !== previous);
  return text;
}
