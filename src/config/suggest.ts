/** "Did you mean": the closest known flag to a mistyped one, for the one line a bad flag gets. */

/** `; did you mean --x?` for a mistyped flag, naming the closest of `flags`, or '' when none is close. */
export function didYouMean(given: string, flags: readonly string[]): string {
  const typed = given.split('=')[0]!.replace(/^-+/, '');
  const names = flags.map((f) => f.replace(/^-+/, ''));
  const prefixed = names.filter((n) => n.startsWith(typed));
  const nearest = names
    .map((n) => ({ n, d: levenshtein(typed, n) }))
    .filter(({ d }) => d <= 3)
    .sort((a, b) => a.d - b.d)[0]?.n;
  // A unique prefix reads as an abbreviation, so it beats a closer typo.
  const best = prefixed.length === 1 ? prefixed[0] : nearest;
  return best === undefined ? '' : `; did you mean --${best}?`;
}

function levenshtein(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      next.push(Math.min(row[j]! + 1, next[j - 1]! + 1, substitution));
    }
    row = next;
  }
  return row[b.length]!;
}
