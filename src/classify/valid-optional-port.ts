/**
 * net/url's validOptionalPort over `s[from, to)`: empty, or `:` followed by ASCII digits only
 * (any number of them, even none; the range is never checked).
 *
 * @example
 * ```ts
 * isValidOptionalPort("a:65536", 1, 7); // true
 * isValidOptionalPort("a:8x", 1, 4); // false
 * ```
 */
export function isValidOptionalPort(s: string, from: number, to: number): boolean {
  if (from === to) return true;
  if (s.charCodeAt(from) !== 0x3a) return false;
  for (let i = from + 1; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}
