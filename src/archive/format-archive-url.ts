import type { ArchiveUrl } from "./archive-url.js";
import { hostToSurt } from "./reverse-host.js";

/**
 * The Internet Archive's SURT key of canonicalized parts, without the scheme (its CDX default):
 * `host,reversed` `:port` `)` path `?query`; a path is `/` when only a query follows.
 *
 * @example
 * ```ts
 * formatSurt({ scheme: "http", user: null, password: null, host: "example.com", port: null,
 *   path: "/a", query: "b=1", fragment: null }); // "com,example)/a?b=1"
 * ```
 */
export function formatSurt(url: ArchiveUrl): string {
  let out = hostToSurt(url.host ?? "");
  if (url.port !== null) out += `:${url.port}`;
  out += ")";
  return out + tail(url);
}

/**
 * The same parts as a URL (`scheme://host:port/path?query#fragment`): what the Archive's
 * canonicalizers return before the SURT step.
 *
 * @example
 * ```ts
 * formatArchiveUri({ scheme: "http", user: null, password: null, host: "example.com", port: null,
 *   path: "", query: null, fragment: null }); // "http://example.com"
 * ```
 */
export function formatArchiveUri(url: ArchiveUrl): string {
  let out = `${url.scheme}:`;
  if (url.host !== null) {
    if (url.scheme !== "dns") out += "//";
    if (url.user) out += `${url.user}${url.password ? `:${url.password}` : ""}@`;
    out += url.host;
    if (url.port !== null) out += `:${url.port}`;
  }
  return out + tail(url);
}

function tail(url: ArchiveUrl): string {
  let out = url.path !== "" ? url.path : url.query !== null || url.fragment !== null ? "/" : "";
  if (url.query !== null) out += `?${url.query}`;
  if (url.fragment !== null) out += `#${url.fragment}`;
  return out;
}
