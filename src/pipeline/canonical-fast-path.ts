import { removeDotSegments } from "../url/dot-segments.js";
import { MAX_URL_LENGTH } from "../url/max-url-length.js";
import { isNormalEscape, NEEDS_WORK } from "../url/percent-encoding.js";
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
  hostname: string = url.hostname,
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
  // A trailing host dot may be stripped; a rule may claim the host (code rules claim any).
  if (hostname.charCodeAt(hostname.length - 1) === 0x2e) return undefined;
  if (lookup?.mayMatch(hostname)) return undefined;

  let queryAt = href.indexOf("?", pathStart);
  if (queryAt > end) queryAt = -1;
  const pathEnd = queryAt === -1 ? end : queryAt;
  // The cheap refusals first (each a character or an in-place scan), the full scans after them:
  // a refused link pays the scans again in the pipeline. Ordered so, the fast path cost 7% of
  // normalize's samples on the golden corpus against 12.7% with the scans first (--cpu-prof).
  if (options.trailingSlash === "strip" && pathEnd - pathStart > 1 && href.charCodeAt(pathEnd - 1) === 0x2f)
    return undefined;
  let query: string | undefined;
  if (queryAt !== -1) {
    // An empty query ("?") is dropped by the identity preset.
    if (queryAt + 1 === end) return undefined;
    query = href.slice(queryAt + 1, end);
    if (!pairsStay(query, withExemptions(options, lookup, hostname))) return undefined;
  }
  const marks = scan(href, pathStart, queryAt === -1 ? end : queryAt, end);
  if (marks === CHANGES) return undefined;
  // The stages a mark points at are asked themselves; without a mark they cannot change anything.
  if (marks !== 0) {
    const path = href.slice(pathStart, pathEnd);
    if ((marks & DOT_SEGMENT) !== 0 && removeDotSegments(path) !== path) return undefined;
    if ((marks & PATH_SESSION) !== 0 && options.removeSessionIds && removePathSessionIds(path) !== path)
      return undefined;
    if (
      (marks & QUERY_SESSION) !== 0 &&
      options.removeSessionIds &&
      query !== undefined &&
      removeQuerySessionIds(query) !== query
    )
      return undefined;
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

const DOT_SEGMENT = 1;
const PATH_SESSION = 2;
const QUERY_SESSION = 4;
const CHANGES = -1;
const PATH_WORK = NEEDS_WORK.path;
const QUERY_WORK = NEEDS_WORK.query;

// One pass over the path href[from, queryAt) and the query (queryAt, end): CHANGES when percent-
// encoding normalization (RFC 3986 §6.2.2.1-2) would rewrite a character of either, else marks
// for the stages that may change them: a "/." (dot segments), a ";" or "(" in the path (a
// jsessionid path parameter, an ASP.NET cookieless segment), and "sid", "fid" or "nid" in the
// query in any case (the tail of every session-id name: sid=, phpsessid=, cfid=, jsessionid=,
// aspsessionid…). Measured on canonical golden-corpus links: ~330 ns per URL for the pipeline's
// own normalizePath, session-id and query normalization calls, against ~90 for this pass.
function scan(href: string, from: number, queryAt: number, end: number): number {
  let marks = 0;
  let table = PATH_WORK;
  for (let i = from; i < end; i++) {
    const c = href.charCodeAt(i);
    if (i === queryAt) {
      table = QUERY_WORK;
      continue;
    }
    if (c >= 128) return CHANGES;
    if (table[c] !== 0) {
      if (c !== 0x25 || !isNormalEscape(href, i)) return CHANGES;
      i += 2;
      continue;
    }
    if (table === PATH_WORK) {
      if (c === 0x2f) {
        if (href.charCodeAt(i + 1) === 0x2e) marks |= DOT_SEGMENT;
      } else if (c === 0x3b || c === 0x28) marks |= PATH_SESSION;
    } else if ((c | 0x20) === 0x64 && (href.charCodeAt(i - 1) | 0x20) === 0x69) {
      const before = href.charCodeAt(i - 2) | 0x20;
      if (before === 0x73 || before === 0x66 || before === 0x6e) marks |= QUERY_SESSION;
    }
  }
  return marks;
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
    if (isTracking?.(query.slice(start, nameEnd))) return false;
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
function comparePairs(
  s: string,
  a: number,
  an: number,
  ae: number,
  b: number,
  bn: number,
  be: number,
): number {
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
