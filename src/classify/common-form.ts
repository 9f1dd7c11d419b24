import { asciiLower } from "./ascii-lower.js";
import { schemeEnd } from "./canonicalize-slashes.js";
import { hasValidEscapes } from "./go-unescape.js";
import { schemeOf } from "./parse-like-go.js";
import { scanInput } from "./preprocess.js";
import { hasScriptScheme } from "./script-scheme.js";
import { isEdgeSpace } from "./trim-edges.js";
import type { UrlForm } from "./url-form.js";

/**
 * Classifies the form nearly every shared link has, `scheme://host[:port]` then an optional path,
 * query and fragment, after proving that the full classification (`classifyFully`,
 * classify-fully.ts) has nothing else to read in it: no edge space to trim, no tab, newline,
 * control, DEL or `\` anywhere, a scheme (RFC 3986 §3.1) followed by `//`, an authority of only
 * `[A-Za-z0-9.-]` with at least one character before an optional `:` and digits (so no userinfo,
 * no escape, no IP literal, no second colon), and only well-formed `%XX` escapes (Go's url.Parse
 * refuses others in the path and fragment; it never checks the query's). There parseLikeGo reads
 * the scheme, exactly that authority and no userinfo, and the host name is not empty: the class is
 * `absolute`, `trimmed` the input itself, the scheme and host folded, the port's digits as written.
 *
 * Returns null for anything else, or anything it cannot prove: the full path decides it. The
 * property test tests/properties/classify-common-form.property.test.ts compares the two.
 *
 * @example
 * ```ts
 * classifyCommonForm("HTTPS://Example.test:8080/a?b#c")?.host; // "example.test"
 * classifyCommonForm("https://user@example.test/"); // null
 * ```
 */
export function classifyCommonForm(s: string): UrlForm | null {
  const colon = schemeEnd(s);
  if (colon === -1 || s.charCodeAt(colon + 1) !== 0x2f || s.charCodeAt(colon + 2) !== 0x2f) return null;
  // The authority, up to the first "/", "?" or "#": a non-empty host name, then an optional ":"
  // and digits only.
  const from = colon + 3;
  const n = s.length;
  let port = -1;
  let upper = false;
  let i = from;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (port === -1 && ((c >= 0x61 && c <= 0x7a) || c === 0x2e || c === 0x2d)) continue;
    if (c >= 0x30 && c <= 0x39) continue;
    if (c === 0x2f || c === 0x3f || c === 0x23) break;
    if (port !== -1) return null;
    if (c >= 0x41 && c <= 0x5a) upper = true;
    else if (c === 0x3a && i > from) port = i;
    else return null;
  }
  if (i === from) return null;
  // The rest: nothing preprocessing would touch (scanInput's one native test, ~65 ns a golden link,
  // where a charCodeAt loop over the rest took ~115), and every escape well formed. url.Parse
  // checks only the path's and the fragment's; one check of all of them is shorter and as fast
  // (an indexOf settles the 94% of golden links without a "%"), and a bad escape in a query only
  // sends the link to the full path.
  if (scanInput(s) !== 0 || isEdgeSpace(s.charCodeAt(n - 1)) || !hasValidEscapes(s, i, n)) return null;
  const host = s.slice(from, port === -1 ? i : port);
  // A literal, not createUrlForm() and four stores: ~205 against ~275 ns a golden link (the same
  // process, interleaved), the bare parse ~295.
  return {
    class: "absolute",
    trimmed: s,
    // asciiLower of a host already in lowercase was ~15% of the golden links' time.
    host: upper ? asciiLower(host) : host,
    scheme: schemeOf(s, colon),
    port: port === -1 ? "" : s.slice(port + 1, i),
    hasBackslash: false,
    hasTabOrNewline: false,
    hasUserInfo: false,
    hostUnrecoverable: false,
    scriptScheme: hasScriptScheme(s),
  };
}
