/**
 * Whether an input line is blank: empty, or only spaces, tabs and other C0 controls, which the URL
 * parser trims away (WHATWG URL §4.4 step 1 and 3). A blank line prints a blank line and is not a
 * failure (api.md §7), so spacing in a list of URLs survives a run through canonurl.
 *
 * @example
 * ```ts
 * isBlankLine(" \t"); // true
 * isBlankLine("a"); // false
 * ```
 */
export function isBlankLine(line: string): boolean {
  for (let i = 0; i < line.length; i++) if (line.charCodeAt(i) > 0x20) return false;
  return true;
}
