// WHATWG URL §3.2 "forbidden host code point" (the ones that can still sit inside an authority once
// "/", "?", "#" and "\" have ended it) and §3.2 "forbidden domain code point" additions, checked
// after percent-decoding as the host parser does (§3.5 step 4-7).
const FORBIDDEN_HOST = new Set([
  0x00, 0x09, 0x0a, 0x0d, 0x20, 0x23, 0x3c, 0x3e, 0x40, 0x5b, 0x5d, 0x5e, 0x7c,
]);
const FORBIDDEN_DOMAIN_EXTRA = new Set([0x25, 0x7f]);

/**
 * Says why the WHATWG parser refused `text` (an input with a `scheme://` authority), when the
 * authority alone shows it: an empty host, a port that is not a number or is out of range, a
 * forbidden host character (named, with its code point), an unclosed IPv6 bracket. Returns
 * `undefined` when the reason is elsewhere (an IDNA failure, a bad IPv4 number): the caller then
 * says only that the URL is invalid. Only reads the authority, once: O(authority length).
 *
 * @example
 * ```ts
 * invalidUrlReason("http://example.com:99999/"); // "port 99999 is out of range (0-65535)"
 * invalidUrlReason("http://exa mple.com/");      // 'forbidden host character " " (U+0020)'
 * ```
 */
export function invalidUrlReason(text: string): string | undefined {
  const sep = text.indexOf("://");
  if (sep === -1) return undefined;
  const start = sep + 3;
  let end = start;
  // http(s) is special: "\" ends the authority like "/" (WHATWG §4.4 authority state).
  while (end < text.length) {
    const c = text.charCodeAt(end);
    if (c === 0x2f || c === 0x5c || c === 0x3f || c === 0x23) break;
    end++;
  }
  let authority = text.slice(start, end);
  const at = authority.lastIndexOf("@");
  if (at !== -1) authority = authority.slice(at + 1);
  let host = authority;
  let port: string | undefined;
  if (authority.startsWith("[")) {
    const close = authority.indexOf("]");
    if (close === -1) return "unclosed IPv6 bracket in the host";
    host = authority.slice(0, close + 1);
    const rest = authority.slice(close + 1);
    if (rest.startsWith(":")) port = rest.slice(1);
    else if (rest !== "") return `unexpected ${describe(rest.charCodeAt(0))} after the IPv6 address`;
  } else {
    const colon = authority.indexOf(":");
    if (colon !== -1) {
      host = authority.slice(0, colon);
      port = authority.slice(colon + 1);
    }
  }
  if (host === "") return "empty host";
  if (port !== undefined && port !== "") {
    if (!/^[0-9]+$/.test(port)) return `port ${JSON.stringify(port)} is not a number`;
    if (port.length > 5 || Number(port) > 65535) return `port ${port} is out of range (0-65535)`;
  }
  if (host.startsWith("[")) return undefined;
  for (let i = 0; i < host.length; i++) {
    const c = host.charCodeAt(i);
    if (FORBIDDEN_HOST.has(c) || c === 0x3a) return `forbidden host character ${describe(c)}`;
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(host);
  } catch {
    return "invalid percent-encoding in the host";
  }
  for (let i = 0; i < decoded.length; i++) {
    const c = decoded.charCodeAt(i);
    if (FORBIDDEN_HOST.has(c) || FORBIDDEN_DOMAIN_EXTRA.has(c) || c < 0x20 || c === 0x3a || c === 0x2f)
      return `forbidden host character ${describe(c)}${decoded === host ? "" : " (percent-encoded)"}`;
  }
  return undefined;
}

function describe(c: number): string {
  const hex = c.toString(16).toUpperCase().padStart(4, "0");
  return c >= 0x20 && c < 0x7f ? `"${String.fromCharCode(c)}" (U+${hex})` : `U+${hex}`;
}
