/**
 * The host of an http(s) URL as the WHATWG parser serializes it (the `hostname` getter), for the
 * text of an authority's host, by a parse of the host alone. `undefined` when the parser would fail
 * on it, or for a text this does not take: one holding a character that would end or split an
 * authority (`/ ? # \ @ :` outside brackets) or a blank or control, which the parser removes or
 * trims before it reads a host.
 *
 * A special URL's host is read on its own (WHATWG host parser: IDNA, IPv4 in any of its forms,
 * IPv6), so a text's answer does not depend on the link it came from: serializedAuthority reads
 * links on such hosts (two fifths of the seeded corpus) on their text, remembering its answers.
 *
 * @example
 * ```ts
 * parsedHost("Bücher.example"); // "xn--bcher-kva.example"
 * parsedHost("0x7f.1");         // "127.0.0.1"
 * parsedHost("[::1]");          // "[::1]"
 * parsedHost("a b");            // undefined
 * ```
 */
export function parsedHost(text: string): string | undefined {
  if (!HOST_TEXT.test(text)) return undefined;
  try {
    return new URL(`http://${text}/`).hostname || undefined;
  } catch {
    return undefined;
  }
}

// A bracketed IPv6 literal, or a text with no character that would end or split the authority.
// biome-ignore lint/suspicious/noControlCharactersInRegex: controls are what it refuses
const HOST_TEXT = /^(?:\[[0-9A-Fa-f:.]+\]|[^/?#\\@:[\]\u0000-\u0020]+)$/;
