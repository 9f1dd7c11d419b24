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
  if (url.host !== null && !isPlainDomain(url.host)) url.host = canonicalHost(url.host);
  // surt decodes the path, removes dot and empty segments, then escapes it. Escaping first gives
  // the same: it maps "/" and "." to themselves and every other byte to text without them, so
  // the segments are the same, and no new %XX can form across a removed segment ("/" is not hex).
  if (!isPlainPath(url.path)) url.path = normalizeArchivePath(minimalEscape(url.path));
  else if (url.path === "") url.path = "/";
  return url;
}

// The fast paths below recognize text every step would leave as it is (most of what a normalized
// URL holds), so the common key costs a scan instead of the byte-level decode, split and escape.

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * True for a lowercase DNS name of letters, digits, `-` and `_` in non-empty labels whose last
 * label does not start with a digit: nothing to decode, map to ASCII or strip, and not an IPv4
 * address in any spelling (those end in a numeric label), so canonicalHost returns it unchanged.
 */
export function isPlainDomain(host: string): boolean {
  let labelStart = 0;
  for (let i = 0; i < host.length; i++) {
    const c = host.charCodeAt(i);
    if (c === 0x2e) {
      if (i === labelStart) return false;
      labelStart = i + 1;
    } else if (!((c >= 0x61 && c <= 0x7a) || isDigit(c) || c === 0x2d || c === 0x5f)) return false;
  }
  return labelStart < host.length && !isDigit(host.charCodeAt(labelStart));
}

/**
 * True for a path every step leaves as it is: empty or rooted, printable ASCII without `%` or
 * `#` (nothing to decode or escape), and no empty, `.` or `..` segment (nothing for
 * normalizeArchivePath to remove; `/.` anywhere sends it the long way).
 */
export function isPlainPath(path: string): boolean {
  if (path === "") return true;
  if (path.charCodeAt(0) !== 0x2f) return false;
  let previous = 0;
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f || c === 0x23 || c === 0x25) return false;
    if (previous === 0x2f && (c === 0x2f || c === 0x2e)) return false;
    previous = c;
  }
  return true;
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

// A rooted path without an empty segment (other than a trailing one), a `.` or a `..`: what
// normalizeArchivePath returns unchanged. As in isPlainPath, `/.` anywhere sends it the long way.
function keepsSegments(path: string): boolean {
  if (path.charCodeAt(0) !== 0x2f) return false;
  for (let i = 1; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if ((c === 0x2f || c === 0x2e) && path.charCodeAt(i - 1) === 0x2f) return false;
  }
  return true;
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
  if (keepsSegments(path)) return path;
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
