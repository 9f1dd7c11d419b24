import { hexValue } from "../url/hex-value.js";

// net/url's unescape(), reduced to what classification needs: which escapes each URL part accepts
// (an invalid one makes url.Parse fail, so the string is malformed) and the decoded host. Go works
// on bytes; a JS string's code units >= 0x80 stand for the UTF-8 bytes of non-ASCII characters,
// which every check below treats alike.

/**
 * ASCII code units net/url's shouldEscape(c, encodeHost) lets through unescaped, as 1: letters,
 * digits and `!$&'()*+,;=:[]<>"-_.~` (`\w` is ASCII letters, digits and `_` without the u flag;
 * a class is shorter in the classify bundle than the spelled-out alphabet).
 */
const HOST_ASCII: Uint8Array = /* @__PURE__ */ (() => {
  const table = new Uint8Array(128);
  for (let c = 0; c < 128; c++) table[c] = /[\w!$&'()*+,;=:[\]<>"\-.~]/.test(String.fromCharCode(c)) ? 1 : 0;
  return table;
})();

/**
 * Whether ASCII code unit `c` may appear literally in a host (or IPv6 zone) for net/url.
 *
 * @example
 * ```ts
 * isHostAscii(0x2d); // true ("-")
 * isHostAscii(0x20); // false (space)
 * ```
 */
export function isHostAscii(c: number): boolean {
  return HOST_ASCII[c] === 1;
}

/**
 * Whether every `%` in `s[from, to)` starts a `%XX` hex escape, the only check net/url makes on a
 * path, a fragment and userinfo (encodePath, encodeFragment, encodeUserPassword).
 *
 * @example
 * ```ts
 * hasValidEscapes("/a%2Fb", 0, 6); // true
 * hasValidEscapes("/a%zz", 0, 5); // false
 * ```
 */
export function hasValidEscapes(s: string, from: number, to: number): boolean {
  let p = s.indexOf("%", from);
  while (p !== -1 && p < to) {
    if (p + 2 >= to || hexValue(s.charCodeAt(p + 1)) < 0 || hexValue(s.charCodeAt(p + 2)) < 0) return false;
    p = s.indexOf("%", p + 3);
  }
  return true;
}

/**
 * net/url's unescape(s, encodeHost) over `s[from, to)`: an ASCII code unit outside the host set,
 * or an escape of an ASCII byte other than `%25` (RFC 3986 §3.2.2 lets a host escape only
 * non-ASCII bytes; RFC 6874 adds `%25`), rejects it (null); otherwise the decoded host.
 *
 * @example
 * ```ts
 * unescapeHost("ex%C3%A9.test", 0, 13); // "exé.test"
 * unescapeHost("%41.test", 0, 8); // null
 * ```
 */
export function unescapeHost(s: string, from: number, to: number): string | null {
  let escapes = false;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25) {
      if (i + 2 >= to) return null;
      const hi = hexValue(s.charCodeAt(i + 1));
      const lo = hexValue(s.charCodeAt(i + 2));
      if (hi < 0 || lo < 0) return null;
      if (hi < 8 && !(hi === 2 && lo === 5)) return null;
      escapes = true;
      i += 2;
    } else if (c < 0x80 && HOST_ASCII[c] !== 1) {
      return null;
    }
  }
  return escapes ? decodeEscapes(s, from, to) : s.slice(from, to);
}

/**
 * net/url's unescape(s, encodeZone) over `s[from, to)` (an IPv6 zone, starting at its `%25`):
 * literal ASCII must be host-legal, and an escape must decode to `%`, a space, or a host-legal
 * ASCII byte. Returns the decoded zone including its leading `%`, or null.
 *
 * @example
 * ```ts
 * unescapeZone("%25en0", 0, 6); // "%en0"
 * ```
 */
export function unescapeZone(s: string, from: number, to: number): string | null {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25) {
      if (i + 2 >= to) return null;
      const hi = hexValue(s.charCodeAt(i + 1));
      const lo = hexValue(s.charCodeAt(i + 2));
      if (hi < 0 || lo < 0) return null;
      const v = (hi << 4) | lo;
      if (v !== 0x25 && v !== 0x20 && (v >= 0x80 || HOST_ASCII[v] !== 1)) return null;
      i += 2;
    } else if (c < 0x80 && HOST_ASCII[c] !== 1) {
      return null;
    }
  }
  return decodeEscapes(s, from, to);
}

// WHATWG Encoding §9.1.1 UTF-8 decoder, replacement mode (one U+FFFD per maximal invalid subpart),
// as every browser, worker runtime and Node ships it. `ignoreBOM`: a leading EF BB BF is a host's
// bytes like any other, not a byte-order mark to drop. (A hand-written decoder stood here; it gave
// the same string for every byte sequence of up to 5 bytes from the boundary values and 200,000
// random ones, and cost the core bundle ~0.2 KB gzip.)
const UTF8 = /* @__PURE__ */ new TextDecoder("utf-8", { ignoreBOM: true });

// Decodes validated %XX escapes. Runs of escapes are UTF-8 bytes; a literal character is always a
// whole code point, so decoding each run on its own equals decoding the whole byte string. Go keeps
// an invalid UTF-8 byte as it is; a JS string cannot, so it becomes U+FFFD (still non-ASCII, so
// isAsciiHost still fails closed).
function decodeEscapes(s: string, from: number, to: number): string {
  let out = "";
  let i = from;
  while (i < to) {
    if (s.charCodeAt(i) !== 0x25) {
      let j = i + 1;
      while (j < to && s.charCodeAt(j) !== 0x25) j++;
      out += s.slice(i, j);
      i = j;
      continue;
    }
    const bytes: number[] = [];
    while (i < to && s.charCodeAt(i) === 0x25) {
      bytes.push((hexValue(s.charCodeAt(i + 1)) << 4) | hexValue(s.charCodeAt(i + 2)));
      i += 3;
    }
    out += UTF8.decode(Uint8Array.from(bytes));
  }
  return out;
}
