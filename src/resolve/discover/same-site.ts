// tldts (the Public Suffix List, one 221 KB CommonJS file) loads with the first same-site check,
// not with the resolver: only a canonical declared for another host under canonicalLinks
// "same-site" needs it (the default, "any", never does), and a network-mode CLI start paid its
// load every time. Measured 6 Dec 2026, a one-URL --no-cache CLI run against a local server, 15
// interleaved runs each, eager import against this lazy one: 0.641 -> 0.491 CPU-s on Node 20.20.2,
// 0.487 -> 0.452 on Node 24.22.3.
let tldts: Promise<typeof import("tldts")> | undefined;

/**
 * True when two http(s) URLs share a registrable domain (Public Suffix List via tldts), the
 * "same-site" of `canonicalLinks: "same-site"`. Hosts without one (IP literals, bare suffixes)
 * are same-site only with themselves. Async only because tldts loads on the first call.
 *
 * @example
 * ```ts
 * await isSameSite(new URL("https://www.example.com/a"), new URL("http://m.example.com/b")); // true
 * await isSameSite(new URL("https://a.github.io/"), new URL("https://b.github.io/"));       // false
 * ```
 */
export async function isSameSite(a: URL, b: URL): Promise<boolean> {
  if (a.hostname === b.hostname) return true;
  tldts ??= import("tldts");
  const { getDomain } = await tldts;
  // Private suffixes (github.io, blogspot.com) count: two users' pages there are different sites.
  const options = { allowPrivateDomains: true };
  const domainA = getDomain(a.hostname, options);
  return domainA !== null && domainA === getDomain(b.hostname, options);
}
