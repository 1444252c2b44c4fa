/** Rules grouped by spec section, sections in spec order: the run report's grid and the comparison matrix share it. */

/** The first spec section a rule cites (§4.2, §5, …). */
export function sectionOf(rule: { readonly section: string }): string {
  return /§[\d.]+/.exec(rule.section)?.[0] ?? rule.section;
}

/** Orders "§4.10" after "§4.9", and anything that is not a section number last. */
export function compareSections(a: string, b: string): number {
  const nums = (s: string): number[] => (/^§[\d.]+$/.test(s) ? s.slice(1).split('.').filter(Boolean).map(Number) : [Number.POSITIVE_INFINITY]);
  const [x, y] = [nums(a), nums(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i += 1) {
    const d = (x[i] ?? -1) - (y[i] ?? -1);
    if (d !== 0) return d;
  }
  return a.localeCompare(b);
}

/** The rules grouped by the first spec section they cite, sections in spec order, rules in the order given. */
export function bySection<R extends { readonly section: string }>(rules: readonly R[]): Array<[string, R[]]> {
  const groups = new Map<string, R[]>();
  // Appended in place: copying a group per rule made a vendor's bundle of 80,000 rules quadratic.
  for (const r of rules) {
    const key = sectionOf(r);
    const group = groups.get(key);
    if (group) group.push(r);
    else groups.set(key, [r]);
  }
  return [...groups].sort(([a], [b]) => compareSections(a, b));
}
