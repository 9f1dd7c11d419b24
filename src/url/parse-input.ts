import { UrlError } from "../errors/url-error.js";
import { schemeTokenLength } from "./scheme-token.js";

/** The result of {@link parseInput}: the WHATWG-parsed URL and the string it was parsed from. */
export interface ParsedInput {
  url: URL;
  /** The trimmed input with the default scheme prepended where it had none. */
  text: string;
}

// WHATWG URL §4.4 trims C0 controls and space itself; String#trim also drops the Unicode white
// space a paste from a document or an email carries (NBSP, line separators).
/**
 * Trims `raw`, gives it `defaultScheme` when it has no `scheme:` token, parses it with the WHATWG
 * URL parser and accepts only http and https.
 *
 * Throws `UrlError` `invalid-url` when it does not parse, `unsupported-scheme` for any other scheme.
 *
 * @example
 * ```ts
 * parseInput(" Example.com/a ", "http").url.href; // "http://example.com/a"
 * ```
 */
export function parseInput(raw: string, defaultScheme: "http" | "https"): ParsedInput {
  const trimmed = raw.trim();
  if (trimmed === "") throw new UrlError("invalid-url", "invalid URL: empty input", { url: raw });
  const text =
    schemeTokenLength(trimmed) === 0 ? `${defaultScheme}://${stripLeadingSlashes(trimmed)}` : trimmed;
  let url: URL;
  try {
    url = new URL(text);
  } catch (cause) {
    throw new UrlError("invalid-url", `invalid URL: ${JSON.stringify(raw)}`, { url: raw, cause });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
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
  return { url, text };
}

// "//example.com/x" is a protocol-relative reference: it names a host, so it gets the default
// scheme like "example.com/x" does.
function stripLeadingSlashes(s: string): string {
  let i = 0;
  while (i < s.length && (s.charCodeAt(i) === 0x2f || s.charCodeAt(i) === 0x5c)) i++;
  return i === 0 ? s : s.slice(i);
}
