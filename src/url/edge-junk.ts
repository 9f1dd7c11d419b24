/**
 * Whether parseInput trims the code unit `c` off either end of an input: what WHATWG URL §4.4's
 * basic URL parser trims (C0 controls and space), and the Unicode white space of String#trim that
 * a paste from a document or an email carries (NBSP, U+2028, BOM, the ideographic space). The
 * parser alone would percent-encode the latter, so a lane that reads the raw text must leave an
 * input that ends in one to the parse.
 *
 * @example
 * ```ts
 * isEdgeJunk(0x20);   // true
 * isEdgeJunk(0x00a0); // true (NBSP)
 * isEdgeJunk(0x00e9); // false
 * ```
 */
export function isEdgeJunk(c: number): boolean {
  return c <= 0x20 || (c >= 0x7f && WHITESPACE.test(String.fromCharCode(c)));
}

const WHITESPACE = /\s/;
