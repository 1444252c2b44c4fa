/**
 * Counting what a cut body shows. A list answer larger than the body cap is read only up to
 * the cap (client.ts), and the prefix cannot be parsed; yet "more widgets than the limit" can be
 * proved from it: each element of the top-level `data` array that is closed within the prefix
 * is a complete item. The scan is a small state machine over the text, one pass, no parse tree,
 * so its memory stays constant whatever the server sent.
 */

/** How many items the prefix shows complete, and whether it reached the top-level `data` array at all. */
export interface PrefixCount {
  /** Elements of the top-level `data` array closed within the prefix (the last `data` member, if repeated). */
  readonly completeItems: number;
  readonly sawData: boolean;
}

/** Counts the complete elements of the top-level object's `data` array in a JSON prefix. */
export function countPrefixItems(text: string): PrefixCount {
  let depth = 0;
  let inString = false;
  let escaped = false;
  /** Start of the string being read, when it may be a top-level member name. */
  let keyStart = -1;
  let lastKey: string | undefined;
  /** Depth of the `data` array's elements while inside it; 0 otherwise. */
  let dataDepth = 0;
  let inElement = false;
  let sawData = false;
  let count = 0;
  // A top-level value that is not an object holds no `data` member.
  const first = text.search(/\S/);
  if (first === -1 || text[first] !== '{') return { completeItems: 0, sawData: false };

  for (let i = first; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') {
        inString = false;
        if (keyStart >= 0) lastKey = memberName(text.slice(keyStart, i + 1));
        keyStart = -1;
        if (dataDepth > 0 && depth === dataDepth && inElement) (count += 1), (inElement = false);
      }
      continue;
    }
    if (c === ' ' || c === '\n' || c === '\r' || c === '\t') continue;
    if (dataDepth > 0 && depth === dataDepth && c !== ',' && c !== ']') {
      // The start of an element (or, for a scalar, a character of it).
      inElement = true;
    }
    if (c === '"') {
      inString = true;
      // A string at depth 1 right after `{` or `,` is a member name of the top-level object.
      if (depth === 1 && /[{,]/.test(previousSignificant(text, i))) keyStart = i;
      continue;
    }
    if (c === '{' || c === '[') {
      depth += 1;
      if (c === '[' && depth === 2 && lastKey === 'data' && previousSignificant(text, i) === ':') {
        dataDepth = depth;
        sawData = true;
        count = 0;
        inElement = false;
      }
      continue;
    }
    if (c === '}' || c === ']') {
      if (dataDepth > 0 && depth === dataDepth) {
        // The array closes: a scalar element before it is complete.
        if (inElement) count += 1;
        inElement = false;
        dataDepth = 0;
      }
      depth -= 1;
      // An object or array element closed back at the array's depth is complete.
      if (dataDepth > 0 && depth === dataDepth && inElement) (count += 1), (inElement = false);
      continue;
    }
    if (c === ',' && dataDepth > 0 && depth === dataDepth && inElement) {
      // A scalar element followed by a comma is complete.
      count += 1;
      inElement = false;
    }
  }
  return { completeItems: count, sawData };
}

/** The last non-whitespace character before index i, or '' at the start. */
function previousSignificant(text: string, i: number): string {
  for (let j = i - 1; j >= 0; j -= 1) {
    const c = text[j] as string;
    if (c !== ' ' && c !== '\n' && c !== '\r' && c !== '\t') return c;
  }
  return '';
}

/** A member name token's value; an escaped name (`"d\u0061ta"`) is still `data` (RFC 8259 §8.3). */
function memberName(token: string): string | undefined {
  try {
    return JSON.parse(token) as string;
  } catch {
    return undefined;
  }
}
