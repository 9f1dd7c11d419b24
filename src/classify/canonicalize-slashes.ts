import { asciiLower } from "./ascii-lower.js";
import { isSpecialScheme } from "./special-scheme.js";

/**
 * The index of the `:` ending a leading scheme (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`), or
 * -1 when `s` does not start with one.
 *
 * @example
 * ```ts
 * schemeEnd("https://a.test"); // 5
 * schemeEnd("/x:y"); // -1
 * ```
 */
// RFC 3986 §3.1 scheme
export function schemeEnd(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)) continue;
    if (i > 0 && ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e)) continue;
    if (i > 0 && c === 0x3a) return i;
    return -1;
  }
  return -1;
}

/**
 * Rewrites `\` to `/` exactly where a browser reads them alike: for special-scheme and schemeless
 * forms (the address bar's ambient scheme is special), and only ahead of the first `?` or `#`. A
 * non-special scheme's backslashes are ordinary characters; rewriting them would fabricate host
 * evidence no browser sees (`non-special:\\x` is an opaque path). Used for the parse only; the
 * emitted `trimmed` keeps its backslashes.
 *
 * @example
 * ```ts
 * canonicalizeSlashes("http:\\\\a.test\\x?q\\"); // "http://a.test/x?q\\"
 * ```
 */
// WHATWG URL §4.4: in the special-scheme states, U+005C (\) is treated as U+002F (/)
export function canonicalizeSlashes(s: string): string {
  const end = schemeEnd(s);
  if (end >= 0 && !isSpecialScheme(asciiLower(s.slice(0, end)))) return s;
  // Only strings with a backslash get here: a regex search is shorter than a loop (the classify
  // bundle's 3 KiB ceiling) and its speed does not matter.
  let stop = s.search(/[?#]/);
  if (stop === -1) stop = s.length;
  const head = s.slice(0, stop);
  if (!head.includes("\\")) return s;
  return head.replaceAll("\\", "/") + s.slice(stop);
}
