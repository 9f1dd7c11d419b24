// Byte-level percent-decoding and -encoding the way the Internet Archive's key maker does it
// (surt's GoogleURLCanonicalizer: unescapeRepeatedly, escapeOnce, minimalEscape). Archive keys
// are made of bytes: a string is read as its UTF-8 bytes first, so "ü" and "%C3%BC" meet.

const encoder = new TextEncoder();
const HEX_CODES = new TextEncoder().encode("0123456789ABCDEF");
const ascii = new TextDecoder();
const utf8Strict = new TextDecoder("utf-8", { fatal: true });
// escapeOnce's output buffer, grown when a longer input comes (one thread, no reentry).
// Past MAX_SCRATCH a one-off buffer is used, so one hostile input does not stay in memory.
const MAX_SCRATCH = 65536;
let scratch = new Uint8Array(1024);

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10;
  return -1;
}

/** True when `text` is printable ASCII other than `#` and `%`: decoding and escaping are no-ops. */
function isPlain(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f || c === 0x23 || c === 0x25) return false;
  }
  return true;
}

/**
 * Decodes `%XX` until none is left (`%252525` → `%`), on bytes, in one pass: a decoded byte can
 * only complete a new `%XX` that ends at it, so the reduction runs on the output like a stack.
 * Decoding `%XX` anywhere never overlaps another `%XX`, so this reaches the same fixpoint as
 * surt's loop of whole-string unquotes, in linear time instead of quadratic (a `%2525…25` of 1 MB
 * takes 500,000 rounds there).
 *
 * @example
 * ```ts
 * unescapeRepeatedly(new TextEncoder().encode("%25%32%35")); // Uint8Array [0x25]
 * ```
 */
export function unescapeRepeatedly(input: Uint8Array): Uint8Array {
  return unescapeInto(new Uint8Array(input.length), input);
}

// The reduction of unescapeRepeatedly, writing into `out` (as long as the input); `input` may be
// `out` itself, as the output never overtakes the input.
function unescapeInto(out: Uint8Array, input: Uint8Array): Uint8Array {
  let n = 0;
  for (let i = 0; i < input.length; i++) {
    out[n++] = input[i] as number;
    while (n >= 3 && out[n - 3] === 0x25) {
      const hi = hexValue(out[n - 2] as number);
      const lo = hexValue(out[n - 1] as number);
      if (hi < 0 || lo < 0) break;
      n -= 3;
      out[n++] = hi * 16 + lo;
    }
  }
  return out.subarray(0, n);
}

/**
 * Percent-encodes every byte outside printable ASCII, and `#` and `%` (surt's escapeOnce: Python's
 * `quote` with every other printable character safe), with uppercase hex.
 *
 * @example
 * ```ts
 * escapeOnce(new Uint8Array([0x61, 0x20, 0x25])); // "a%20%25"
 * ```
 */
export function escapeOnce(bytes: Uint8Array): string {
  // The escaped text is ASCII: built as bytes in a reused buffer and decoded once (a string built
  // piece by piece, or String.fromCharCode over spread runs, cost several times more on short keys).
  const size = bytes.length * 3;
  if (scratch.length < size && size <= MAX_SCRATCH) scratch = new Uint8Array(size);
  const out = scratch.length >= size ? scratch : new Uint8Array(size);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b <= 0x20 || b >= 0x7f || b === 0x23 || b === 0x25) {
      out[n++] = 0x25;
      out[n++] = HEX_CODES[b >> 4] as number;
      out[n++] = HEX_CODES[b & 15] as number;
    } else out[n++] = b;
  }
  return ascii.decode(out.subarray(0, n));
}

/**
 * surt's minimalEscape on a string: its UTF-8 bytes decoded repeatedly, then escaped once. Plain
 * text (printable ASCII without `%` or `#`) comes back as it is without any byte work.
 *
 * @example
 * ```ts
 * minimalEscape("a%2520b%3A"); // "a%20b:"
 * ```
 */
export function minimalEscape(text: string): string {
  // Plain text comes back from the one-pass path as it is, without a copy.
  const quick = minimalEscapeAscii(text);
  if (quick !== undefined) return quick;
  const bytes = utf8(text);
  return escapeOnce(unescapeInto(bytes, bytes));
}

function needsEscape(b: number): boolean {
  return b <= 0x20 || b >= 0x7f || b === 0x23 || b === 0x25;
}

function isHexDigit(c: number): boolean {
  return hexValue(c) >= 0;
}

/**
 * minimalEscape of ASCII text in one pass over the string, for the common case where decoding
 * cannot cascade: every `%XX` decodes to a byte that is neither `%` nor a hex digit, so no decoded
 * byte can start or complete another `%XX` and one left-to-right decode reaches the fixpoint.
 * Returns `undefined` (the byte-level path decides) for non-ASCII text or a cascading escape.
 * Text that is already minimal (a normalized URL's `%C3%A9`, `%20`) comes back without a copy.
 */
function minimalEscapeAscii(text: string): string | undefined {
  let out = "";
  let copied = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) return undefined;
    let replacement: string;
    if (
      c === 0x25 &&
      i + 2 < text.length &&
      isHexDigit(text.charCodeAt(i + 1)) &&
      isHexDigit(text.charCodeAt(i + 2))
    ) {
      const h1 = text.charCodeAt(i + 1);
      const h2 = text.charCodeAt(i + 2);
      const b = hexValue(h1) * 16 + hexValue(h2);
      if (b === 0x25 || isHexDigit(b)) return undefined;
      if (needsEscape(b)) {
        // Already escaped: unchanged when its hex digits are uppercase.
        if (h1 === (HEX_CODES[b >> 4] as number) && h2 === (HEX_CODES[b & 15] as number)) {
          i += 2;
          continue;
        }
        replacement = `%${String.fromCharCode(HEX_CODES[b >> 4] as number, HEX_CODES[b & 15] as number)}`;
      } else replacement = String.fromCharCode(b);
      out += text.slice(copied, i) + replacement;
      i += 2;
      copied = i + 1;
    } else if (needsEscape(c)) {
      out += `${text.slice(copied, i)}%${String.fromCharCode(HEX_CODES[c >> 4] as number, HEX_CODES[c & 15] as number)}`;
      copied = i + 1;
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}

// ASCII text (most of what reaches here: escapes, not raw UTF-8) is its own bytes; copying them
// costs less than a TextEncoder call on keys this short.
function utf8(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) return encoder.encode(text);
    bytes[i] = c;
  }
  return bytes;
}

/**
 * The bytes of `text` decoded repeatedly, as UTF-8 text when they are UTF-8 and as Latin-1
 * otherwise (the caller escapes them again, so nothing is lost either way).
 *
 * @example
 * ```ts
 * unescapeToText("B%C3%BCcher"); // "Bücher"
 * ```
 */
export function unescapeToText(text: string): string {
  if (isPlain(text)) return text;
  const raw = utf8(text);
  const bytes = unescapeInto(raw, raw);
  try {
    return utf8Strict.decode(bytes);
  } catch {
    return escapeOnce(bytes);
  }
}
