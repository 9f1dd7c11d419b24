import { ownCopy } from "./own-copy.js";

/**
 * The host of an http(s) URL as the WHATWG parser serializes it (the `hostname` getter), for the
 * text of an authority's host: a parse of the host alone, remembered. `undefined` when the parser
 * would fail on it, or for a text this does not take (longer than 255 characters, or holding a
 * character that would end or split an authority: `/ ? # \ @ :` outside brackets, blanks and
 * controls, which the parser removes or trims first).
 *
 * A special URL's host is read on its own (WHATWG host parser: IDNA, IPv4 in any of its forms,
 * IPv6), so a text's answer does not depend on the link it came from, and a stream of links
 * comes back to the same hosts: the links on hosts the plain-domain check refuses (IDN, `xn--`,
 * IP addresses, a trailing dot: two fifths of the seeded corpus) are read on their text with one
 * map probe for the host instead of a parse of the whole link. At most 1,024 texts are kept; past
 * that the memo starts over, so a stream of new hosts costs one host parse each and no memory.
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
  const known = memo.get(text);
  if (known !== undefined) return known === null ? undefined : known;
  if (text.length === 0 || text.length > MAX_HOST_TEXT || !HOST_TEXT.test(text)) return undefined;
  let host: string | null = null;
  try {
    host = new URL(`http://${text}/`).hostname || null;
  } catch {}
  if (memo.size >= MAX_HOSTS) memo.clear();
  memo.set(ownCopy(text), host);
  return host === null ? undefined : host;
}

// A name of 253 characters in Unicode is shorter still: a longer text is no host worth keeping.
const MAX_HOST_TEXT = 255;
const MAX_HOSTS = 1024;
const memo = new Map<string, string | null>();
// A bracketed IPv6 literal, or a text with no character that would end or split the authority.
// biome-ignore lint/suspicious/noControlCharactersInRegex: controls are what it refuses
const HOST_TEXT = /^(?:\[[0-9A-Fa-f:.]+\]|[^/?#\\@:[\]\u0000-\u0020]+)$/;
