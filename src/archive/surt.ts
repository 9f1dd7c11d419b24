import { UrlError } from "../errors/url-error.js";
import { canonicalWith } from "../pipeline/normalize.js";
import { resolveNormalizeOptions } from "../pipeline/resolve-normalize-options.js";
import { parseArchiveUrl } from "./archive-url.js";
import { surtOfCanonical } from "./canonical-surt.js";
import { formatSurt } from "./format-archive-url.js";
import { googleCanonicalize } from "./google-canonicalize.js";
import { iaCanonicalize } from "./ia-canonicalize.js";
import { resolveSurtOptions, type SurtOptions } from "./surt-options.js";

// Records a CDX index keys by their own text (the Archive's key maker returns them unchanged).
const VERBATIM = /^(?:filedesc|warcinfo|dns:)/i;
const HTTP_OR_NO_SCHEME = /^(?:https?:|(?![a-zA-Z][a-zA-Z0-9+.-]*:))/i;
// Resolved once: normalize() would validate the same two option objects on every key.
const RFC3986 = resolveNormalizeOptions({ preset: "rfc3986" });
const IDENTITY = resolveNormalizeOptions({ preset: "identity" });

// The two tests run on every key: a look at the first characters settles most of them before
// any regex runs.
function isVerbatim(text: string): boolean {
  const c = text.charCodeAt(0) | 0x20;
  return (c === 0x66 || c === 0x77 || c === 0x64) && VERBATIM.test(text);
}

function isHttpOrNoScheme(text: string): boolean {
  // "http:" or "https:" in any case, read without a lowercased copy.
  if (
    (text.charCodeAt(0) | 0x20) === 0x68 &&
    (text.charCodeAt(1) | 0x20) === 0x74 &&
    (text.charCodeAt(2) | 0x20) === 0x74 &&
    (text.charCodeAt(3) | 0x20) === 0x70
  ) {
    const c = text.charCodeAt(4);
    if (c === 0x3a || ((c | 0x20) === 0x73 && text.charCodeAt(5) === 0x3a)) return true;
  }
  return HTTP_OR_NO_SCHEME.test(text);
}

/**
 * The Sort-friendly URI Reordering Transform, as web archives key their indexes (Heritrix, pywb,
 * CDX/CDXJ) with the Internet Archive's defaults: scheme, userinfo, `www` and the fragment
 * dropped, the host reversed and comma-joined, `)` before the path, path and query lowercased,
 * session ids removed, the query sorted. With the default `preset` canonurl's `rfc3986`
 * normalization runs first.
 *
 * Empty input gives `-` (a CDX "no value"); `filedesc:`, `warcinfo:` and `dns:` records and URLs
 * without a host (`mailto:`) come back as they are. With preset `rfc3986` or `identity`, http(s)
 * input the WHATWG parser refuses throws `UrlError` (`invalid-url`); preset `"none"` reads it
 * the Archive's way instead. Work and output are linear in the input's length.
 *
 * @example
 * ```ts
 * surt("http://www.Example.com/a?b=1");              // "com,example)/a?b=1"
 * surt("https://archive.org/goo/?b&a");              // "org,archive)/goo?a&b"
 * surt("http://www.example.com/", { keepWww: true }); // "com,example,www)/"
 * ```
 */
export function surt(url: string, options?: SurtOptions): string {
  if (typeof url !== "string") throw new TypeError(`surt: url must be a string, got ${typeof url}`);
  const { preset, keepWww } = resolveSurtOptions(options);
  const trimmed = url.trim();
  if (trimmed === "") return "-";
  if (isVerbatim(trimmed)) return trimmed;
  let text = trimmed;
  if (preset !== "none" && isHttpOrNoScheme(trimmed)) {
    text = canonicalWith(trimmed, preset === "rfc3986" ? RFC3986 : IDENTITY);
    // A normalized URL of the usual shape is keyed from its text; any other takes the steps below.
    const key = surtOfCanonical(text, keepWww);
    if (key !== undefined) return key;
  }
  const parts = parseArchiveUrl(text);
  if (parts === undefined)
    throw new UrlError("invalid-url", `invalid URL (port): ${JSON.stringify(url)}`, { url });
  if (parts.host === null) return trimmed;
  return formatSurt(iaCanonicalize(googleCanonicalize(parts), keepWww));
}
