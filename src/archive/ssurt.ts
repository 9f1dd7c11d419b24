import { isIpHost } from "./ipv4-host.js";
import { reverseHost, ssurtHost } from "./reverse-host.js";
import { splitQueryFragment } from "./split-query-fragment.js";

interface RawParts {
  scheme: string;
  user: string | null;
  password: string | null;
  host: string;
  port: string | null;
  path: string;
  query: string | null;
  fragment: string | null;
}

// urlcanon reads bytes as written (nothing lowercased or decoded); C0 controls and space at the
// edges are junk around the URL.
function trimJunk(url: string): string {
  let start = 0;
  let end = url.length;
  while (start < end && url.charCodeAt(start) <= 0x20) start++;
  while (end > start && url.charCodeAt(end - 1) <= 0x20) end--;
  return url.slice(start, end);
}

function splitRaw(url: string): RawParts | undefined {
  const text = trimJunk(url);
  const scheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.exec(text);
  if (scheme === null) return undefined;
  const { before: rest, query, fragment } = splitQueryFragment(text.slice(scheme[0].length));
  const slash = rest.indexOf("/");
  const authority = slash === -1 ? rest : rest.slice(0, slash);
  const path = slash === -1 ? "" : rest.slice(slash);
  const at = authority.lastIndexOf("@");
  const userinfo = at === -1 ? null : authority.slice(0, at);
  const hostport = authority.slice(at + 1);
  const colon = hostport.lastIndexOf(":");
  const hasPort = colon > hostport.lastIndexOf("]");
  const host = hasPort ? hostport.slice(0, colon) : hostport;
  if (host === "") return undefined;
  const userColon = userinfo === null ? -1 : userinfo.indexOf(":");
  return {
    scheme: scheme[0].slice(0, -3),
    user: userinfo === null ? null : userColon === -1 ? userinfo : userinfo.slice(0, userColon),
    password: userinfo === null || userColon === -1 ? null : userinfo.slice(userColon + 1),
    host,
    port: hasPort ? hostport.slice(colon + 1) : null,
    path,
    query,
    fragment,
  };
}

function tail(parts: RawParts): string {
  let out = parts.path;
  if (parts.query !== null) out += `?${parts.query}`;
  if (parts.fragment !== null) out += `#${parts.fragment}`;
  return out;
}

/**
 * urlcanon's SSURT, the semantic SURT: every part of the URL kept and ordered from the most
 * general to the most specific, `host,reversed,` `//` `port:` `scheme` `@user:password` `:` path
 * `?query` `#fragment`. It formats the URL as written (urlcanon canonicalizes first, separately):
 * for a canonical key pass `normalize(url)`. A URL without an authority (`screenshot:…`) comes
 * back as it is. Linear in the input's length.
 *
 * @example
 * ```ts
 * ssurt("http://user@foo.example.org:81/path?query#frag"); // "org,example,foo,//81:http@user:/path?query#frag"
 * ssurt(normalize("HTTP://Example.COM/a"));                // "com,example,//http:/a"
 * ```
 */
export function ssurt(url: string): string {
  if (typeof url !== "string") throw new TypeError(`ssurt: url must be a string, got ${typeof url}`);
  const parts = splitRaw(url);
  if (parts === undefined) return url;
  let out = `${ssurtHost(parts.host)}//`;
  if (parts.port !== null && parts.port !== "") out += `${parts.port}:`;
  out += parts.scheme;
  if (parts.user !== null) out += `@${parts.user}${parts.password !== null ? `:${parts.password}` : ""}`;
  return `${out}:${tail(parts)}`;
}

/**
 * urlcanon's SURT format of a URL as written (no canonicalization, no `www` massage; userinfo
 * dropped, fragment kept, IP addresses not reversed): `scheme://(host,reversed,:port)path…`.
 * Not part of the public API: {@link surt} is the Archive's key; this pins urlcanon's fixture.
 *
 * @example
 * ```ts
 * urlcanonSurt("http://a.b:81/p", { withScheme: false, trailingComma: true }); // "b,a,:81)/p"
 * ```
 */
export function urlcanonSurt(url: string, options: { withScheme: boolean; trailingComma: boolean }): string {
  const parts = splitRaw(url);
  if (parts === undefined) return url;
  let host = parts.host;
  if (!isIpHost(host)) {
    host = reverseHost(host);
    if (!options.trailingComma) host = host.slice(0, -1);
  }
  let out = options.withScheme ? `${parts.scheme}://(` : "";
  out += host;
  if (parts.port !== null && parts.port !== "") out += `:${parts.port}`;
  return `${out})${tail(parts)}`;
}
