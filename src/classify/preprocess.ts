import { trimEdges } from "./trim-edges.js";

/**
 * The preprocessed input and what the preprocessing removed.
 *
 * @example
 * ```ts
 * const p: Preprocessed = preprocess("ht\ntps://a.test");
 * ```
 */
export interface Preprocessed {
  /** Edge-trimmed, tab/CR/LF removed; backslashes kept. */
  trimmed: string;
  /** A tab, CR or LF sat inside the edge-trimmed string. */
  hasTabOrNewline: boolean;
  /** A `\` anywhere in `trimmed`. */
  hasBackslash: boolean;
}

// WHATWG URL §4.4 basic URL parser, input preprocessing: strip leading and trailing C0 control or
// space (widened to Unicode White_Space, see trim-edges.ts), then remove all ASCII tab or newline.
// Edges go first so an edge tab is trimmed, not recorded as smuggling.
/**
 * Runs the WHATWG input preprocessing on a raw string.
 *
 * @example
 * ```ts
 * preprocess(" https://anime\tbytes.tv ").trimmed; // "https://animebytes.tv"
 * ```
 */
export function preprocess(raw: string): Preprocessed {
  let trimmed = trimEdges(raw);
  let hasTabOrNewline = false;
  let hasBackslash = false;
  for (let i = 0; i < trimmed.length; i++) {
    const c = trimmed.charCodeAt(i);
    if (c === 0x5c) hasBackslash = true;
    else if (c === 0x09 || c === 0x0a || c === 0x0d) hasTabOrNewline = true;
  }
  if (hasTabOrNewline) trimmed = removeTabOrNewline(trimmed);
  return { trimmed, hasTabOrNewline, hasBackslash };
}

function removeTabOrNewline(s: string): string {
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
