const WWW = /^www\d*\./;

/**
 * The Internet Archive's host massage: a leading `www.` (or `www2.`, `www34.`) is dropped, so
 * `www.example.com` and `example.com` share a key.
 *
 * @example
 * ```ts
 * massageHost("www12.foo.com"); // "foo.com"
 * massageHost("www2foo.com");   // "www2foo.com"
 * ```
 */
export function massageHost(host: string): string {
  if (!host.startsWith("www")) return host;
  const match = WWW.exec(host);
  return match === null ? host : host.slice(match[0].length);
}
