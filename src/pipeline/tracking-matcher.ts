/**
 * Decides whether a query parameter name is tracking noise. Built once per pattern list.
 *
 * @example
 * ```ts
 * const isTracking = createTrackingMatcher(["utm_*", "gclid"], ["ref"]);
 * isTracking("utm_source"); // true
 * ```
 */
export interface TrackingMatcher {
  (name: string): boolean;
  /**
   * The table {@link mayBeTracking} reads, when the patterns allow one: a caller that reads names
   * off a longer text asks it before slicing the name out.
   */
  readonly pairs?: Uint8Array;
}

/**
 * Compiles deny patterns (`"utm_*"` = prefix, else exact; ASCII case-insensitive, as trackers
 * vary case) and an allowlist of exact names that always survive, into one predicate. A table of
 * the patterns' first two letters rejects most names at once ({@link mayBeTracking}); the rest go
 * to a `Set` of exact names and a short list of prefixes.
 *
 * @example
 * ```ts
 * createTrackingMatcher(["utm_*"], [])("UTM_Medium"); // true
 * ```
 */
export function createTrackingMatcher(patterns: readonly string[], keep: readonly string[]): TrackingMatcher {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const pattern of patterns) {
    const p = asciiLower(pattern);
    if (p.endsWith("*")) prefixes.push(p.slice(0, -1));
    else exact.add(p);
  }
  const pairs = pairTable(exact, prefixes);
  const kept = new Set(keep);
  const matcher = (name: string): boolean => {
    if (pairs !== undefined && !mayBeTracking(pairs, name, 0, name.length)) return false;
    if (kept.size > 0 && kept.has(name)) return false;
    const lower = asciiLower(name);
    // Prefixes first, each ruled out by its first character before a startsWith, and the Set
    // last: utm_* names, the commonest tracking names, need no hash of the name. The matcher alone,
    // over the golden corpus's 905 query names: 48.6 -> 19.6 ns a name (quiet). Within normalize()
    // it is lost in the noise (bench/README.md, "the seventh pass").
    const first = lower.charCodeAt(0);
    for (const prefix of prefixes)
      if ((prefix.charCodeAt(0) === first || prefix.length === 0) && lower.startsWith(prefix)) return true;
    return exact.has(lower);
  };
  return pairs === undefined ? matcher : Object.assign(matcher, { pairs });
}

/**
 * Whether the name s[from, to) may be one of a matcher's patterns, by its first two characters in
 * ASCII lowercase (`pairs`, a {@link TrackingMatcher}'s table): `false` only where no pattern
 * starts so. Most parameter names start with a letter some pattern starts with (792 of the golden
 * corpus's 904 names passed the first letter), far fewer with two (296 with the
 * table's 1,024 places, 295 with one place per pair): a name ruled out here is
 * neither sliced off the link nor hashed. An empty name, or one starting outside ASCII, is the
 * matcher's to decide.
 *
 * @example
 * ```ts
 * const m = createTrackingMatcher(["utm_*", "gclid"], []);
 * mayBeTracking(m.pairs!, "?page=2", 1, 5); // false
 * ```
 */
export function mayBeTracking(pairs: Uint8Array, s: string, from: number, to: number): boolean {
  if (from >= to) return true;
  let a = s.charCodeAt(from);
  if (a >= 0x41 && a <= 0x5a) a |= 0x20;
  else if (a > 0x7f) return true;
  let b = END;
  if (from + 1 < to) {
    b = s.charCodeAt(from + 1);
    if (b >= 0x41 && b <= 0x5a) b |= 0x20;
    else if (b > 0x7f) return true;
  }
  return pairs[pairSlot(a, b)] === 1;
}

// The second character of a one-character name.
const END = 128;

// A pair's place in the table: 1,024 places for the 128 × 129 pairs, so that a table costs a
// kilobyte (options with their own lists build one per call). Pairs that share a place let each
// other's names through to the matcher, which decides: a false "maybe", never a wrong answer.
// Lowercase letters spread over distinct places (37 × 26 spans 962 places).
function pairSlot(a: number, b: number): number {
  return (a * 37 + b) & 1023;
}

// The pairs every pattern may start with: an exact name's first two characters (or its one and
// END), a prefix's, or every pair of the first for a one-character prefix. `undefined` where a
// table cannot say (a pattern starting outside ASCII, an empty prefix): then every name is asked.
function pairTable(exact: ReadonlySet<string>, prefixes: readonly string[]): Uint8Array | undefined {
  const table = new Uint8Array(1024);
  const mark = (p: string, prefix: boolean): boolean => {
    const a = p.charCodeAt(0);
    const b = p.length > 1 ? p.charCodeAt(1) : END;
    if (!(a <= 0x7f) || (b > 0x7f && b !== END)) return false;
    if (b === END && prefix) for (let c = 0; c <= END; c++) table[pairSlot(a, c)] = 1;
    else table[pairSlot(a, b)] = 1;
    return true;
  };
  for (const p of exact) if (!mark(p, false)) return undefined;
  for (const p of prefixes) if (!mark(p, true)) return undefined;
  return table;
}

// Parameter names are percent-encoded ASCII after normalization; a locale-free ASCII fold is all
// that is needed, and it never maps a non-ASCII character onto an ASCII one (toLowerCase maps
// "İ" to "i" and U+0307): patterns and names are folded alike.
function asciiLower(s: string): string {
  let upper = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7f) return upper || ASCII_UPPER.test(s) ? s.replace(ASCII_UPPER_ALL, foldOne) : s;
    if (c >= 0x41 && c <= 0x5a) upper = true;
  }
  return upper ? s.toLowerCase() : s;
}

const ASCII_UPPER = /[A-Z]/;
const ASCII_UPPER_ALL = /[A-Z]/g;
const foldOne = (c: string): string => String.fromCharCode(c.charCodeAt(0) | 0x20);
