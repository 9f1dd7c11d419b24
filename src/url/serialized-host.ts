/**
 * Where the host of `input` ends when `input` begins as the WHATWG URL serializer spells an
 * http(s) URL with a plain domain, so that `new URL(input)` would give the same scheme and host
 * text back: `http://` or `https://` in lowercase, then a host of lowercase ASCII letters, digits,
 * `-` and `.`, ended by `/`, `?`, `#` or the end of the input. Returns -1 for anything else: then
 * the caller parses.
 *
 * What it refuses, and why each would not survive a parse unchanged:
 * - any other byte in the host: uppercase (lowercased), `@` (userinfo), `:` (a port, a default one
 *   dropped), `%` and non-ASCII (IDNA maps them), `\` (read as `/`), blanks and controls (trimmed
 *   or removed);
 * - an empty label, or a last label that starts with a digit: the host would be read as an IPv4
 *   address (WHATWG "ends in a number": `1.2`, `0x7f.1`) and reserialized;
 * - an `xn--` label: UTS #46 decodes and checks it (an invalid one fails the parse);
 * - a trailing dot: kept by the parser, but stripped by the identity preset: the whole pipeline
 *   handles it.
 *
 * The host is all it checks: the path, the query and the fragment are the caller's to scan (the
 * canonical fast path refuses every character the parser would encode there). A host that ends
 * the input or is followed by `?` or `#` has the empty path the parser spells `/`.
 * tests/properties/serialized-host.property.test.ts checks every accepted input against the
 * parser on hostile strings.
 *
 * @example
 * ```ts
 * serializedHostEnd("https://example.com/a?b"); // 19
 * serializedHostEnd("https://Example.com/a");   // -1 (the parser lowercases the host)
 * serializedHostEnd("http://127.0.0.1/");       // -1 (an IPv4 address)
 * ```
 */
export function serializedHostEnd(input: string): number {
  // One native search: a JavaScript loop over the host cost ~150 ns per golden-corpus link here,
  // the sticky regex ~50. Linear: labels are split by dots that [a-z0-9-] never matches.
  SERIALIZED_HOST.lastIndex = 0;
  if (!SERIALIZED_HOST.test(input)) return -1;
  const end = SERIALIZED_HOST.lastIndex;
  // A label "xn--…" anywhere in the host (a false alarm inside a label only costs the parse).
  const puny = input.indexOf("xn--", 7);
  return puny !== -1 && puny < end ? -1 : end;
}

// Scheme, then labels of [a-z0-9-] separated by single dots, the last one starting with a letter
// (a digit there would read as an IPv4 address), then the path, query, fragment or the end.
const SERIALIZED_HOST = /https?:\/\/(?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*(?=[/?#]|$)/y;
