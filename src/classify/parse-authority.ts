import { hasValidEscapes } from "./go-unescape.js";
import { parseHost } from "./parse-host.js";

/**
 * Where {@link parseAuthority} writes what it read.
 *
 * @example
 * ```ts
 * const a: Authority = { host: "evil.test", hasUserInfo: true };
 * ```
 */
export interface Authority {
  /** url.URL.Host: unescaped `host[:port]`, IPv6 literals still in brackets. */
  host: string;
  /** A `userinfo@` part was present. */
  hasUserInfo: boolean;
}

// RFC 3986 §3.2.1 userinfo, as net/url's validUserinfo admits it (plus `@`, since only the last one
// separates): unreserved, sub-delims, `:`, `%`. Anything else, non-ASCII included, fails the parse.
// (`\w` is ASCII letters, digits and `_` without the u flag.) A regex, not a table: shorter in the
// classify bundle (3 KiB ceiling), and userinfo is rare enough that its speed does not matter.
const USERINFO = /^[\w\-.:~!$&'()*+,;=%@]*$/;

/**
 * net/url's parseAuthority over `s[from, to)`: the host after the last `@` goes through
 * {@link parseHost}, the userinfo before it must be valid with well-formed escapes. Writes the
 * result into `out` (the caller's object: no allocation per parse) and returns false where
 * url.Parse fails.
 *
 * @example
 * ```ts
 * const out = { host: "", hasUserInfo: false };
 * parseAuthority("trusted@evil.test", 0, 17, "https", out); // true; out.host === "evil.test"
 * ```
 */
export function parseAuthority(s: string, from: number, to: number, scheme: string, out: Authority): boolean {
  let at = to > from ? s.lastIndexOf("@", to - 1) : -1;
  if (at < from) at = -1;
  const host = parseHost(s, at === -1 ? from : at + 1, to, scheme);
  if (host === null) return false;
  if (at !== -1) {
    if (!USERINFO.test(s.slice(from, at))) return false;
    // Username and password are unescaped separately, but a `:` is no hex digit, so no escape can
    // straddle it: checking the whole userinfo at once gives the same answer.
    if (!hasValidEscapes(s, from, at)) return false;
  }
  out.host = host;
  out.hasUserInfo = at !== -1;
  return true;
}
