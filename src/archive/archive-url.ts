import { splitQueryFragment } from "./split-query-fragment.js";
// The parts an archive key is made of, read the way the Internet Archive's key maker reads a URL
// (surt's handyurl.parse over Python's urlsplit): every scheme, no validation, nothing re-encoded.

/**
 * A URL split into the fields of an archive key. `null` means absent; `""` means present and
 * empty (`http://a/?` has `query: ""`).
 *
 * @example
 * ```ts
 * const parts: ArchiveUrl = parseArchiveUrl("http://a.example/x?y");
 * parts.host; // "a.example"
 * ```
 */
export interface ArchiveUrl {
  /** Lowercase (urlsplit lowercases it). */
  scheme: string;
  user: string | null;
  password: string | null;
  host: string | null;
  /** Decimal digits without leading zeros, or null for none. */
  port: string | null;
  path: string;
  query: string | null;
  fragment: string | null;
}

function isAlpha(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

// `^[a-zA-Z][a-zA-Z0-9+.-]*:`, by hand: this runs on every key.
function startsWithScheme(url: string): boolean {
  if (!isAlpha(url.charCodeAt(0))) return false;
  for (let i = 1; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x3a) return true;
    if (!(isAlpha(c) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2e || c === 0x2d)) return false;
  }
  return false;
}

function hasTabOrNewline(url: string): boolean {
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x09 || c === 0x0a || c === 0x0d) return true;
  }
  return false;
}

function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

function stripEdges(text: string): string {
  // Python's str.strip(): ASCII whitespace at both ends.
  if (text === "" || (!isSpace(text.charCodeAt(0)) && !isSpace(text.charCodeAt(text.length - 1))))
    return text;
  return text.replace(/^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g, "");
}

/**
 * Splits `raw` like surt's handyurl: trims it, drops tab/CR/LF, gives a scheme-less input
 * `http://`, folds `http://https://` to its last scheme, lowercases scheme and host, and reads
 * `http:////host` as the host `host`. Returns `undefined` for a port that is not a number (the
 * Archive's parser fails on it too).
 *
 * @example
 * ```ts
 * parseArchiveUrl("www.Example.com:8080/a?b#c");
 * // { scheme: "http", host: "www.example.com", port: "8080", path: "/a", query: "b", fragment: "c", … }
 * ```
 */
export function parseArchiveUrl(raw: string): ArchiveUrl | undefined {
  let url = stripEdges(raw);
  if (hasTabOrNewline(url)) url = url.replace(/[\t\n\r]/g, "");
  if (!startsWithScheme(url)) url = `http://${url}`;
  // handyurl: "http://https://order.1and1.com" is https://order.1and1.com.
  const sep = url.indexOf("://");
  const twice = (sep === 4 || sep === 5) && url.slice(sep + 3, sep + 7).toLowerCase() === "http";
  const repeated = twice ? /^(?:https?:\/\/)+/i.exec(url) : null;
  if (repeated !== null && repeated[0].length > 8) {
    const last = repeated[0].toLowerCase().lastIndexOf("http");
    url = url.slice(last);
  }
  const colon = url.indexOf(":");
  const scheme = url.slice(0, colon).toLowerCase();
  const { before: rest, query, fragment } = splitQueryFragment(url.slice(colon + 1));
  let netloc: string | null = null;
  let path = rest;
  if (rest.startsWith("//")) {
    const end = rest.indexOf("/", 2);
    netloc = end === -1 ? rest.slice(2) : rest.slice(2, end);
    path = end === -1 ? "" : rest.slice(end);
  }
  const parts: ArchiveUrl = {
    scheme,
    user: null,
    password: null,
    host: null,
    port: null,
    path,
    query,
    fragment,
  };
  if (netloc !== null && !readNetloc(netloc, parts)) return undefined;
  if (scheme === "dns") {
    // handyurl: dns:host has no "//"; its host is the path.
    parts.host = path === "" ? null : path;
    parts.path = "";
  } else if (scheme.startsWith("http") && parts.host === null && path !== "") {
    const trimmed = path.replace(/^\/+/, "");
    const slash = trimmed.indexOf("/");
    parts.host = (slash === -1 ? trimmed : trimmed.slice(0, slash)).toLowerCase() || null;
    parts.path = slash === -1 ? "/" : trimmed.slice(slash);
  }
  return parts;
}

function readNetloc(netloc: string, parts: ArchiveUrl): boolean {
  let hostport = netloc;
  const at = netloc.lastIndexOf("@");
  if (at !== -1) {
    const userinfo = netloc.slice(0, at);
    hostport = netloc.slice(at + 1);
    const colon = userinfo.indexOf(":");
    parts.user = colon === -1 ? userinfo : userinfo.slice(0, colon);
    parts.password = colon === -1 ? null : userinfo.slice(colon + 1);
  }
  // handyurl: "host:" with nothing after the colon has no port.
  while (hostport.endsWith(":")) hostport = hostport.slice(0, -1);
  const bracket = hostport.lastIndexOf("]");
  const colon = hostport.lastIndexOf(":");
  let host = hostport;
  if (colon > bracket) {
    // `^[0-9]{1,5}$` and at most 65535, read by hand.
    const digits = hostport.length - colon - 1;
    if (digits < 1 || digits > 5) return false;
    let value = 0;
    for (let i = colon + 1; i < hostport.length; i++) {
      const c = hostport.charCodeAt(i);
      if (c < 0x30 || c > 0x39) return false;
      value = value * 10 + (c - 0x30);
    }
    if (value > 65535) return false;
    host = hostport.slice(0, colon);
    parts.port = value === 0 ? null : String(value);
  }
  parts.host = host === "" ? null : host.toLowerCase();
  return true;
}
