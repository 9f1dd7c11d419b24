import { isEdgeJunk } from "../url/edge-junk.js";
import { stripTrailingDot } from "../url/host.js";
import { MAX_URL_LENGTH } from "../url/max-url-length.js";
import { isNormalEscape, NEEDS_WORK, normalizePercentEncoding } from "../url/percent-encoding.js";
import { joinQuery, sortQueryParams, splitQuery } from "../url/query-params.js";
import { type SerializedAuthority, serializedAuthority } from "../url/serialized-host.js";
import { normalizePath, removeMatching } from "./generic-pass.js";
import { type HostFacts, hostFacts } from "./host-options.js";
import type { ResolvedNormalizeOptions } from "./resolve-normalize-options.js";
import type { RuleLookup } from "./rule-lookup.js";
import { removedSessionNames, removePathSessionIds, removeQuerySessionIds } from "./session-ids.js";
import { comparePairs, sortedQuery } from "./sorted-query.js";
import { mayBeTracking, type TrackingMatcher } from "./tracking-matcher.js";

/**
 * The canonical form of an http(s) URL whose href (as the WHATWG parser spells it) is `href`, when
 * the identity pipeline's generic pass alone would settle it and the steps it takes are the cheap
 * ones: nothing to do, a fragment dropped, trailing slashes stripped, an empty `?` dropped, query
 * pairs the tracking pass removes or the sort reorders. `undefined` when it cannot tell that
 * cheaply: then the whole pipeline runs. It checks, never assumes: every stage is asked on the
 * href's own parts, and anything a stage would change that is not in that list and not repaired
 * below (a session id, userinfo, a route fragment), any rule that may claim the host and any
 * option it does not model refuses. The query is rebuilt only when a pair goes or moves, with the
 * generic pass's own split, removal, sort and join.
 *
 * Escapes to normalize, characters the normalization encodes and dot segments in the path and
 * query are repaired with the generic pass's own steps (normalizePath, normalizePercentEncoding)
 * and settled without a second check (`settleRepaired`): their output is percent-normal and free
 * of dot segments by construction.
 *
 * `href` may also be the raw input with its scheme and authority as {@link serializedAuthority}
 * writes them (see {@link canonicalFromText}): the scan then refuses what only the parser can
 * change in the path and query (tabs and newlines, blanks and controls at the end, `\`, `'` in a
 * query), and a fragment whose first character could hide a route from the check. Where the parser
 * encodes a character (non-ASCII, a blank, a control), the normalization encodes it too, with the
 * same escape, so the repair on the text gives the parse's answer.
 *
 * With `repair` (a parsed href, or text whose authority {@link serializedAuthority} wrote), a
 * trailing host dot is stripped as the identity preset spells it (stripTrailingDot) and the result
 * checked again; without it such a host refuses.
 *
 * `pathStart`, where a caller knows it (an href built from a {@link serializedAuthority} record,
 * whose authority holds no userinfo), is where the path's "/" is: the searches for it and for an
 * "@" are not made again (~20 ns a link on golden links). With `head` (and `pathStart`), href is
 * raw text whose scheme and authority href[0, pathStart) the key writes as `head` (a
 * {@link serializedAuthority} record's prefix): its path, query and fragment are read in place.
 *
 * Names removed as tracking are pushed onto `stripped`, in input order and each once, as the
 * pipeline reports them; with `stripped` undefined (normalize(), which does not return them) they
 * are not collected. tests/properties/fast-path.property.test.ts pins it against the whole
 * pipeline on hostile inputs and on canonical ones with one thing added, and counts each answer.
 *
 * @example
 * ```ts
 * const options = resolveNormalizeOptions(undefined);
 * const lookup = ruleLookup(options.rules);
 * canonicalFastPath("https://example.com/a?c=2&b=1", "example.com", options, lookup, []); // "https://example.com/a?b=1&c=2"
 * canonicalFastPath("https://example.com/%7e", "example.com", options, lookup, []); // undefined (an escape to decode)
 * ```
 */
export function canonicalFastPath(
  href: string,
  hostname: string,
  options: ResolvedNormalizeOptions,
  lookup: RuleLookup | undefined,
  stripped: string[] | undefined,
  repair = false,
  facts?: HostFacts,
  pathStart = -1,
  head?: string,
): string | undefined {
  if (!modelled(options)) return undefined;
  // The parse may lengthen the input (percent-encoding); the pipeline refuses past the bound.
  if ((head === undefined ? href.length : head.length + href.length - pathStart) > MAX_URL_LENGTH)
    return undefined;
  // WHATWG href: the first "#" starts the fragment (one in the query or path is escaped).
  const hashAt = href.indexOf("#");
  if (hashAt !== -1) {
    // Dropped by the pipeline unless kept: every fragment with stripFragment off, or a route
    // (#/inbox, #!/projects/12: isRouteFragment). In raw input a blank there may hide a route: the
    // parser removes "\t" from "#\t/inbox".
    // An empty fragment is none (the hash getter is "" for "#"): dropped either way.
    const c = href.charCodeAt(hashAt + 1);
    if (
      (!options.stripFragment && hashAt + 1 < href.length) ||
      ((c === 0x2f || c === 0x21) && hashAt + 2 < href.length)
    )
      return keepingFragment(
        href,
        hashAt,
        hostname,
        options,
        lookup,
        stripped,
        repair,
        facts,
        pathStart,
        head,
      );
    if (c <= 0x20) return undefined;
  }
  const end = hashAt === -1 ? href.length : hashAt;
  // "http://" or "https://": the authority runs to the path's "/", which a special URL always has.
  const authorityStart = href.charCodeAt(4) === 0x3a ? 7 : 8;
  if (pathStart === -1) {
    pathStart = href.indexOf("/", authorityStart);
    if (pathStart === -1 || pathStart > end) return undefined;
    // Userinfo is stripped: an "@" in the authority means there is some.
    const at = href.indexOf("@", authorityStart);
    if (at !== -1 && at < pathStart) return undefined;
  }
  // The identity preset strips a trailing host dot (stripTrailingDot): a parsed href gets it
  // stripped here, as the generic pass spells it, and is checked again.
  if (hostname.charCodeAt(hostname.length - 1) === 0x2e && options.preset === "identity") {
    const bare = stripTrailingDot(hostname);
    if (bare !== hostname) {
      if (!repair) return undefined;
      // The text's own authority is not the head's spelling: the href is written out first.
      if (head !== undefined) {
        const written = `${head}${href.slice(pathStart, end)}`;
        return canonicalFastPath(written, hostname, options, lookup, stripped, true, facts, head.length);
      }
      const hostEnd = authorityStart + hostname.length;
      const fixed = `${href.slice(0, authorityStart + bare.length)}${href.slice(hostEnd, end)}`;
      return canonicalFastPath(
        fixed,
        bare,
        options,
        lookup,
        stripped,
        true,
        undefined,
        pathStart - hostname.length + bare.length,
      );
    }
  }
  // A rule may claim the host (code rules claim any).
  const host = facts ?? hostFacts(options, lookup, hostname);
  if (host.claimed) return undefined;

  let queryAt = href.indexOf("?", pathStart);
  if (queryAt > end) queryAt = -1;
  const pathEnd = queryAt === -1 ? end : queryAt;
  const marks = scan(href, pathStart, pathEnd, end, options.removeSessionIds);
  // A character the parser would change otherwise than the normalization does: raw text is parsed.
  if (marks === CHANGES) return undefined;
  // An escape to normalize, a character to encode or a dot segment: the generic pass's own steps.
  if ((marks & (REPAIR | DOT_SEGMENT)) !== 0)
    return settleRepaired(href, pathStart, pathEnd, queryAt, end, marks, options, host, stripped, head);
  return settle(href, pathStart, pathEnd, queryAt, end, marks, options, host, stripped, head);
}

/**
 * The repair lane of {@link canonicalFastPath}, for a parsed href or a text the scan let through: the
 * generic pass's own path and query normalization (normalizePath, normalizePercentEncoding, which
 * encodes raw non-ASCII, blanks and controls as the parser would), then {@link settle} on the
 * result. No second scan: the normalizations' output is percent-normal, ASCII and free of dot
 * segments by construction (the property test holds it against explain()). Only the session-id
 * marks of a part the repair changed are looked for again. The
 * old lane ran the whole check again on the repaired text, a second scan of a string built only to
 * be flattened: without it, normalize() on the seeded corpus's links settled after the parse went
 * to 0.94x its old time with the identity preset and 0.89x with rfc3986 (one process, the two
 * builds interleaved over 13 CPU-time rounds, /work/notes/ab.mjs).
 */
function settleRepaired(
  href: string,
  pathStart: number,
  pathEnd: number,
  queryAt: number,
  end: number,
  scanned: number,
  options: ResolvedNormalizeOptions,
  host: HostFacts,
  stripped: string[] | undefined,
  head: string | undefined,
): string | undefined {
  const rawPath = href.slice(pathStart, pathEnd);
  const path = normalizePath(rawPath);
  const rawQuery = queryAt === -1 ? "" : href.slice(queryAt + 1, end);
  const query = normalizePercentEncoding(rawQuery, "query");
  // A "/." that is no dot segment (/.well-known) and nothing else: the text stands as scanned. (A
  // check of the dot segments before the repair ran removeDotSegments twice on every link with one.)
  if (path === rawPath && query === rawQuery)
    return settle(href, pathStart, pathEnd, queryAt, end, scanned, options, host, stripped, head);
  // The session-id marks of a part the repair changed, looked for again (a decoded "%73id" is
  // "sid"); an unchanged part keeps the scan's. Only where the options remove session ids.
  let marks = scanned & (PATH_SESSION | QUERY_SESSION);
  if (options.removeSessionIds) {
    if (path !== rawPath) {
      marks &= ~PATH_SESSION;
      if (path.indexOf(";") !== -1 || path.indexOf("(") !== -1) marks |= PATH_SESSION;
    }
    if (query !== rawQuery) {
      marks &= ~QUERY_SESSION;
      SESSION_TAIL.lastIndex = 0;
      if (SESSION_TAIL.test(query)) marks |= QUERY_SESSION;
    }
  }
  return settleParts(href, pathStart, path, queryAt, query, marks, options, host, stripped, head);
}

// settle() on the href with its path and query replaced by a stage's `path` and `query` (the
// query's "?" kept where the href had one). Encoding lengthens (up to 9 characters for one on raw
// text): past the bound the pipeline fails.
function settleParts(
  href: string,
  pathStart: number,
  path: string,
  queryAt: number,
  query: string,
  marks: number,
  options: ResolvedNormalizeOptions,
  host: HostFacts,
  stripped: string[] | undefined,
  head: string | undefined,
): string | undefined {
  const prefix = head ?? href.slice(0, pathStart);
  const fixed = queryAt === -1 ? `${prefix}${path}` : `${prefix}${path}?${query}`;
  if (fixed.length > MAX_URL_LENGTH) return undefined;
  const fixedPathEnd = prefix.length + path.length;
  const fixedQueryAt = queryAt === -1 ? -1 : fixedPathEnd;
  return settle(
    fixed,
    prefix.length,
    fixedPathEnd,
    fixedQueryAt,
    fixed.length,
    marks,
    options,
    host,
    stripped,
    undefined,
  );
}

/**
 * The rest of {@link canonicalFastPath} on an href whose path href[pathStart, pathEnd) and query
 * (queryAt, end) are percent-normal and free of dot segments: the session-id stages the marks
 * point at are asked, then the trailing slash, the empty "?", tracking pairs and the sort.
 */
function settle(
  href: string,
  pathStart: number,
  pathEnd: number,
  queryAt: number,
  end: number,
  marks: number,
  options: ResolvedNormalizeOptions,
  host: HostFacts,
  stripped: string[] | undefined,
  head: string | undefined,
): string | undefined {
  const hasQuery = queryAt !== -1 && queryAt + 1 < end;
  // The stages a mark points at are asked themselves; without a mark they cannot change anything.
  if (marks !== 0 && options.removeSessionIds)
    return withoutSessionIds(href, pathStart, pathEnd, queryAt, end, marks, options, host, stripped, head);
  // The path as the generic pass ends it: trailing slashes stripped (never the root's).
  let pathOut = pathEnd;
  if (options.trailingSlash === "strip" && pathEnd - pathStart > 1 && href.charCodeAt(pathEnd - 1) === 0x2f) {
    while (pathOut - 1 > pathStart && href.charCodeAt(pathOut - 2) === 0x2f) pathOut--;
    pathOut = pathOut - 1 === pathStart ? pathStart + 1 : pathOut - 1;
  }
  if (options.preset === "rfc3986") {
    // The query as written, an empty "?" included (url_canonicalize keeps it).
    if (pathOut === pathEnd) return keyText(href, head, pathStart, end);
    return `${keyText(href, head, pathStart, pathOut)}${href.slice(pathEnd, end)}`;
  }
  // No query, or an empty "?" (dropped by the identity preset).
  if (!hasQuery) return keyText(href, head, pathStart, pathOut);
  const tracking = host.options.stripTracking ? host.options.isTracking : undefined;
  const before = stripped?.length ?? 0;
  const query = keptQuery(href, queryAt + 1, end, tracking, stripped);
  if (query === href) {
    // Every pair stays, in order (a query is always shorter than its href: the sentinel is safe).
    if (pathOut === pathEnd) return keyText(href, head, pathStart, end);
    return `${keyText(href, head, pathStart, pathOut)}${href.slice(queryAt, end)}`;
  }
  if (query !== undefined) {
    if (stripped !== undefined) dedupe(stripped);
    const kept = keyText(href, head, pathStart, pathOut);
    return query === "" ? kept : `${kept}?${query}`;
  }
  // Pairs out of order, or an empty segment: sorted on the text (a short query), else the generic
  // pass's own split, removal, sort and join, on a query the scan found percent-normal.
  if (stripped !== undefined) stripped.length = before;
  const sorted = sortedQuery(href, queryAt + 1, end, tracking, stripped);
  if (sorted !== undefined) {
    if (stripped !== undefined) dedupe(stripped);
    const kept = keyText(href, head, pathStart, pathOut);
    return sorted === "" ? kept : `${kept}?${sorted}`;
  }
  if (stripped !== undefined) stripped.length = before;
  const params = splitQuery(href.slice(queryAt + 1, end));
  const removed = stripped ?? [];
  const kept = tracking !== undefined ? removeMatching(params, tracking, removed) : params;
  const ordered = sortQueryParams(kept);
  dedupe(removed);
  const prefix = keyText(href, head, pathStart, pathOut);
  return ordered.length === 0 ? prefix : `${prefix}?${joinQuery(ordered)}`;
}

// href[0, to) as the key writes it: with `head`, the scheme and authority written for
// href[0, pathStart) (see canonicalFromAuthority), then the text from the path on.
function keyText(href: string, head: string | undefined, pathStart: number, to: number): string {
  if (head === undefined) return to === href.length ? href : href.slice(0, to);
  return `${head}${href.slice(pathStart, to)}`;
}

/**
 * {@link settle} on an href whose marks point at session ids: the generic pass's own session-id
 * stages on the path and the query (removePathSessionIds, removeQuerySessionIds, each once, after
 * the repair and before the trailing slash, tracking and the sort, as the generic pass runs them),
 * then the rest on what they leave. Their output is not normalized again, as the generic pass
 * does not. The query's names that went are listed first, as the generic pass lists them. Links
 * carrying a session id (;jsessionid=, PHPSESSID=, CFID=, ASPSESSIONID…=, Booking's sid=) took the
 * whole pipeline at ~14x their bare parse: 7 of the golden corpus's 852.
 */
function withoutSessionIds(
  href: string,
  pathStart: number,
  pathEnd: number,
  queryAt: number,
  end: number,
  marks: number,
  options: ResolvedNormalizeOptions,
  host: HostFacts,
  stripped: string[] | undefined,
  head: string | undefined,
): string | undefined {
  const rawPath = href.slice(pathStart, pathEnd);
  const path = (marks & PATH_SESSION) !== 0 ? removePathSessionIds(rawPath) : rawPath;
  const rawQuery = queryAt === -1 ? "" : href.slice(queryAt + 1, end);
  const query = (marks & QUERY_SESSION) !== 0 && rawQuery !== "" ? removeQuerySessionIds(rawQuery) : rawQuery;
  if (path === rawPath && query === rawQuery)
    return settle(href, pathStart, pathEnd, queryAt, end, 0, options, host, stripped, head);
  // Listed where the generic pass lists names at all: with tracking removal or the sort.
  if (stripped !== undefined && query !== rawQuery && (options.stripTracking || options.sortParams))
    for (const name of removedSessionNames(rawQuery, query)) stripped.push(name);
  const key = settleParts(href, pathStart, path, queryAt, query, 0, options, host, stripped, head);
  if (stripped !== undefined) dedupe(stripped);
  return key;
}

/**
 * {@link canonicalFastPath} on a raw input, before any parse: when {@link serializedAuthority}
 * reads its scheme and authority, the input with them as the parser spells them is its href (a
 * `/` put in for an empty path), and the fast path's checks refuse whatever else the parse would
 * change. `undefined` when the input must be parsed.
 *
 * @example
 * ```ts
 * const options = resolveNormalizeOptions(undefined);
 * canonicalFromText("https://example.com?utm_source=x", options, ruleLookup(options.rules), []); // "https://example.com/"
 * canonicalFromText("HTTPS://Example.com/a b", options, ruleLookup(options.rules), []); // "https://example.com/a%20b"
 * canonicalFromText("https://u@example.com/", options, ruleLookup(options.rules), []); // undefined
 * ```
 */
export function canonicalFromText(
  input: string,
  options: ResolvedNormalizeOptions,
  lookup: RuleLookup | undefined,
  stripped: string[] | undefined,
): string | undefined {
  if (!modelled(options)) return undefined;
  const authority = serializedAuthority(input);
  if (authority === undefined) return undefined;
  return canonicalFromAuthority(input, authority, options, lookup, stripped);
}

/**
 * {@link canonicalFromText} for a caller that has read the input's authority already
 * ({@link serializedAuthority}), and `facts`, the host's {@link hostFacts} when it has them. A
 * text whose scheme and authority are spelled as the parser would spell them is its own href; on
 * another (case, a port, a host the parser rewrites) the parser's spelling is put in their place,
 * and a trailing host dot is stripped and checked as after a parse. On the seeded corpus's links
 * so spelled (a fifth of them, when the lane first took them), normalize() took 0.89x the time it
 * took through the parse (2,036 against 2,298 ns, interleaved CPU-time rounds, /work/notes/near2.mjs).
 *
 * @example
 * ```ts
 * const options = resolveNormalizeOptions(undefined);
 * const input = "HTTP://A.test:80/x/";
 * canonicalFromAuthority(input, serializedAuthority(input)!, options, ruleLookup(options.rules), undefined); // "http://a.test/x"
 * ```
 */
export function canonicalFromAuthority(
  input: string,
  authority: SerializedAuthority,
  options: ResolvedNormalizeOptions,
  lookup: RuleLookup | undefined,
  stripped: string[] | undefined,
  facts?: HostFacts,
): string | undefined {
  const { end, hostname } = authority;
  if (authority.serialized)
    return canonicalFromSerialized(input, end, hostname, options, lookup, stripped, facts);
  // The text itself, its authority written as the record's prefix: no href made of the two (a
  // respelled authority, a third of the seeded corpus's links, paid for writing the whole link
  // out and reading it back, ~150 ns of their ~2.4 µs).
  if (input.charCodeAt(end) === 0x2f)
    return canonicalFastPath(input, hostname, options, lookup, stripped, true, facts, end, authority.prefix);
  const href = `${authority.prefix}/${input.slice(end)}`;
  return canonicalFastPath(href, hostname, options, lookup, stripped, true, facts, authority.prefix.length);
}

/**
 * {@link canonicalFromAuthority} on a text that spells its scheme and authority as the parser
 * does, up to `hostEnd` (its authority's end, with no userinfo: a {@link serializedAuthority}
 * record's), `hostname` its host: the text is its own href (a `/` put in for an empty path). A trailing host dot is stripped and checked (repair). `facts`,
 * the host's {@link hostFacts} when the caller has them (the rule text lane, on a host where no
 * rule claims the path).
 *
 * @example
 * ```ts
 * const options = resolveNormalizeOptions(undefined);
 * canonicalFromSerialized("https://a.test/?b=1&a=2", 14, "a.test", options, ruleLookup(options.rules), undefined); // "https://a.test/?a=2&b=1"
 * ```
 */
export function canonicalFromSerialized(
  input: string,
  hostEnd: number,
  hostname: string,
  options: ResolvedNormalizeOptions,
  lookup: RuleLookup | undefined,
  stripped: string[] | undefined,
  facts?: HostFacts,
): string | undefined {
  const href =
    hostEnd === input.length
      ? `${input}/`
      : input.charCodeAt(hostEnd) === 0x2f
        ? input
        : `${input.slice(0, hostEnd)}/${input.slice(hostEnd)}`;
  return canonicalFastPath(href, hostname, options, lookup, stripped, true, facts, hostEnd);
}

// canonicalFastPath on an href whose fragment the pipeline keeps: the key of the href before it,
// with the fragment as the generic pass writes it. Apart, so that the common case's function
// stays small.
function keepingFragment(
  href: string,
  hashAt: number,
  hostname: string,
  options: ResolvedNormalizeOptions,
  lookup: RuleLookup | undefined,
  stripped: string[] | undefined,
  repair: boolean,
  facts: HostFacts | undefined,
  pathStart: number,
  head: string | undefined,
): string | undefined {
  const fragment = keptFragment(href, hashAt);
  if (fragment === undefined) return undefined;
  const before = href.slice(0, hashAt);
  const key = canonicalFastPath(before, hostname, options, lookup, stripped, repair, facts, pathStart, head);
  if (key === undefined) return undefined;
  const kept = `${key}#${fragment}`;
  // Past the bound the pipeline throws its own error.
  return kept.length > MAX_URL_LENGTH ? undefined : kept;
}

/**
 * The fragment href[hashAt + 1…] (without "#") as the generic pass keeps it (percent-normalized),
 * when the parse leaves it as written: no blank, control, non-ASCII character or one of the WHATWG
 * fragment percent-encode set ('"', "<", ">", "`"), which raw text may hold and a parse would
 * encode or remove. A parsed href has none of them. `undefined` when the parse must decide. The
 * fast path and the rule text lane read fragments with it.
 *
 * @example
 * ```ts
 * keptFragment("https://a.test/#/a%7e", 15); // "/a~"
 * keptFragment("https://a.test/#/a b", 15);  // undefined
 * ```
 */
export function keptFragment(href: string, hashAt: number): string | undefined {
  for (let i = hashAt + 1; i < href.length; i++) {
    const c = href.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f || c === 0x22 || c === 0x3c || c === 0x3e || c === 0x60) return undefined;
  }
  return normalizePercentEncoding(href.slice(hashAt + 1), "fragment");
}

// The pipeline reports each stripped name once (unique() in normalize.ts), first place first.
function dedupe(names: string[]): void {
  if (names.length < 2) return;
  if (names.length === 2) {
    if (names[0] === names[1]) names.length = 1;
    return;
  }
  const unique = [...new Set(names)];
  if (unique.length === names.length) return;
  names.length = 0;
  for (const name of unique) names.push(name);
}

// The options this check models: the identity preset's steps, with any tracking list, keepParams
// and rules, and the rfc3986 preset's (a query kept as written, an empty "?" too). Anything else
// (layers, https or www forced, index documents, a trailing slash added, the rfc3986 preset with
// tracking removal or sorting) goes the whole way.
export function modelled(o: ResolvedNormalizeOptions): boolean {
  // Asked twice per link, nearly always of the options asked last: one compare.
  if (o === lastAsked) return lastAnswer;
  lastAsked = o;
  lastAnswer = decideModelled(o);
  return lastAnswer;
}

let lastAsked: ResolvedNormalizeOptions | undefined;
let lastAnswer = false;

function decideModelled(o: ResolvedNormalizeOptions): boolean {
  if (o.trackingLayers.length > 0 || o.forceHttps || o.stripWWW || o.removeDirectoryIndex) return false;
  if (o.trailingSlash === "add") return false;
  return o.preset === "identity" ? o.stripUserinfo && o.sortParams : !o.stripTracking && !o.sortParams;
}

// The characters the scan passes over without a mark in either the path or the query (RFC 3986
// pchar and query, less "%", "'", ";" and "(", which the loop looks at); "?" ends the path. The
// first one outside it, or a "/." (a dot segment's mark: "." is plain, so a match that ends in
// one is this one), sends the scan to the loop. Global, so that lastIndex starts the search.
// Searching "/." apart (indexOf over the rest of the link) cost ~27 ns a link on golden links,
// the alternation ~8 more in the one search (/work/notes, 6 Dec 2026).
const PLAIN = /[^A-Za-z0-9\-_~!$&)*+,=:@/?.]|\/\./g;
// The tail of every session-id name the loop marks: "sid", "fid", "nid" in any case.
const SESSION_TAIL = /[sfn]id/gi;
const DOT_SEGMENT = 1;
const PATH_SESSION = 2;
export const QUERY_SESSION = 4;
const REPAIR = 8;
const CHANGES = -1;
const PATH_WORK = NEEDS_WORK.path;
const QUERY_WORK = NEEDS_WORK.query;

// One pass over the path href[from, queryAt) and the query (queryAt, end): CHANGES when raw text
// holds a character the parser would change otherwise than the normalization, else marks for the
// stages that may change them: REPAIR where percent-encoding normalization (RFC 3986 §6.2.2.1-2)
// rewrites a character, a "/." (dot segments), a ";" or "(" in the path (a
// jsessionid path parameter, an ASP.NET cookieless segment), and "sid", "fid" or "nid" in the
// query in any case (the tail of every session-id name: sid=, phpsessid=, cfid=, jsessionid=,
// aspsessionid…). Measured on canonical golden-corpus links: ~330 ns per URL for the pipeline's
// own normalizePath, session-id and query normalization calls, against ~90 for this pass.
export function scan(href: string, from: number, queryAt: number, end: number, sessions: boolean): number {
  let marks = 0;
  let endAsked = false;
  // A "sid", "fid" or "nid" in the query first, by a native search. A mark only sends the stage
  // itself to look, so a search that finds more than a character loop would (one straddling an
  // escape's hex digit) costs a look, never a wrong answer.
  // Not where session ids are kept (the rfc3986 preset): nothing would read the mark.
  if (sessions && queryAt < end) {
    SESSION_TAIL.lastIndex = queryAt;
    if (SESSION_TAIL.test(href) && SESSION_TAIL.lastIndex <= end) marks |= QUERY_SESSION;
  }
  // Then only the characters that need a look (a "%", a blank, ";", "(", "'", anything outside
  // ASCII), found one after the other by a native regex search: most links have none. A character
  // loop cost ~2.4 ns per character here, the search ~0.8 (golden corpus, 65 characters); the
  // seeded corpus's escaped links, which the loop walked whole, now jump from escape to escape.
  for (let i = from; ; ) {
    PLAIN.lastIndex = i;
    if (!PLAIN.test(href)) return marks;
    i = PLAIN.lastIndex - 1;
    const c = href.charCodeAt(i);
    if (c === 0x2e) {
      // A "/." whose "/" is at i - 1: a dot segment's mark in the path, nothing in the query.
      if (i - 1 >= end) return marks;
      if (i - 1 < queryAt) marks |= DOT_SEGMENT;
      i++;
      continue;
    }
    if (i >= end) return marks;
    // Raw text only (a parsed href has none of them). The parser removes tabs and newlines
    // anywhere, trims blanks and controls at the end and reads "\\" as "/": only a parse knows.
    // Every other one it percent-encodes as UTF-8 in uppercase (WHATWG path and special-query
    // percent-encode sets: controls, space, DEL, non-ASCII), as the normalization encodes it:
    // a repair on the text (a surrogate outside a pair as U+FFFD, as the parser reads it).
    if (c >= 128 || c <= 0x20 || c === 0x7f || c === 0x5c) {
      if (c === 0x09 || c === 0x0a || c === 0x0d || c === 0x5c) return CHANGES;
      // The input's last character trimmed (a blank, a control, or the Unicode white space of
      // String#trim, which parseInput trims too): only the parse knows where the input ends. Asked
      // once, at the first raw character (the end's is one; the fragment's is dropped): a text of
      // 60,000 non-ASCII characters asked it 60,000 times.
      if (!endAsked) {
        if (isEdgeJunk(href.charCodeAt(href.length - 1))) return CHANGES;
        endAsked = true;
      }
      if (c >= 0xd800 && c <= 0xdbff) {
        const low = href.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) i++;
      }
      marks |= REPAIR;
      i++;
      continue;
    }
    const inPath = i < queryAt;
    if ((inPath ? PATH_WORK : QUERY_WORK)[c] !== 0) {
      if (c === 0x25 && isNormalEscape(href, i)) {
        i += 3;
        continue;
      }
      // An escape the normalization rewrites, or a character it encodes. Where the parser encodes
      // one (a space is refused above; '"', "<", ">", "`", "{", "}"), it writes the same
      // uppercase escape; where it leaves one ("|", "^", "[", a stray "%"), the normalization after
      // the parse encodes it as here. Either way the repair on the text gives the parse's answer.
      marks |= REPAIR;
      i++;
      continue;
    }
    if (inPath) {
      if (c === 0x3b || c === 0x28) marks |= PATH_SESSION;
    } else if (c === 0x27) {
      // The parser encodes "'" in a special URL's query (WHATWG special-query percent-encode set):
      // never in a parsed href, so only raw input (canonicalFromText) meets it here.
      return CHANGES;
    }
    i++;
  }
}

// The query href[from, end) as splitting, tracking removal and sorting leave it, read in place:
// `href` itself when every pair stays in order (nothing to build), the kept pairs joined when only
// tracking pairs go (their names pushed onto `stripped`), or `undefined` when the kept pairs are
// out of sortQueryParams' order (name, then value, in code-unit order, a bare name first) or a
// segment is empty: then the caller sorts. Most queries need nothing, and a removal of utm_* from
// an ordered query needs no pair objects. With the text lane, the golden corpus's links on
// unclaimed hosts that change went from 7.3x to 3.4x the bare parse, its canonical ones from 3.8x
// to 1.4x (interleaved CPU-time rounds, /work/notes/cmp.mjs, at 3 helpers' load).
export function keptQuery(
  href: string,
  from: number,
  end: number,
  isTracking: TrackingMatcher | undefined,
  stripped: string[] | undefined,
): string | undefined {
  let out: string | undefined;
  // Names no pattern starts as are neither sliced nor asked (mayBeTracking).
  const pairs = isTracking?.pairs;
  let prevStart = -1;
  let prevNameEnd = -1;
  let prevEnd = -1;
  let nextEq = -2;
  for (let start = from; start <= end; ) {
    let pairEnd = href.indexOf("&", start);
    if (pairEnd === -1 || pairEnd > end) pairEnd = end;
    if (pairEnd === start) return undefined;
    // The next "=" is searched for again only once passed (see splitQuery): linear in the query.
    if (nextEq !== -1 && nextEq < start) nextEq = href.indexOf("=", start);
    const nameEnd = nextEq === -1 || nextEq > pairEnd ? pairEnd : nextEq;
    if (isTracking !== undefined && (pairs === undefined || mayBeTracking(pairs, href, start, nameEnd))) {
      const name = href.slice(start, nameEnd);
      if (isTracking(name)) {
        stripped?.push(name);
        // The pairs kept so far, in one piece: they ran up to this one.
        out ??= prevStart === -1 ? "" : href.slice(from, prevEnd);
        start = pairEnd + 1;
        continue;
      }
    }
    if (prevStart !== -1 && comparePairs(href, prevStart, prevNameEnd, prevEnd, start, nameEnd, pairEnd) > 0)
      return undefined;
    if (out !== undefined)
      out = out === "" ? href.slice(start, pairEnd) : `${out}&${href.slice(start, pairEnd)}`;
    prevStart = start;
    prevNameEnd = nameEnd;
    prevEnd = pairEnd;
    start = pairEnd + 1;
  }
  return out ?? href;
}
