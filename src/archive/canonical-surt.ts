import { alphaReorderQuery } from "./alpha-reorder-query.js";
import { isPlainDomain, isPlainPath, normalizeArchivePath } from "./google-canonicalize.js";
import { massageHost } from "./massage-host.js";
import { minimalEscape } from "./percent-bytes.js";
import { hostToSurt } from "./reverse-host.js";
import { stripPathSessionId, stripQuerySessionId } from "./strip-session-ids.js";

/**
 * The SURT of a URL canonurl's normalize() returned, read straight from its text: the same key
 * parseArchiveUrl, googleCanonicalize, iaCanonicalize and formatSurt give, for the shape nearly
 * every such URL has — `http(s)://` a lowercase DNS name (isPlainDomain, or with one trailing
 * dot), a dotted-quad IPv4 or a bracketed IPv6 address, an optional port, a rooted path and an
 * optional query, no userinfo and no fragment. `text` is serialized: no tab or newline. Those steps are written for any
 * text (whitespace, missing schemes, `http://https://`, userinfo, IP and IDN hosts, `dns:`); a
 * normalized URL of this shape needs none of that, nor the parts record they fill. Returns
 * `undefined` for any other text, which then takes the general steps.
 *
 * @example
 * ```ts
 * surtOfCanonical("https://www.example.com:8080/A?b=1&a", false); // "com,example:8080)/a?a&b=1"
 * surtOfCanonical("http://user@example.com/", false);             // undefined
 * ```
 */
export function surtOfCanonical(text: string, keepWww: boolean): string | undefined {
  let authorityStart: number;
  let defaultPort: number;
  if (text.startsWith("https://")) {
    authorityStart = 8;
    defaultPort = 443;
  } else if (text.startsWith("http://")) {
    authorityStart = 7;
    defaultPort = 80;
  } else return undefined;
  const pathStart = text.indexOf("/", authorityStart);
  if (pathStart === -1 || text.includes("#", pathStart)) return undefined;
  // The general steps trim the text's edges first (a serialized URL has nothing to trim; tabs
  // and newlines, which they drop anywhere, it cannot hold at all).
  if (text.charCodeAt(text.length - 1) <= 0x20) return undefined;
  // The authority: a host and an optional port of digits; anything else (userinfo) goes the
  // general way.
  let hostEnd = pathStart;
  let port = -1;
  const ipv6 = text.charCodeAt(authorityStart) === 0x5b;
  for (let i = ipv6 ? text.indexOf("]", authorityStart) + 1 : authorityStart; i > 0 && i < pathStart; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3a) {
      hostEnd = i;
      port = readPort(text, i + 1, pathStart);
      if (port === -1) return undefined;
      break;
    }
    if (c === 0x40 || c === 0x5b || c === 0x5d) return undefined;
  }
  let host = text.slice(authorityStart, hostEnd);
  if (ipv6) {
    // The WHATWG serialization of an IPv6 address: the general steps keep it as it is.
    if (!isIpv6Literal(host)) return undefined;
  } else if (!isPlainDomain(host) && !isDottedQuad(host)) {
    // One trailing dot (a fully qualified name): the general steps strip it.
    if (!host.endsWith(".") || !isPlainDomain(host.slice(0, -1))) return undefined;
    host = host.slice(0, -1);
  }
  if (!keepWww) host = massageHost(host);

  const queryAt = text.indexOf("?", pathStart);
  const pathEnd = queryAt === -1 ? text.length : queryAt;
  let path = text.slice(pathStart, pathEnd);
  if (!isPlainPath(path)) path = normalizeArchivePath(minimalEscape(path));
  path = stripPathSessionId(path.toLowerCase());
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);

  let out = hostToSurt(host);
  if (port > 0 && port !== defaultPort) out += `:${port}`;
  out += `)${path}`;
  if (queryAt !== -1) {
    const raw = text.slice(queryAt + 1);
    const query = alphaReorderQuery(
      stripQuerySessionId((raw === "" ? raw : minimalEscape(raw)).toLowerCase()),
    );
    if (query !== "") out += `?${query}`;
  }
  return out;
}

// `[` lowercase hex digits and colons `]`, as the WHATWG parser writes an IPv6 address.
function isIpv6Literal(host: string): boolean {
  if (host.length < 4 || host.charCodeAt(host.length - 1) !== 0x5d) return false;
  for (let i = 1; i < host.length - 1; i++) {
    const c = host.charCodeAt(i);
    if (!((c >= 0x30 && c <= 0x3a) || (c >= 0x61 && c <= 0x66))) return false;
  }
  return true;
}

// Four decimal numbers of 0 to 255 without leading zeros: an IPv4 address as the WHATWG parser
// writes it, which the general steps' IPv4 reading gives back unchanged.
function isDottedQuad(host: string): boolean {
  let parts = 0;
  let start = 0;
  for (let i = 0; i <= host.length; i++) {
    const c = i === host.length ? 0x2e : host.charCodeAt(i);
    if (c === 0x2e) {
      const length = i - start;
      if (length < 1 || length > 3 || (length > 1 && host.charCodeAt(start) === 0x30)) return false;
      if (Number(host.slice(start, i)) > 255) return false;
      parts++;
      start = i + 1;
    } else if (c < 0x30 || c > 0x39) return false;
  }
  return parts === 4;
}

// The port after `:` in text[from, to): 1 to 5 digits, at most 65535 (0 reads as no port), or -1.
function readPort(text: string, from: number, to: number): number {
  if (to - from < 1 || to - from > 5) return -1;
  let value = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return -1;
    value = value * 10 + (c - 0x30);
  }
  return value > 65535 ? -1 : value;
}
