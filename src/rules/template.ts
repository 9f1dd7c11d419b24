import { checkUrlLength, MAX_URL_LENGTH } from "../url/max-url-length.js";
import { type Parsed, splitPlaceholders } from "./path-pattern.js";

/**
 * A compiled template: literal text and indexes into the capture values; a negative number `~i`
 * is capture `i` in ASCII lowercase (`{owner:lower}`).
 */
export type Template = readonly (string | number)[];

/**
 * Compiles a template (`"/watch?v={id}"`, `"https://{target}"`) against the capture names of its
 * pattern; every placeholder must name one of them, so a typo fails at load instead of producing
 * `/watch?v=` at run time. `{name:lower}` fills the capture in ASCII lowercase, for path parts a
 * site compares without case (GitHub owners and repositories, Reddit subreddits, X handles).
 *
 * @example
 * ```ts
 * compileTemplate("/watch?v={id}", ["id"]); // { ok: true, value: ["/watch?v=", 0] }
 * ```
 */
export function compileTemplate(text: string, names: readonly string[]): Parsed<Template> {
  const split = splitPlaceholders(text);
  if (!split.ok) return split;
  const out: (string | number)[] = [];
  for (const piece of split.value) {
    if (typeof piece === "string") {
      out.push(piece);
      continue;
    }
    if (piece.rest) return { ok: false, message: `write "{${piece.name}}" in a template, without "*"` };
    if (piece.pattern !== undefined)
      return { ok: false, message: `"{${piece.name}}" takes its constraint in the match pattern, not here` };
    const index = names.indexOf(piece.name);
    if (index === -1) {
      const known = names.length === 0 ? "the pattern has none" : `known: ${names.join(", ")}`;
      return { ok: false, message: `"{${piece.name}}" is not a capture of the pattern (${known})` };
    }
    out.push(piece.lower === true ? ~index : index);
  }
  return { ok: true, value: out };
}

/**
 * Fills a compiled template with capture values, passing each value through `encode`. Throws
 * `UrlError` `invalid-url` rather than build a string longer than `MAX_URL_LENGTH`: a template
 * may repeat a capture (`https://x/{t}/{t}/{t}`), and the bound must hold before the string exists.
 *
 * @example
 * ```ts
 * fillTemplate(["/watch?v=", 0], ["abc"]); // "/watch?v=abc"
 * ```
 */
export function fillTemplate(
  template: Template,
  values: readonly string[],
  encode: (value: string) => string = (v) => v,
): string {
  let out = "";
  for (const piece of template) {
    out +=
      typeof piece === "string"
        ? piece
        : piece >= 0
          ? encode(values[piece] ?? "")
          : encode(asciiLower(values[~piece] ?? ""));
    if (out.length > MAX_URL_LENGTH) checkUrlLength(out, "a rule's filled template", out);
  }
  return out;
}

// ASCII only: a site that folds case in its paths folds A-Z; other letters and %XX escapes (whose
// hex digits the generic pass keeps uppercase) stay as they are.
// Most captures are lowercase already (GitHub owners as people type them): one scan for an
// uppercase letter spares the regex replace and its callback (the golden corpus's GitHub links).
// Without an escape or a character outside ASCII, toLowerCase folds A-Z alone: the replace and
// its callback only for those (seeded corpus, mixed-case Reddit and GitHub captures: ~3% of the
// rule links' samples were the replace).
function asciiLower(value: string): string {
  let upper = false;
  let plain = true;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) upper = true;
    else if (c === 0x25 || c > 0x7f) plain = false;
  }
  if (!upper) return value;
  return plain
    ? value.toLowerCase()
    : value.replace(/%[0-9A-Fa-f]{2}|[A-Z]+/g, (m) => (m.charCodeAt(0) === 0x25 ? m : m.toLowerCase()));
}
