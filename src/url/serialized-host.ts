import { ownCopy } from "./own-copy.js";
import { parsedHost } from "./parsed-host.js";
import type { UrlParts } from "./url-parts.js";

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
  // A label "xn--…" anywhere in the host (a false alarm inside a label only costs the parse),
  // searched back from the host's end: a forward search ran over the whole link when there was
  // none (5.7% of the text lane's samples on the golden corpus, --cpu-prof).
  return input.lastIndexOf("xn--", end - 4) >= 7 ? -1 : end;
}

// Scheme, then labels of [a-z0-9-] separated by single dots, the last one starting with a letter
// (a digit there would read as an IPv4 address), then the path, query, fragment or the end.
const SERIALIZED_HOST = /https?:\/\/(?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*(?=[/?#]|$)/y;

/** What {@link serializedAuthority} reads: the authority as the parser spells it, and where it ends. */
export interface SerializedAuthority {
  /** The scheme and authority as the input spells them (the text the answer is for). */
  readonly text: string;
  /** The scheme and authority as the WHATWG serializer spells them: `https://example.com:8080`. */
  readonly prefix: string;
  /** The host as the `hostname` getter gives it: one string per authority text, hashed once. */
  readonly hostname: string;
  /** Where the authority ends in the input. */
  readonly end: number;
  /** Whether the input spells its scheme and authority as `prefix` already. */
  readonly serialized: boolean;
  /**
   * A caller's one-entry cache of what it derives from the host under one options object (the
   * pipeline keeps its host facts here): the record is shared by every link of the authority.
   */
  cache: { key: object; value: unknown } | undefined;
}

/**
 * For a text {@link serializedHostEnd} refuses: its scheme and authority as the parser would
 * spell them. The scheme is lowercased, a default port (80 for http, 443 for https, leading zeros
 * allowed) is dropped and another one written without its leading zeros. A plain ASCII domain is
 * lowercased here (the parser does no more to one); any other host (IDN, `xn--`, an IP address in
 * any form, escapes, a trailing dot) is the parser's own answer for the host text
 * ({@link parsedHost}). `undefined` for userinfo, a backslash, blanks or controls in the
 * authority, an empty host, a port that is empty or over 65535, or a host the parser refuses: then
 * the caller parses. People type `HTTP://Example.com:80/` and the seeded corpus spells a third of
 * its links so, and two fifths on hosts other than plain domains: read off the text, they need no
 * parse.
 *
 * The answer depends on the scheme's and authority's text alone, and a stream of links comes back
 * to the same few: it is remembered per text (1,024 texts of up to 256 characters, then the memo
 * starts over), and the answer is a record shared by every link of the authority (its host name
 * string among them, hashed once for every probe of the host). In front of the memo, a
 * direct-mapped table ({@link authoritySlot}) holds the last record found per slot, checked on the
 * link's own characters: most links pay no regex, no slice and no map probe.
 *
 * @example
 * ```ts
 * serializedAuthority("HTTPS://Example.COM:443/a")?.prefix; // "https://example.com"
 * serializedAuthority("http://a.test:08080/")?.prefix;       // "http://a.test:8080"
 * serializedAuthority("http://a.test:65536/");               // undefined
 * serializedAuthority("https://Bücher.example/")?.hostname;  // "xn--bcher-kva.example"
 * ```
 */
export function serializedAuthority(input: string): SerializedAuthority | undefined {
  // Most links have a path: the authority ends at the first "/" after the scheme's. That guess
  // (a "?" or "#" may come first) picks a slot, whose text is checked on the link's characters:
  // a record's text is a whole AUTHORITY match, with no "/", "?" or "#" in it, so a link that
  // starts with it and has "/" next has it as its authority. No regex, no string cut, hashed or
  // compared by the map (see authoritySlot). Links without a "/" there take the regex's end.
  const guess = input.indexOf("/", input.charCodeAt(4) === 0x3a ? 7 : 8);
  if (guess !== -1 && guess <= MAX_AUTHORITY_TEXT) {
    const seen = slots[authoritySlot(input, guess)];
    if (seen !== undefined && seen.text.length === guess && input.indexOf(seen.text) === 0) return seen;
  }
  AUTHORITY.lastIndex = 0;
  if (!AUTHORITY.test(input)) return undefined;
  const end = AUTHORITY.lastIndex;
  if (end > MAX_AUTHORITY_TEXT) return readAuthority(end === input.length ? input : input.slice(0, end));
  const slot = authoritySlot(input, end);
  // Where the guess was the end, this slot was checked above (and missed): not again.
  const seen = end === guess ? undefined : slots[slot];
  if (seen !== undefined && seen.text.length === end && input.indexOf(seen.text) === 0) return seen;
  const text = end === input.length ? input : input.slice(0, end);
  let known = authorities.get(text);
  if (known === undefined) {
    // A text of its own, read into strings of its own: one sliced off the link, or slices of it
    // (the host name), would keep the whole link alive as long as the memo holds them.
    const key = ownCopy(text);
    known = readAuthority(key) ?? null;
    if (authorities.size >= MAX_AUTHORITIES) authorities.clear();
    authorities.set(key, known);
  }
  if (known === null) return undefined;
  slots[slot] = known;
  return known;
}

/**
 * The slot of an authority text (`input` up to `end`, 7 to 256 characters) in serializedAuthority's
 * direct-mapped table of 1,024 records. Two texts may share a slot: the slot only names a record
 * whose text the link is then checked against (length, then `indexOf(text) === 0`).
 *
 * Why a table before the map: `authorities.get(input.slice(0, end))` hashes and compares a new
 * string on every link. serializedAuthority took 121 → 73 ns a call on the golden corpus's links
 * and 132 → 79 on the seeded corpus's (one interleaved micro run, CPU time, bare parse 290 and 570
 * ns). The check is `indexOf`, not `lastIndexOf(text, 0)` or `startsWith`, which cost ~15 and ~45
 * ns more a call here. A miss in the check (another text in the slot) costs an `indexOf` over the
 * link: linear, like the scan that follows.
 *
 * @example
 * ```ts
 * authoritySlot("https://example.com/a", 19); // an integer in [0, 1024)
 * ```
 */
export function authoritySlot(input: string, end: number): number {
  // Four multiply-xor rounds over the length and eight characters (the scheme's case too: the
  // seeded corpus spells one authority as "https", "HTTPS" and "Http"); on the golden and seeded
  // corpora's authorities it fills as many slots as a random function would, to within 3%.
  let h = Math.imul(
    end ^ (input.charCodeAt(0) << 8) ^ (input.charCodeAt(1) << 16) ^ input.charCodeAt(end - 1),
    0x9e3779b1,
  );
  h = Math.imul(h ^ input.charCodeAt(end - 3) ^ (input.charCodeAt(end > 9 ? 8 : 6) << 8), 0x85ebca6b);
  h = Math.imul(h ^ input.charCodeAt(end - 5), 0xc2b2ae35);
  h = Math.imul(h ^ input.charCodeAt(end >> 1) ^ (input.charCodeAt((end + 6) >> 1) << 8), 0x27d4eb2f);
  return h >>> 22;
}

// The scheme and the authority's text (to the first "/", "?", "#" or the end), in any case.
const AUTHORITY = /[Hh][Tt][Tt][Pp][Ss]?:\/\/[^/?#]*/y;
const MAX_AUTHORITY_TEXT = 256;
const MAX_AUTHORITIES = 1024;
const authorities = new Map<string, SerializedAuthority | null>();
// The last record found in each slot (authoritySlot: 2^10 slots, the top ten bits of its hash).
// Bounded like the map: 1,024 records of texts up to 256 characters, which may outlive a clear of
// the map. A refused text (null) is not kept: its link is parsed, which costs far more.
const slots: (SerializedAuthority | undefined)[] = new Array(1024).fill(undefined);

// serializedAuthority's answer for `text`, a scheme and an authority and nothing else.
function readAuthority(text: string): SerializedAuthority | undefined {
  const secure = text.charCodeAt(4) !== 0x3a;
  const hostStart = secure ? 8 : 7;
  const end = text.length;
  if (end === hostStart) return undefined;
  // A port follows the last ":" after an IPv6 literal's "]".
  let colon = text.lastIndexOf(":");
  if (colon < hostStart || colon < text.lastIndexOf("]")) colon = end;
  else if (!PORT.test(text.slice(colon + 1))) return undefined;
  const host = text.slice(hostStart, colon);
  // A plain ASCII domain (serializedHostEnd's terms) is only lowercased; the parser reads the rest.
  const hostname = PLAIN_DOMAIN.test(host) && !/xn--/i.test(host) ? host.toLowerCase() : parsedHost(host);
  if (hostname === undefined) return undefined;
  let port = "";
  if (colon < end) {
    const n = Number(text.slice(colon + 1));
    if (n > 65535) return undefined;
    if (n !== (secure ? 443 : 80)) port = `:${n}`;
  }
  const prefix = `${secure ? "https://" : "http://"}${hostname}${port}`;
  return { text, prefix, hostname, end, serialized: prefix === text, cache: undefined };
}

// serializedHostEnd's host in any case: labels of letters, digits and "-", the last one starting
// with a letter (a digit there reads as an IPv4 address), no trailing dot.
const PLAIN_DOMAIN = /^(?:[A-Za-z0-9-]+\.)*[A-Za-z][A-Za-z0-9-]*$/;
const PORT = /^[0-9]{1,5}$/;

/** What the `URL` getters would return for a text {@link serializedUrl} accepts. */
export interface SerializedUrl extends UrlParts {
  href: string;
}

/**
 * The parts of `input` as `new URL(input)` would give them, read off the text, when the parser
 * would leave the text as it is: {@link serializedHostEnd} accepts its scheme and host, and the
 * path, query and fragment hold only characters the parser copies (RFC 3986 pchar, `%`, and `?` in
 * the query and fragment; no `'` in the query, which a special URL's query encodes), with no
 * segment that starts with `.` or `%2e` (a dot segment the parser would resolve). `undefined`
 * otherwise: then the caller parses. Escapes are the caller's to normalize, as after a parse.
 *
 * `hostEnd` and `hostname` may be given by a caller that has run serializedHostEnd already (the
 * same string then serves every lookup of the host). The pipeline reads a link a rule claims from
 * it without the parse and without a getter call per part; tests/properties/serialized-host.property.test.ts compares every field with the parser's.
 *
 * @example
 * ```ts
 * serializedUrl("https://youtu.be/abc?si=x")?.pathname; // "/abc"
 * serializedUrl("https://youtu.be/a b"); // undefined (the parser encodes the space)
 * ```
 */
export function serializedUrl(
  input: string,
  hostEnd: number = serializedHostEnd(input),
  hostname?: string,
): SerializedUrl | undefined {
  if (hostEnd === -1) return undefined;
  PATH_RUN.lastIndex = hostEnd;
  PATH_RUN.test(input);
  const pathEnd = PATH_RUN.lastIndex;
  let queryEnd = pathEnd;
  let search = "";
  if (input.charCodeAt(pathEnd) === 0x3f) {
    QUERY_RUN.lastIndex = pathEnd + 1;
    QUERY_RUN.test(input);
    queryEnd = QUERY_RUN.lastIndex;
    if (queryEnd > pathEnd + 1) search = input.slice(pathEnd, queryEnd);
  }
  let hash = "";
  if (queryEnd < input.length) {
    if (input.charCodeAt(queryEnd) !== 0x23) return undefined;
    FRAGMENT_RUN.lastIndex = queryEnd + 1;
    FRAGMENT_RUN.test(input);
    if (FRAGMENT_RUN.lastIndex !== input.length) return undefined;
    if (input.length > queryEnd + 1) hash = input.slice(queryEnd);
  }
  const pathname = pathEnd === hostEnd ? "/" : input.slice(hostEnd, pathEnd);
  DOT_SEGMENT_START.lastIndex = 0;
  if (DOT_SEGMENT_START.test(pathname)) return undefined;
  const start = input.charCodeAt(4) === 0x3a ? 7 : 8;
  return {
    href: pathEnd === hostEnd ? `${input.slice(0, hostEnd)}/${input.slice(hostEnd)}` : input,
    protocol: start === 7 ? "http:" : "https:",
    username: "",
    password: "",
    hostname: hostname ?? input.slice(start, hostEnd),
    port: "",
    pathname,
    search,
    hash,
  };
}

// Runs of the characters the parser copies as they are, in each component of a special URL (WHATWG
// path, special-query and fragment percent-encode sets, less every other character, to be safe).
const PATH_RUN = /[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*/y;
const QUERY_RUN = /[A-Za-z0-9\-._~!$&()*+,;=:@/%?]*/y;
const FRAGMENT_RUN = /[A-Za-z0-9\-._~!$&'()*+,;=:@/%?]*/y;
// A segment the parser may read as "." or "..": conservative, any segment starting so.
const DOT_SEGMENT_START = /\/(?:\.|%2e)/gi;
