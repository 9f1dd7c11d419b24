/** A set of host names: exact names plus `*.example.com` wildcards (every subdomain, not the apex). */
export interface HostSet {
  /** Exact names. */
  readonly exact: ReadonlySet<string>;
  /** Wildcard suffixes with their leading dot: `".example.com"` for `"*.example.com"`. */
  readonly suffixes: readonly string[];
  /** Whether `host` (lowercase, as `URL.hostname` gives it) is in the set. */
  has(host: string): boolean;
}

/**
 * Builds a {@link HostSet} from validated `domains` entries.
 *
 * @example
 * ```ts
 * createHostSet(["youtu.be", "*.example.com"]).has("a.b.example.com"); // true
 * ```
 */
export function createHostSet(entries: readonly string[]): HostSet {
  const exact = new Set<string>();
  const suffixes: string[] = [];
  for (const entry of entries) {
    if (entry.startsWith("*.")) suffixes.push(entry.slice(1));
    else exact.add(entry);
  }
  return Object.freeze({
    exact,
    suffixes: Object.freeze(suffixes),
    has(host: string): boolean {
      if (exact.has(host)) return true;
      for (const suffix of suffixes) if (host.length > suffix.length && host.endsWith(suffix)) return true;
      return false;
    },
  });
}
