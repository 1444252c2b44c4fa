/**
 * Content-Encoding decoding. The suite asks for identity, but a server may compress anyway;
 * decoding keeps such a server from failing every JSON check, and the size cap applies to
 * each decoded stage so a compression bomb stays bounded.
 */
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync, type ZlibOptions } from 'node:zlib';

/** The outcome of decoding a body: its bytes, a reason it cannot be read, or the coding whose output overflowed the cap. */
export type Decoded =
  | { readonly kind: 'decoded'; readonly bytes: Buffer }
  | { readonly kind: 'undecodable'; readonly reason: string }
  | { readonly kind: 'too-large'; readonly coding: string };

type Decoder = (bytes: Buffer, options: ZlibOptions) => Buffer;

// RFC 9110 §8.4.1.3: "deflate" means the zlib format, yet servers also send raw deflate.
const inflateEither: Decoder = (bytes, options) => {
  try {
    return inflateSync(bytes, options);
  } catch (error) {
    if (isTooLarge(error)) throw error;
    try {
      return inflateRawSync(bytes, options);
    } catch (rawError) {
      // Corrupt data fails both ways; the zlib reading's complaint is the one the label promised.
      throw isTooLarge(rawError) ? rawError : error;
    }
  }
};

const DECODERS: Readonly<Record<string, Decoder>> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateEither,
  br: brotliDecompressSync,
};

/** Codings in the order they were applied (RFC 9110 §8.4), identity left out; names lower-cased. */
export function parseContentEncoding(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

/** Undoes the codings of a Content-Encoding header, last applied first, no stage producing more than maxBytes. */
export function decodeBody(bytes: Buffer, contentEncoding: string | undefined, maxBytes: number): Decoded {
  const codings = parseContentEncoding(contentEncoding);
  // HEAD, 204 and 304 answers may name a coding yet carry no body.
  if (bytes.length === 0) return { kind: 'decoded', bytes };
  const unknown = codings.find((coding) => !(coding in DECODERS));
  if (unknown !== undefined) {
    return { kind: 'undecodable', reason: `the body is encoded with "${unknown}", which the suite did not ask for and cannot decode` };
  }
  let out = bytes;
  for (const coding of [...codings].reverse()) {
    try {
      out = (DECODERS[coding] as Decoder)(out, { maxOutputLength: maxBytes });
    } catch (error) {
      if (isTooLarge(error)) return { kind: 'too-large', coding };
      return { kind: 'undecodable', reason: `the body is labelled Content-Encoding "${coding}" but does not decode as it (${(error as Error).message})` };
    }
  }
  return { kind: 'decoded', bytes: out };
}

function isTooLarge(error: unknown): boolean {
  return (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
}
