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
  /** The scheme and authority as the WHATWG serializer spells them: `https://example.com:8080`. */
  prefix: string;
  /** The host as the `hostname` getter gives it. */
  hostname: string;
  /** Where the authority ends in the input. */
  end: number;
}

/**
 * For a text {@link serializedHostEnd} refuses: its scheme and authority as the parser would
 * spell them. The scheme is lowercased, a default port (80 for http, 443 for https, leading zeros
 * allowed) is dropped and another one written without its leading zeros. A plain ASCII domain is
 * lowercased here (the parser does no more to one); any other host (IDN, `xn--`, an IP address in
 * any form, escapes, a trailing dot) is the parser's own answer for the host text, remembered per
 * text ({@link parsedHost}). `undefined` for userinfo, a backslash, blanks or controls in the
 * authority, an empty host, a port that is empty or over 65535, or a host the parser refuses: then
 * the caller parses. People type `HTTP://Example.com:80/` and the seeded corpus spells a third of
 * its links so, and two fifths on hosts other than plain domains: read off the text, with one map
 * probe for such a host, they need no parse.
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
  // A test and offsets, not exec(): the match array and its three captures cost more than the
  // parse they spare on short links.
  NEAR_AUTHORITY.lastIndex = 0;
  if (!NEAR_AUTHORITY.test(input)) return otherAuthority(input);
  const end = NEAR_AUTHORITY.lastIndex;
  const secure = input.charCodeAt(4) !== 0x3a;
  const hostStart = secure ? 8 : 7;
  let colon = input.indexOf(":", hostStart);
  if (colon === -1 || colon > end) colon = end;
  const host = input.slice(hostStart, colon);
  const hostname = UPPER.test(host) ? host.toLowerCase() : host;
  if (hostname.includes("xn--")) return otherAuthority(input);
  return authority(secure, hostname, input, colon, end);
}

// The scheme, host and port as the parser writes them; undefined for a port over 65535.
function authority(
  secure: boolean,
  hostname: string,
  input: string,
  colon: number,
  end: number,
): SerializedAuthority | undefined {
  let port = "";
  if (colon < end) {
    const n = Number(input.slice(colon + 1, end));
    if (n > 65535) return undefined;
    if (n !== (secure ? 443 : 80)) port = `:${n}`;
  }
  return { prefix: `${secure ? "https://" : "http://"}${hostname}${port}`, hostname, end };
}

// Any other host after a scheme "http://" or "https://" in any case (IDN, "xn--", an IP address,
// escapes, a trailing dot): the parser's own answer for the host text, remembered (parsedHost),
// with an optional port of digits. Userinfo, a backslash, blanks and controls, an empty host or
// port are refused: there the parser reads more than the host.
function otherAuthority(input: string): SerializedAuthority | undefined {
  SCHEME.lastIndex = 0;
  if (!SCHEME.test(input)) return undefined;
  const hostStart = SCHEME.lastIndex;
  AUTHORITY_RUN.lastIndex = hostStart;
  AUTHORITY_RUN.test(input);
  const end = AUTHORITY_RUN.lastIndex;
  if (end === hostStart) return undefined;
  // A port follows the last ":" after an IPv6 literal's "]"; the host text is checked by parsedHost.
  let colon = input.lastIndexOf(":", end - 1);
  if (colon < hostStart || colon < input.lastIndexOf("]", end - 1)) colon = end;
  else if (!PORT.test(input.slice(colon + 1, end))) return undefined;
  const hostname = parsedHost(input.slice(hostStart, colon));
  if (hostname === undefined) return undefined;
  return authority(hostStart === 8, hostname, input, colon, end);
}

// SERIALIZED_HOST in any case, with a port of up to five digits. Linear for the same reason.
const NEAR_AUTHORITY =
  /[Hh][Tt][Tt][Pp][Ss]?:\/\/(?:[A-Za-z0-9-]+\.)*[A-Za-z][A-Za-z0-9-]*(?::[0-9]{1,5})?(?=[/?#]|$)/y;
const UPPER = /[A-Z]/;
const SCHEME = /[Hh][Tt][Tt][Pp][Ss]?:\/\//y;
const AUTHORITY_RUN = /[^/?#]*/y;
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
