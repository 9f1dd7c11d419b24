import { removeDirectoryIndex } from "../url/directory-index.js";
import { removeDotSegments } from "../url/dot-segments.js";
import { stripTrailingDot } from "../url/host.js";
import { type Component, normalizePercentEncoding } from "../url/percent-encoding.js";
import { joinQuery, type QueryParam, sortQueryParams, splitQuery } from "../url/query-params.js";
import { applyTrailingSlash } from "../url/trailing-slash.js";
import { userinfoOf } from "../url/userinfo.js";
import type { ResolvedNormalizeOptions } from "./resolve-normalize-options.js";
import { removedSessionNames, removePathSessionIds, removeQuerySessionIds } from "./session-ids.js";
import type { TrackingMatcher } from "./tracking-matcher.js";

/** What the generic pass produced. */
export interface GenericResult {
  /** The normalized URL, without fragment (see `fragment`). */
  href: string;
  /** The normalized host name (brackets kept for IPv6). */
  hostname: string;
  /** The parts `href` is made of, as the `URL` getters of `new URL(href)` would spell them. */
  protocol: string;
  username: string;
  password: string;
  port: string;
  pathname: string;
  /** `?` and the query, or empty. */
  search: string;
  /**
   * `""`: the fragment is `fragment`'s. The pipeline sets it to `#` and the fragment when a
   * domain rule keeps it, for the rule that reads this record as its {@link UrlParts}.
   */
  hash: string;
  /** The input's fragment, percent-normalized, without `#`; `null` when it had none. */
  fragment: string | null;
  /** Names removed as tracking, in input order. */
  stripped: string[];
  /**
   * The input query's pairs, percent-normalized, in input order (empty segments dropped). Left
   * empty when nothing reads them: no rules, no tracking removal and no sorting (rfc3986).
   */
  inputParams: readonly QueryParam[];
  /**
   * The pairs of `search`, in order (`joinQuery(params)` is `search` without its `?`), when the
   * pass split the query (identity); `undefined` when it kept the query as one string. A domain
   * rule and the final pass read them instead of splitting the query again.
   */
  params: readonly QueryParam[] | undefined;
}

/**
 * What the generic pass reads of a parsed URL: a `URL`, or the same parts read off a text the parser
 * would leave alone (serializedUrl), whose path, query and fragment then hold no character those
 * components need encoded: only a "%" can need work there.
 */
export type ParsedParts = Pick<
  URL,
  "href" | "protocol" | "username" | "password" | "hostname" | "port" | "pathname" | "search" | "hash"
>;

const NO_NAMES: string[] = [];
const NO_PARAMS: readonly QueryParam[] = [];

/**
 * The generic normalization pass over a WHATWG-parsed http(s) URL. The WHATWG parser has already
 * lowercased scheme and host, mapped IDNs to punycode (UTS #46), dropped default ports, resolved
 * most dot segments and given an empty path its `/`; this pass adds what RFC 3986 §6.2.2 asks
 * beyond that (percent-encoding case and decoding of unreserved escapes, encoding of raw
 * characters the component does not allow), the dot segments the parser left (see
 * {@link normalizePath}) and, per the options, the identity steps: trailing host dot and empty
 * `?` removed, tracking parameters stripped, parameters sorted, trailing slash policy.
 *
 * The fragment is never part of `href`; it is returned apart so a domain rule may keep it.
 * `urlHostname` is `url.hostname`, for a caller that has read it already: the same string comes
 * back as `hostname` when no step changes it, so the rule lookup's probe does not hash it again.
 * With `listStripped` false (a caller that reads only the URL), `stripped` is left empty.
 *
 * @example
 * ```ts
 * genericPass(new URL("HTTP://Example.COM:80/a/./b/../c/?gclid=1"), resolveNormalizeOptions(undefined)).href;
 * // "http://example.com/a/c"
 * ```
 */
export function genericPass(
  url: ParsedParts,
  options: ResolvedNormalizeOptions,
  urlHostname: string = url.hostname,
  listStripped = true,
): GenericResult {
  const identity = options.preset === "identity";
  let hostname = identity ? stripTrailingDot(urlHostname) : urlHostname;
  // normalize-url's opt-in habits (off by default: a server may serve other content on http or
  // without www). www. goes only before a name of two labels or more ("www.com" stays).
  if (options.stripWWW && hostname.startsWith("www.") && hostname.indexOf(".", 4) !== -1)
    hostname = hostname.slice(4);
  let { protocol, port } = url;
  if (options.forceHttps && protocol === "http:") {
    protocol = "https:";
    if (port === "443") port = "";
  }
  // Credentials are never part of a resource's identity, and a key carries them into every log.
  const rawUser = options.stripUserinfo ? "" : url.username;
  const rawPassword = options.stripUserinfo ? "" : url.password;
  const username = rawUser === "" ? "" : normalizePercentEncoding(rawUser, "userinfo");
  const password = rawPassword === "" ? "" : normalizePercentEncoding(rawPassword, "userinfo");
  // A text read by serializedUrl (anything but a URL) holds in its path, query and fragment only
  // characters those components allow raw, and "%": without one there is nothing to normalize,
  // which one native search tells for less than the normalization's class scan (~30 ns each).
  // Nor a segment starting with "." or "%2e", the only ones that can decode to a dot segment.
  const text = !(url instanceof URL);
  const normal = textNormal(url.pathname, "path", text);
  let path = text ? normal : removeDotSegments(normal);
  if (options.removeSessionIds) path = removePathSessionIds(path);
  if (options.removeDirectoryIndex) path = removeDirectoryIndex(path);
  const pathname = applyTrailingSlash(path, options.trailingSlash);

  let stripped = NO_NAMES;
  let inputParams = NO_PARAMS;
  let params: readonly QueryParam[] | undefined = NO_PARAMS;
  let search = "";
  const rawSearch = url.search;
  if (rawSearch.length > 1) {
    let query = textNormal(rawSearch.slice(1), "query", text);
    let sessionNames: string[] | undefined;
    if (options.removeSessionIds) {
      const without = removeQuerySessionIds(query);
      if (without !== query) {
        sessionNames = removedSessionNames(query, without);
        query = without;
      }
    }
    if (options.stripTracking || options.sortParams) {
      const split = splitQuery(query);
      inputParams = split;
      if (listStripped && (options.stripTracking || sessionNames !== undefined))
        stripped = [...(sessionNames ?? [])];
      const kept = options.stripTracking
        ? removeMatching(split, options.isTracking, listStripped ? stripped : undefined)
        : split;
      const ordered = options.sortParams ? sortQueryParams(kept) : kept;
      // Nothing removed, reordered or dropped (no empty segment): the query stands as it is.
      if (ordered === split && split.length === countPairs(query)) search = `?${query}`;
      else if (ordered.length > 0) search = `?${joinQuery(ordered)}`;
      else if (!identity) search = "?";
      params = ordered;
    } else {
      // Only a domain rule's final pass reads the input's pairs; without rules nothing would.
      if (options.rules.length > 0) inputParams = splitQuery(query);
      search = `?${query}`;
      params = undefined;
    }
  } else if (!identity && hasEmptyQuery(url)) {
    // url_canonicalize keeps the query verbatim, an empty one included.
    search = "?";
  }
  const userinfo = userinfoOf(username, password);
  const href = `${protocol}//${userinfo}${hostname}${port === "" ? "" : `:${port}`}${pathname}${search}`;

  const hash = url.hash;
  const fragment = hash.length > 1 ? textNormal(hash.slice(1), "fragment", text) : hash === "#" ? "" : null;
  // An empty query ("?") is spelled "" by the URL getter, as `new URL(href).search` would.
  return {
    href,
    hostname,
    protocol,
    username,
    password,
    port,
    pathname,
    search: search === "?" ? "" : search,
    hash: "",
    fragment,
    stripped,
    inputParams,
    params,
  };
}

/**
 * A path as the canonical form spells it: percent-encoding normalized (RFC 3986 §6.2.2.1–2), then
 * dot segments removed (§5.2.4), in that order so that a `%2E` the first step decodes cannot
 * leave a dot segment behind for the next parse to resolve.
 *
 * @example
 * ```ts
 * normalizePath("/a/.x/%2E%2E/b"); // "/a/b"
 * ```
 */
export function normalizePath(pathname: string): string {
  return removeDotSegments(normalizePercentEncoding(pathname, "path"));
}

/**
 * Removes the pairs whose name `isNoise` accepts, pushing removed names onto `removed` in order
 * (when given: normalize() reads none of them).
 * Returns the kept pairs (the input array itself when none was removed).
 *
 * @example
 * ```ts
 * const removed: string[] = [];
 * removeMatching([{ name: "gclid", value: "1" }], (n) => n === "gclid", removed); // []
 * ```
 */
export function removeMatching(
  params: readonly QueryParam[],
  isNoise: TrackingMatcher,
  removed?: string[],
): readonly QueryParam[] {
  let kept: QueryParam[] | undefined;
  for (let i = 0; i < params.length; i++) {
    const p = params[i] as QueryParam;
    if (isNoise(p.name)) {
      kept ??= params.slice(0, i);
      removed?.push(p.name);
    } else if (kept !== undefined) kept.push(p);
  }
  return kept ?? params;
}

function textNormal(s: string, component: Component, text: boolean): string {
  return text && !s.includes("%") ? s : normalizePercentEncoding(s, component);
}

function countPairs(query: string): number {
  let n = 1;
  for (let i = query.indexOf("&"); i !== -1; i = query.indexOf("&", i + 1)) n++;
  return n;
}

// WHATWG serializes "http://a/?" with an empty search getter but a "?" in href. The fragment
// starts at the href's first "#": the hash getter is "" for an empty fragment too ("http://a/?#"),
// so its length cannot say where the query ends.
function hasEmptyQuery(url: ParsedParts): boolean {
  const href = url.href;
  const hashAt = href.indexOf("#");
  return href.charCodeAt((hashAt === -1 ? href.length : hashAt) - 1) === 0x3f;
}
