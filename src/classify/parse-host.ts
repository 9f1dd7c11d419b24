import { isHostAscii, unescapeHost, unescapeZone } from "./go-unescape.js";
import { isIpv6Literal } from "./is-ipv6-literal.js";
import { isValidOptionalPort } from "./valid-optional-port.js";

/**
 * net/url's parseHost (Go 1.26) over `s[from, to)`, the `host[:port]` part of an authority.
 * Returns the unescaped `host[:port]` (url.URL.Host), or null where url.Parse fails:
 * - `[` anywhere but first; a `[...]` whose content is not an IPv6 address (RFC 3986 §3.2.2
 *   IP-literal, checked with netip.ParseAddr; zones per RFC 6874 as `%25`);
 * - a port that is not all digits; for http and https more than one colon outside brackets
 *   (`urlstrictcolons`, the Go 1.26 default); other schemes take the last colon as the port's;
 * - a host code unit or escape outside net/url's host set (see go-unescape.ts).
 * Go checks these in a different order; every failure is the same null, so one forward scan
 * does them all.
 *
 * @example
 * ```ts
 * parseHost("a.test:8080", 0, 11, "http"); // "a.test:8080"
 * parseHost("a:b:80", 0, 6, "http"); // null
 * ```
 */
export function parseHost(s: string, from: number, to: number, scheme: string): string | null {
  if (from < to && s.charCodeAt(from) === 0x5b) return parseIpLiteral(s, from, to);
  let firstColon = -1;
  let lastColon = -1;
  let escapes = false;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x3a) {
      if (firstColon === -1) firstColon = i;
      lastColon = i;
    } else if (c === 0x25) {
      escapes = true;
    } else if (c < 0x80 && !isHostAscii(c)) {
      return null; // `[` past the first position lands here too
    }
  }
  if (firstColon !== -1) {
    const strict = scheme === "http" || scheme === "https";
    const colon = strict ? firstColon : lastColon;
    if (!isValidOptionalPort(s, colon, to)) return null;
  }
  return escapes ? unescapeHost(s, from, to) : s.slice(from, to);
}

// RFC 3986 §3.2.2 IP-literal with an optional RFC 6874 zone, as net/url reads "[...]" + port.
function parseIpLiteral(s: string, from: number, to: number): string | null {
  const again = s.indexOf("[", from + 1);
  if (again !== -1 && again < to) return null;
  const close = s.lastIndexOf("]", to - 1);
  if (close <= from) return null;
  if (!isValidOptionalPort(s, close + 1, to)) return null;
  const zone = s.indexOf("%25", from + 1);
  let address: string | null;
  if (zone !== -1 && zone + 3 <= close) {
    const head = unescapeHost(s, from + 1, zone);
    const tail = head === null ? null : unescapeZone(s, zone, close);
    address = head === null || tail === null ? null : head + tail;
  } else {
    address = unescapeHost(s, from + 1, close);
  }
  if (address === null || !isIpv6Literal(address)) return null;
  return `[${address}]${s.slice(close + 1, to)}`;
}
