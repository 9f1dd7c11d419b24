import { alphaReorderQuery } from "./alpha-reorder-query.js";
import type { ArchiveUrl } from "./archive-url.js";
import { massageHost } from "./massage-host.js";
import { stripPathSessionId, stripQuerySessionId } from "./strip-session-ids.js";

const DEFAULT_PORTS: Readonly<Record<string, string>> = { http: "80", https: "443" };

/**
 * The second half of the Internet Archive's default key canonicalizer (surt's
 * IAURLCanonicalizer with its defaults): host lowercased and `www\d*.` dropped (unless
 * `keepWww`), userinfo dropped, the scheme's default port dropped, path and query lowercased,
 * session ids removed, a trailing slash removed (except the root), the query sorted, an empty
 * query and the fragment dropped. Mutates and returns `url`.
 *
 * @example
 * ```ts
 * formatArchiveUri(iaCanonicalize(parseArchiveUrl("http://www.archive.org/Big/?b&a")!, false));
 * // "http://archive.org/big?a&b"
 * ```
 */
export function iaCanonicalize(url: ArchiveUrl, keepWww: boolean): ArchiveUrl {
  if (url.host !== null) {
    url.host = url.host.toLowerCase();
    if (!keepWww && url.scheme !== "dns") url.host = massageHost(url.host);
  }
  url.user = null;
  url.password = null;
  if (url.port !== null && DEFAULT_PORTS[url.scheme] === url.port) url.port = null;
  let path = url.path.toLowerCase();
  path = stripPathSessionId(path);
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  url.path = path;
  if (url.query !== null) {
    // Lowercased before the session ids go: their matchers ignore case, so they cut the same.
    const query = alphaReorderQuery(stripQuerySessionId(url.query.toLowerCase()));
    url.query = query === "" ? null : query;
  }
  url.fragment = null;
  return url;
}
