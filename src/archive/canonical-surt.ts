import { alphaReorderQuery } from "./alpha-reorder-query.js";
import { isPlainDomain, isPlainPath, normalizeArchivePath } from "./google-canonicalize.js";
import { massageHost } from "./massage-host.js";
import { minimalEscape } from "./percent-bytes.js";
import { hostToSurt } from "./reverse-host.js";
import { stripPathSessionId, stripQuerySessionId } from "./strip-session-ids.js";

/**
 * The SURT of a URL canonurl's normalize() returned, read straight from its text: the same key
 * parseArchiveUrl, googleCanonicalize, iaCanonicalize and formatSurt give, for the shape nearly
 * every such URL has — `http(s)://` a lowercase DNS name (isPlainDomain), an optional port, a
 * rooted path and an optional query, no userinfo and no fragment. Those steps are written for any
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
  // The authority: a host and an optional port of digits; anything else (userinfo, an IPv6
  // literal) goes the general way.
  let hostEnd = pathStart;
  let port = -1;
  for (let i = authorityStart; i < pathStart; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3a) {
      hostEnd = i;
      port = readPort(text, i + 1, pathStart);
      if (port === -1) return undefined;
      break;
    }
    if (c === 0x40 || c === 0x5b) return undefined;
  }
  let host = text.slice(authorityStart, hostEnd);
  if (!isPlainDomain(host)) return undefined;
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
