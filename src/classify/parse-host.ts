import { unescapeHost, unescapeZone } from "./go-unescape.js";
import { isIpv6Literal } from "./is-ipv6-literal.js";
import { isValidOptionalPort } from "./valid-optional-port.js";

function lastIndexIn(s: string, ch: string, from: number, to: number): number {
  if (to <= from) return -1;
  const i = s.lastIndexOf(ch, to - 1);
  return i >= from ? i : -1;
}

function indexIn(s: string, ch: string, from: number, to: number): number {
  const i = s.indexOf(ch, from);
  return i !== -1 && i < to ? i : -1;
}

/**
 * net/url's parseHost (Go 1.26) over `s[from, to)`, the `host[:port]` part of an authority.
 * Returns the unescaped `host[:port]` (url.URL.Host), or null where url.Parse fails:
 * - `[` anywhere but first; a `[...]` whose content is not an IPv6 address (RFC 3986 §3.2.2
 *   IP-literal, checked with netip.ParseAddr; zones per RFC 6874 as `%25`);
 * - a port that is not all digits; for http and https more than one colon outside brackets
 *   (`urlstrictcolons`, the Go 1.26 default); other schemes take the last colon as the port's;
 * - a host code unit or escape outside net/url's host set (see go-unescape.ts).
 *
 * @example
 * ```ts
 * parseHost("a.test:8080", 0, 11, "http"); // "a.test:8080"
 * parseHost("a:b:80", 0, 6, "http"); // null
 * ```
 */
export function parseHost(s: string, from: number, to: number, scheme: string): string | null {
  const open = lastIndexIn(s, "[", from, to);
  if (open > from) return null;
  if (open === from) {
    const close = lastIndexIn(s, "]", from, to);
    if (close < 0) return null;
    if (!isValidOptionalPort(s, close + 1, to)) return null;
    const zone = indexIn(s, "%25", from + 1, close);
    let address: string | null;
    if (zone >= 0 && zone + 3 <= close) {
      const head = unescapeHost(s, from + 1, zone);
      const tail = head === null ? null : unescapeZone(s, zone, close);
      address = head === null || tail === null ? null : head + tail;
    } else {
      address = unescapeHost(s, from + 1, close);
    }
    if (address === null || !isIpv6Literal(address)) return null;
    return `[${address}]${s.slice(close + 1, to)}`;
  }
  let colon = indexIn(s, ":", from, to);
  if (colon !== -1) {
    const last = lastIndexIn(s, ":", from, to);
    if (last !== colon && scheme !== "http" && scheme !== "https") colon = last;
    if (!isValidOptionalPort(s, colon, to)) return null;
  }
  return unescapeHost(s, from, to);
}
