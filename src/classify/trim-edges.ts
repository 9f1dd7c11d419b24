/**
 * Whether a UTF-16 code unit is trimmed from the edges of an input: every C0 control and space
 * (the WHATWG basic URL parser's edge rule) plus the 25 Unicode White_Space code points, which
 * urlform trims too so that an NBSP-wrapped link still classifies (over-trimming errs fail-safe).
 * Every White_Space code point is in the BMP, so code units suffice.
 *
 * @example
 * ```ts
 * isEdgeSpace(0xa0); // true (NO-BREAK SPACE)
 * isEdgeSpace(0xfeff); // false (BOM is not White_Space)
 * ```
 */
export function isEdgeSpace(c: number): boolean {
  if (c <= 0x20) return true;
  if (c < 0x85) return false;
  // Unicode White_Space above U+0020: U+0085, U+00A0, U+1680, U+2000..U+200A, U+2028, U+2029,
  // U+202F, U+205F, U+3000 (unchanged from Unicode 15 through 17).
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/**
 * Removes leading and trailing edge space (see {@link isEdgeSpace}); interior characters are never
 * touched here.
 *
 * @example
 * ```ts
 * trimEdges("\u00a0 https://a.test/\u0000"); // "https://a.test/"
 * ```
 */
export function trimEdges(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isEdgeSpace(s.charCodeAt(start))) start++;
  while (end > start && isEdgeSpace(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}
