// WHATWG URL §4.4 basic URL parser, input preprocessing, second half: after the edges are trimmed
// (trim-edges.ts), "remove all ASCII tab or newline from input".

/** `scanInput` flag: a tab, CR or LF is inside the string. */
export const HAS_TAB_OR_NEWLINE = 1;
/** `scanInput` flag: a `\` is inside the string. */
export const HAS_BACKSLASH = 2;
/** `scanInput` flag: a C0 control other than tab/CR/LF, or DEL, is inside the string. */
export const HAS_CONTROL = 4;

/**
 * One pass over an edge-trimmed string for the bytes preprocessing and parsing care about,
 * returned as flags (no allocation on the hot path). The common character (>= 0x20, not `\`, not
 * DEL) costs one comparison pair.
 *
 * @example
 * ```ts
 * (scanInput("a\tb\\c") & HAS_TAB_OR_NEWLINE) !== 0; // true
 * ```
 */
export function scanInput(s: string): number {
  let flags = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x5c || c === 0x7f) {
      if (c === 0x5c) flags |= HAS_BACKSLASH;
      else if (c === 0x09 || c === 0x0a || c === 0x0d) flags |= HAS_TAB_OR_NEWLINE;
      else flags |= HAS_CONTROL;
    }
  }
  return flags;
}

/**
 * Removes every tab, CR and LF.
 *
 * @example
 * ```ts
 * removeTabOrNewline("ht\ntps://a\t.test"); // "https://a.test"
 * ```
 */
export function removeTabOrNewline(s: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x09 || c === 0x0a || c === 0x0d) {
      out += s.slice(from, i);
      from = i + 1;
    }
  }
  return out + s.slice(from);
}
