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
  // A top-level value that is not an object holds no `data` member.
  const first = text.search(/\S/);
  if (first === -1 || text[first] !== '{') return { completeItems: 0, sawData: false };
  const scan = new PrefixScan(text);
  for (let i = first; i < text.length; i += 1) scan.step(i);
  return { completeItems: scan.count, sawData: scan.sawData };
}

/** The scan's state machine, fed one character at a time. */
class PrefixScan {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Start of the string being read, when it may be a top-level member name. */
  private keyStart = -1;
  private lastKey: string | undefined;
  /** Depth of the `data` array's elements while inside it; 0 otherwise. */
  private dataDepth = 0;
  private inElement = false;
  sawData = false;
  count = 0;

  constructor(private readonly text: string) {}

  /** Takes in the character at index i. */
  step(i: number): void {
    const c = this.text[i];
    if (this.inString) return this.stringCharacter(c, i);
    if (c === ' ' || c === '\n' || c === '\r' || c === '\t') return;
    // The start of an element (or, for a scalar, a character of it).
    if (this.atElementDepth() && c !== ',' && c !== ']') this.inElement = true;
    if (c === '"') return this.openString(i);
    if (c === '{' || c === '[') return this.open(c, i);
    if (c === '}' || c === ']') return this.close();
    // A scalar element followed by a comma is complete.
    if (c === ',' && this.atElementDepth() && this.inElement) this.completeElement();
  }

  /** Inside the `data` array, at the depth of its elements. */
  private atElementDepth(): boolean {
    return this.dataDepth > 0 && this.depth === this.dataDepth;
  }

  private completeElement(): void {
    this.count += 1;
    this.inElement = false;
  }

  private stringCharacter(c: string | undefined, i: number): void {
    if (this.escaped) this.escaped = false;
    else if (c === '\\') this.escaped = true;
    else if (c === '"') {
      this.inString = false;
      if (this.keyStart >= 0) this.lastKey = memberName(this.text.slice(this.keyStart, i + 1));
      this.keyStart = -1;
      if (this.atElementDepth() && this.inElement) this.completeElement();
    }
  }

  private openString(i: number): void {
    this.inString = true;
    // A string at depth 1 right after `{` or `,` is a member name of the top-level object.
    if (this.depth === 1 && /[{,]/.test(previousSignificant(this.text, i))) this.keyStart = i;
  }

  private open(c: string, i: number): void {
    this.depth += 1;
    if (c === '[' && this.depth === 2 && this.lastKey === 'data' && previousSignificant(this.text, i) === ':') {
      this.dataDepth = this.depth;
      this.sawData = true;
      this.count = 0;
      this.inElement = false;
    }
  }

  private close(): void {
    if (this.atElementDepth()) {
      // The array closes: a scalar element before it is complete.
      if (this.inElement) this.count += 1;
      this.inElement = false;
      this.dataDepth = 0;
    }
    this.depth -= 1;
    // An object or array element closed back at the array's depth is complete.
    if (this.atElementDepth() && this.inElement) this.completeElement();
  }
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
