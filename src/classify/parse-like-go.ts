import { asciiLower } from "./ascii-lower.js";
import { schemeEnd } from "./canonicalize-slashes.js";
import { hasValidEscapes } from "./go-unescape.js";
import { parseAuthority } from "./parse-authority.js";

/**
 * What classification reads from a successful url.Parse.
 *
 * @example
 * ```ts
 * const p: GoParse | null = parseLikeGo("https://a.test/");
 * ```
 */
export interface GoParse {
  /** Lowercase scheme, `""` when none. */
  scheme: string;
  /** url.URL.Host: unescaped `host[:port]`, `""` when the string has no authority. */
  host: string;
  /** url.URL.User is set. */
  hasUserInfo: boolean;
}

/**
 * The lowercase scheme `s[0, end)`; the two schemes nearly every input carries come without a
 * slice and a fold.
 *
 * @example
 * ```ts
 * schemeOf("HTTPS://a.test/", 5); // "https"
 * ```
 */
export function schemeOf(s: string, end: number): string {
  if (end === 5 && s.startsWith("https")) return "https";
  if (end === 4 && s.startsWith("http")) return "http";
  return asciiLower(s.slice(0, end));
}

/**
 * Whether Go's `url.Parse` (Go 1.26) accepts `s`, and the scheme, host and userinfo it reads. The
 * urlform seed models acceptance by net/url, so this reproduces its rules, not the WHATWG ones:
 * - the fragment (after the first `#`) may hold only well-formed `%XX` escapes;
 * - before it, no ASCII control byte (< 0x20) or DEL;
 * - a scheme is `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` before a `:`; a leading `:` fails;
 * - the query (after the first `?`) is never checked;
 * - a scheme followed by anything but `/` is an opaque path, never checked;
 * - without a scheme, a `:` in the first path segment fails (RFC 3986 §4.2);
 * - `//` (with a scheme, or without one when not `///`) starts an authority up to the next `/`,
 *   checked by {@link parseAuthority};
 * - the path may hold only well-formed `%XX` escapes.
 *
 * `controlFree` lets a caller that has already scanned `s` for control bytes skip that pass.
 *
 * @example
 * ```ts
 * parseLikeGo("HTTP://User@A.test:80/x"); // { scheme: "http", host: "A.test:80", hasUserInfo: true }
 * parseLikeGo("1a:b"); // null
 * ```
 */
export function parseLikeGo(s: string, controlFree = false): GoParse | null {
  let end = s.indexOf("#");
  if (end === -1) end = s.length;
  else if (!hasValidEscapes(s, end + 1, s.length)) return null;

  if (!controlFree) {
    for (let i = 0; i < end; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x20 || c === 0x7f) return null;
    }
  }

  // getScheme: schemeEnd reads the same grammar, and stops at the "#" that ends s[0, end) at the
  // latest; a leading ":" is Go's "missing protocol scheme".
  if (s.charCodeAt(0) === 0x3a) return null;
  const result: GoParse = { scheme: "", host: "", hasUserInfo: false };
  const schemeColon = schemeEnd(s);
  const rest = schemeColon + 1;
  if (schemeColon !== -1) result.scheme = schemeOf(s, schemeColon);

  let restEnd = s.indexOf("?", rest);
  if (restEnd === -1 || restEnd > end) restEnd = end;

  const rooted = rest < restEnd && s.charCodeAt(rest) === 0x2f;
  if (!rooted) {
    if (result.scheme !== "") return result; // opaque: never checked
    // RFC 3986 §4.2: a relative-path reference's first segment cannot contain a colon.
    let segEnd = s.indexOf("/", rest);
    if (segEnd === -1 || segEnd > restEnd) segEnd = restEnd;
    const colon = s.indexOf(":", rest);
    if (colon !== -1 && colon < segEnd) return null;
  }

  let pathStart = rest;
  if (rooted && rest + 1 < restEnd && s.charCodeAt(rest + 1) === 0x2f) {
    const tripleSlash = rest + 2 < restEnd && s.charCodeAt(rest + 2) === 0x2f;
    if (result.scheme !== "" || !tripleSlash) {
      const from = rest + 2;
      let to = s.indexOf("/", from);
      if (to === -1 || to > restEnd) to = restEnd;
      if (!parseAuthority(s, from, to, result.scheme, result)) return null;
      pathStart = to;
    }
  }
  if (!hasValidEscapes(s, pathStart, restEnd)) return null;
  return result;
}
