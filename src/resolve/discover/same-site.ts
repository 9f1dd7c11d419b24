import { getDomain } from "tldts";

/**
 * True when two http(s) URLs share a registrable domain (Public Suffix List via tldts), the
 * "same-site" of `canonicalLinks: "same-site"`. Hosts without one (IP literals, bare suffixes)
 * are same-site only with themselves.
 *
 * @example
 * ```ts
 * isSameSite(new URL("https://www.example.com/a"), new URL("http://m.example.com/b")); // true
 * isSameSite(new URL("https://a.github.io/"), new URL("https://b.github.io/"));       // false
 * ```
 */
export function isSameSite(a: URL, b: URL): boolean {
  if (a.hostname === b.hostname) return true;
  // Private suffixes (github.io, blogspot.com) count: two users' pages there are different sites.
  const options = { allowPrivateDomains: true };
  const domainA = getDomain(a.hostname, options);
  return domainA !== null && domainA === getDomain(b.hostname, options);
}
