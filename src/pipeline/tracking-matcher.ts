/**
 * Decides whether a query parameter name is tracking noise. Built once per pattern list.
 *
 * @example
 * ```ts
 * const isTracking = createTrackingMatcher(["utm_*", "gclid"], ["ref"]);
 * isTracking("utm_source"); // true
 * ```
 */
export type TrackingMatcher = (name: string) => boolean;

/**
 * Compiles deny patterns (`"utm_*"` = prefix, else exact; ASCII case-insensitive, as trackers
 * vary case) and an allowlist of exact names that always survive, into one predicate. Exact names
 * go to a `Set`, prefixes to a short list: the common parameter is rejected by one `Set` lookup
 * and a few `startsWith` calls.
 *
 * @example
 * ```ts
 * createTrackingMatcher(["utm_*"], [])("UTM_Medium"); // true
 * ```
 */
export function createTrackingMatcher(patterns: readonly string[], keep: readonly string[]): TrackingMatcher {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  // Most parameter names start with a letter no pattern starts with; a 128-entry table answers
  // those without hashing the name (one micro-run over the bench corpus: ~46 → ~33 ns/name).
  const firstChars = new Uint8Array(128);
  let anyNonAscii = false;
  for (const pattern of patterns) {
    const p = pattern.toLowerCase();
    const c = p.charCodeAt(0);
    if (c < 128) firstChars[c] = 1;
    else anyNonAscii = true;
    if (p.endsWith("*")) prefixes.push(p.slice(0, -1));
    else exact.add(p);
  }
  const kept = new Set(keep);
  return (name: string) => {
    const first = name.charCodeAt(0);
    const c = first >= 0x41 && first <= 0x5a ? first | 0x20 : first;
    if (c < 128 ? firstChars[c] === 0 : !anyNonAscii) return false;
    if (kept.size > 0 && kept.has(name)) return false;
    const lower = asciiLower(name);
    if (exact.has(lower)) return true;
    for (const prefix of prefixes) if (lower.startsWith(prefix)) return true;
    return false;
  };
}

// Parameter names are percent-encoded ASCII after normalization; a locale-free ASCII fold is all
// that is needed and never maps a non-ASCII escape onto an ASCII name.
function asciiLower(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return s.toLowerCase();
  }
  return s;
}
