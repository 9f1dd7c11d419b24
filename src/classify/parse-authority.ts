import { hasValidEscapes } from "./go-unescape.js";
import { parseHost } from "./parse-host.js";

/**
 * The two authority facts classification reads.
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
const USERINFO_ASCII: Uint8Array = (() => {
  const table = new Uint8Array(128);
  const allowed = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._:~!$&'()*+,;=%@";
  for (let i = 0; i < allowed.length; i++) table[allowed.charCodeAt(i)] = 1;
  return table;
})();

/**
 * net/url's parseAuthority over `s[from, to)`: the host after the last `@` goes through
 * {@link parseHost}, the userinfo before it must be valid with well-formed escapes. Null where
 * url.Parse fails.
 *
 * @example
 * ```ts
 * parseAuthority("trusted@evil.test", 0, 17, "https"); // { host: "evil.test", hasUserInfo: true }
 * parseAuthority("a b@evil.test", 0, 13, "https"); // null
 * ```
 */
export function parseAuthority(s: string, from: number, to: number, scheme: string): Authority | null {
  let at = to > from ? s.lastIndexOf("@", to - 1) : -1;
  if (at < from) at = -1;
  const host = parseHost(s, at === -1 ? from : at + 1, to, scheme);
  if (host === null) return null;
  if (at === -1) return { host, hasUserInfo: false };
  for (let i = from; i < at; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80 || USERINFO_ASCII[c] !== 1) return null;
  }
  // Username and password are unescaped separately, but a `:` is no hex digit, so no escape can
  // straddle it: checking the whole userinfo at once gives the same answer.
  if (!hasValidEscapes(s, from, at)) return null;
  return { host, hasUserInfo: true };
}
