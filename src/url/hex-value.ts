/**
 * The value of one hexadecimal digit's code unit, or -1 when it is not one (RFC 3986 §2.1 HEXDIG,
 * either case).
 *
 * @example
 * ```ts
 * hexValue("f".charCodeAt(0)); // 15
 * ```
 */
export function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x57;
  return -1;
}
