import type { ArchiveUrl } from "./archive-url.js";
import { ipv4DottedQuad } from "./ipv4-host.js";
import { minimalEscape, unescapeToText } from "./percent-bytes.js";

/**
 * The first half of the Internet Archive's default key canonicalizer (surt's
 * GoogleURLCanonicalizer, after Google's Safe Browsing canonicalization): drops the fragment,
 * decodes userinfo, host, path and query repeatedly and escapes them once, maps the host to
 * ASCII (IDNA) and reads numeric hosts as IPv4, removes dot segments and empty path segments.
 * Mutates and returns `url`.
 *
 * @example
 * ```ts
 * formatArchiveUri(googleCanonicalize(parseArchiveUrl("http://host/%2525252525")!)); // "http://host/%25"
 * ```
 */
export function googleCanonicalize(url: ArchiveUrl): ArchiveUrl {
  url.fragment = null;
  if (url.user) url.user = minimalEscape(url.user);
  if (url.password) url.password = minimalEscape(url.password);
  if (url.query) url.query = minimalEscape(url.query);
  if (url.host !== null) url.host = canonicalHost(url.host);
  url.path = minimalEscape(normalizeArchivePath(unescapeToText(url.path)));
  return url;
}

function canonicalHost(raw: string): string {
  if (raw.startsWith("[")) return raw.toLowerCase();
  let host = unescapeToText(raw);
  host = toAscii(host);
  // surt: one left-to-right replace of ".." by ".", then dots stripped at both ends.
  host = host.replaceAll("..", ".").replace(/^\.+|\.+$/g, "");
  // surt masks an all-digit host to 32 bits (Wayback's liveweb ARC files carry larger numbers).
  if (/^[0-9]{1,20}$/.test(host)) {
    const value = Number(BigInt(host) & 0xffffffffn);
    return `${value >>> 24}.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`;
  }
  return ipv4DottedQuad(host) ?? minimalEscape(host.toLowerCase());
}

// IDNA: the WHATWG host parser (domain to ASCII, UTS #46) is the one every runtime has; a host it
// refuses stays as it is and is escaped, as surt keeps a host IDNA cannot encode.
function toAscii(host: string): string {
  let ascii = true;
  for (let i = 0; i < host.length; i++) if (host.charCodeAt(i) >= 0x80) ascii = false;
  if (ascii) return host;
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return host;
  }
}

/**
 * surt's normalizePath: `.` segments dropped, `..` pops a segment (kept when there is none to
 * pop), empty segments dropped except a trailing one, and an empty path is `/`.
 *
 * @example
 * ```ts
 * normalizeArchivePath("//a/./b/../c/"); // "/a/c/"
 * ```
 */
export function normalizeArchivePath(path: string): string {
  if (path === "") return "/";
  const segments = path.split("/");
  const kept: string[] = [];
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i] as string;
    if (segment === ".") continue;
    if (segment === "..") {
      if (kept.length > 0) kept.pop();
      else kept.push(segment);
    } else kept.push(segment);
  }
  let out = "/";
  for (let i = 0; i < kept.length - 1; i++) if (kept[i] !== "") out += `${kept[i]}/`;
  if (kept.length > 0) out += kept[kept.length - 1];
  return out;
}
