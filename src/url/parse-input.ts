import { UrlError } from "../errors/url-error.js";
import { isEdgeJunk } from "./edge-junk.js";
import { invalidUrlReason } from "./invalid-url-reason.js";
import { schemeTokenLength } from "./scheme-token.js";

/** The result of {@link parseInput}: the WHATWG-parsed URL and the string it was parsed from. */
export interface ParsedInput {
  url: URL;
  /** The trimmed input with the default scheme prepended where it had none. */
  text: string;
}

/**
 * Trims `raw`, gives it `defaultScheme` when it has no `scheme:` token, parses it with the WHATWG
 * URL parser and accepts only http and https.
 *
 * Input without a scheme names its host first (`example.com/x`) or after exactly two slashes
 * (`//example.com/x`, protocol-relative); both get `defaultScheme`. Anything else without a scheme
 * has no host and is refused, as classify() calls it: a rooted path (`/x`, class `relative`), a
 * bare query or fragment, or an empty authority (`///x`). The WHATWG parser would otherwise skip
 * the slashes and read the first path segment as a host (`/relative/path` → `http://relative/path`).
 *
 * Throws `UrlError` `invalid-url` when it does not parse, with the reason when the authority shows
 * it (empty host, port out of range, a forbidden host character named), `unsupported-scheme` for any
 * other scheme.
 *
 * @example
 * ```ts
 * parseInput(" Example.com/a ", "http").url.href; // "http://example.com/a"
 * ```
 */
export function parseInput(raw: string, defaultScheme: "http" | "https"): ParsedInput {
  const trimmed = removeTabAndNewline(trimEdges(raw));
  if (trimmed === "") throw new UrlError("invalid-url", "invalid URL: empty input", { url: raw });
  const text = schemeTokenLength(trimmed) === 0 ? withDefaultScheme(trimmed, raw, defaultScheme) : trimmed;
  let url: URL;
  try {
    url = new URL(text);
  } catch (cause) {
    const reason = invalidUrlReason(text);
    throw new UrlError(
      "invalid-url",
      reason === undefined
        ? `invalid URL: ${JSON.stringify(raw)}`
        : `invalid URL ${JSON.stringify(raw)}: ${reason}`,
      { url: raw, cause },
    );
  }
  return { url: checkHttpUrl(url, raw), text };
}

/**
 * Accepts an already parsed URL on the same terms as {@link parseInput}: http or https, with a
 * host. `raw` is what error messages quote.
 *
 * @example
 * ```ts
 * checkHttpUrl(new URL("ftp://a.test/"), "ftp://a.test/"); // throws UrlError unsupported-scheme
 * ```
 */
export function checkHttpUrl(url: URL, raw: string = url.href): URL {
  // The href starts with the scheme, lowercased by the parser: read there, not sliced out.
  const href = url.href;
  if (!(href.startsWith("http://") || href.startsWith("https://"))) {
    throw new UrlError(
      "unsupported-scheme",
      `unsupported scheme "${url.protocol.slice(0, -1)}": ${JSON.stringify(raw)}`,
      {
        url: raw,
      },
    );
  }
  if (url.hostname === "")
    throw new UrlError("invalid-url", `invalid URL (no host): ${JSON.stringify(raw)}`, { url: raw });
  return url;
}

// WHATWG URL §4.4 basic URL parser, step 1 trims C0 controls and space from both ends; String#trim
// adds the Unicode white space a paste from a document or an email carries (NBSP, U+2028, BOM).
function trimEdges(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isEdgeJunk(s.charCodeAt(start))) start++;
  while (end > start && isEdgeJunk(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

// WHATWG URL §4.4 basic URL parser, step 3: remove all ASCII tab or newline from input. It must
// happen before the scheme token is looked for, or "h\tttp://x" would get a second scheme.
// Three native indexOf scans beat one charCodeAt loop over the whole input several times over
// (bench corpus: ~65 against ~230 ns per URL), and almost no input has any of the three.
function removeTabAndNewline(s: string): string {
  if (s.indexOf("\t") === -1 && s.indexOf("\n") === -1 && s.indexOf("\r") === -1) return s;
  return s.replace(/[\t\n\r]/g, "");
}

// "//example.com/x" is a protocol-relative reference: it names a host, so it gets the default
// scheme like "example.com/x" does. A backslash counts as "/" here, as it does ahead of the path of a
// special URL (WHATWG §4.4) and in classify(). One slash is a rooted path, three or more an empty
// authority: neither names a host (classify: `relative`, and `protocol-relative` with host "").
function withDefaultScheme(s: string, raw: string, scheme: "http" | "https"): string {
  let i = 0;
  while (i < s.length && (s.charCodeAt(i) === 0x2f || s.charCodeAt(i) === 0x5c)) i++;
  const first = s.charCodeAt(i);
  let reason: string | undefined;
  const ends = i === s.length || first === 0x3f || first === 0x23;
  if (i === 1) reason = "no host: a rooted path is a relative reference, not a URL";
  else if (i > 2 || (i === 2 && ends)) reason = 'no host: the authority after "//" is empty';
  else if (ends) reason = "no host: a bare query or fragment is a relative reference, not a URL";
  if (reason !== undefined)
    throw new UrlError("invalid-url", `invalid URL ${JSON.stringify(raw)}: ${reason}`, { url: raw });
  return `${scheme}://${i === 0 ? s : s.slice(i)}`;
}
