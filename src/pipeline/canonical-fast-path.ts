import { MAX_URL_LENGTH } from "../url/max-url-length.js";
import { normalizePercentEncoding } from "../url/percent-encoding.js";
import { normalizePath } from "./generic-pass.js";
import { withExemptions } from "./host-options.js";
import type { ResolvedNormalizeOptions } from "./resolve-normalize-options.js";
import type { RuleLookup } from "./rule-lookup.js";
import { removePathSessionIds, removeQuerySessionIds } from "./session-ids.js";

/**
 * The canonical form of an already parsed http(s) URL when the identity pipeline would leave its
 * href as it is (less a fragment the options drop), or `undefined` when it cannot tell that
 * cheaply: then the whole pipeline runs. It checks, never assumes: every stage the pipeline would
 * run is asked on the parsed href's own parts, and any stage that would change a part, any rule
 * that may claim the host and any option this check does not model refuses the fast path. The
 * checks are the pipeline's own functions, which hand their input back when they change nothing,
 * so a refusal costs little and a hit builds no string but the href without its fragment.
 *
 * What it spares on a hit: the parts' strings, the query's pairs, the rebuilt href and the result
 * records. tests/properties/fast-path.property.test.ts pins it against the whole pipeline on
 * hostile inputs and on canonical ones, and counts both answers.
 *
 * @example
 * ```ts
 * const options = resolveNormalizeOptions(undefined);
 * canonicalFastPath(new URL("https://example.com/a?b=1&c=2"), options, ruleLookup(options.rules)); // "https://example.com/a?b=1&c=2"
 * canonicalFastPath(new URL("https://example.com/a?c=1&b=2"), options, ruleLookup(options.rules)); // undefined (unsorted)
 * ```
 */
export function canonicalFastPath(
  url: URL,
  options: ResolvedNormalizeOptions,
  lookup: RuleLookup | undefined,
): string | undefined {
  if (!modelled(options)) return undefined;
  const href = url.href;
  // The parse may lengthen the input (percent-encoding); the pipeline refuses past the bound.
  if (href.length > MAX_URL_LENGTH) return undefined;
  // WHATWG href: the first "#" starts the fragment (one in the query or path is escaped).
  const hashAt = href.indexOf("#");
  if (hashAt !== -1) {
    // Dropped by the pipeline unless kept: every fragment with stripFragment off, or a route.
    if (!options.stripFragment) return undefined;
    const c = href.charCodeAt(hashAt + 1);
    if ((c === 0x2f || c === 0x21) && hashAt + 2 < href.length) return undefined;
  }
  const end = hashAt === -1 ? href.length : hashAt;
  // "http://" or "https://": the authority runs to the path's "/", which a special URL always has.
  const authorityStart = href.charCodeAt(4) === 0x3a ? 7 : 8;
  const pathStart = href.indexOf("/", authorityStart);
  if (pathStart === -1 || pathStart > end) return undefined;
  // Userinfo is stripped: an "@" in the authority means there is some.
  const at = href.indexOf("@", authorityStart);
  if (at !== -1 && at < pathStart) return undefined;
  const hostname = url.hostname;
  // A trailing host dot may be stripped; a rule may claim the host (code rules claim any).
  if (hostname.charCodeAt(hostname.length - 1) === 0x2e) return undefined;
  if (lookup !== undefined && lookup.mayMatch(hostname)) return undefined;

  let queryAt = href.indexOf("?", pathStart);
  if (queryAt > end) queryAt = -1;
  const path = href.slice(pathStart, queryAt === -1 ? end : queryAt);
  if (normalizePath(path) !== path) return undefined;
  if (options.removeSessionIds && removePathSessionIds(path) !== path) return undefined;
  if (options.trailingSlash === "strip" && path.length > 1 && path.charCodeAt(path.length - 1) === 0x2f)
    return undefined;
  if (queryAt !== -1) {
    // An empty query ("?") is dropped by the identity preset.
    if (queryAt + 1 === end) return undefined;
    const query = href.slice(queryAt + 1, end);
    if (normalizePercentEncoding(query, "query") !== query) return undefined;
    if (options.removeSessionIds && removeQuerySessionIds(query) !== query) return undefined;
    if (!pairsStay(query, withExemptions(options, lookup, hostname))) return undefined;
  }
  return hashAt === -1 ? href : href.slice(0, hashAt);
}

// The options this check models: the identity preset's steps, with any tracking list, keepParams
// and rules. Anything else (layers, https or www forced, index documents, another trailing-slash
// policy, the rfc3986 preset) goes the whole way.
function modelled(o: ResolvedNormalizeOptions): boolean {
  return (
    o.preset === "identity" &&
    o.trackingLayers.length === 0 &&
    o.stripUserinfo &&
    o.sortParams &&
    !o.forceHttps &&
    !o.stripWWW &&
    !o.removeDirectoryIndex &&
    o.trailingSlash !== "add"
  );
}

// Whether splitting, tracking removal and sorting leave the query as written: no empty segment
// (splitting drops it), no name the host's tracking matcher strips, the pairs in sortQueryParams'
// order (name, then value in code-unit order, a bare name before any value). Compared in place.
function pairsStay(query: string, options: ResolvedNormalizeOptions): boolean {
  const isTracking = options.stripTracking ? options.isTracking : undefined;
  let prevStart = -1;
  let prevNameEnd = -1;
  let prevEnd = -1;
  for (let start = 0; start <= query.length; ) {
    let end = query.indexOf("&", start);
    if (end === -1) end = query.length;
    if (end === start) return false;
    let nameEnd = query.indexOf("=", start);
    if (nameEnd === -1 || nameEnd > end) nameEnd = end;
    if (isTracking !== undefined && isTracking(query.slice(start, nameEnd))) return false;
    if (prevStart !== -1 && comparePairs(query, prevStart, prevNameEnd, prevEnd, start, nameEnd, end) > 0)
      return false;
    prevStart = start;
    prevNameEnd = nameEnd;
    prevEnd = end;
    start = end + 1;
  }
  return true;
}

// compareParams (url/query-params.ts) on two pairs of `s` given by offsets: name [a, an), value
// (an, ae) when an < ae, else none; likewise b.
function comparePairs(s: string, a: number, an: number, ae: number, b: number, bn: number, be: number): number {
  const byName = compareRange(s, a, an, b, bn);
  if (byName !== 0) return byName;
  const aHas = an < ae;
  const bHas = bn < be;
  if (!aHas || !bHas) return aHas === bHas ? 0 : aHas ? 1 : -1;
  return compareRange(s, an + 1, ae, bn + 1, be);
}

// Code-unit order of s[a, ae) and s[b, be), as `<` on the two strings.
function compareRange(s: string, a: number, ae: number, b: number, be: number): number {
  const n = Math.min(ae - a, be - b);
  for (let i = 0; i < n; i++) {
    const d = s.charCodeAt(a + i) - s.charCodeAt(b + i);
    if (d !== 0) return d;
  }
  return ae - a - (be - b);
}
