/**
 * Extra headers for every request (--header, WIDGET_HEADERS, parsed in config/headers.ts),
 * merged with the suite's own and the request's.
 */

/**
 * The request's headers: the suite's defaults, then the configured ones, then the request's
 * own, a later one replacing an earlier one of the same name in any case (HTTP names are
 * case-insensitive, and undici would otherwise send both). A null value sends no header of that
 * name (a documented failure asked with no Accept header at all, FMT-1 and FMT-2).
 */
export function mergeHeaders(...layers: ReadonlyArray<Readonly<Record<string, string | null>> | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  const names = new Map<string, string>();
  for (const layer of layers) {
    for (const [name, value] of Object.entries(layer ?? {})) {
      const previous = names.get(name.toLowerCase());
      if (previous !== undefined) delete out[previous];
      names.set(name.toLowerCase(), name);
      if (value !== null) out[name] = value;
    }
  }
  return out;
}
