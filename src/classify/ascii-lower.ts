/**
 * Lowercases only A-Z. A full Unicode fold (`toLowerCase`) maps U+0130 to `i̇` and U+212A (KELVIN
 * SIGN) to `k`, which would launder a homograph host into a matchable ASCII domain before any gate
 * sees it; this fold leaves every non-ASCII code unit as it is.
 *
 * @example
 * ```ts
 * asciiLower("EXAMPLE.\u212Aom"); // "example.\u212Aom"
 * ```
 */
export function asciiLower(s: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) {
      if (from < i) out += s.slice(from, i);
      out += String.fromCharCode(c + 0x20);
      from = i + 1;
    }
  }
  if (from === 0) return s;
  return from < s.length ? out + s.slice(from) : out;
}
