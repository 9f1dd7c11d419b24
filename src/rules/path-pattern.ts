/** A compiled `PathPattern.match`: an anchored regular expression and its capture names in order. */
export interface CompiledPathPattern {
  readonly source: string;
  readonly regex: RegExp;
  readonly names: readonly string[];
  /** Literal text every matching path starts with: a `startsWith` spares the regex most misses. */
  readonly prefix: string;
}

/** Either a value or the reason there is none; validation collects the reasons with their paths. */
export type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly message: string };

/** One piece of a template or pattern: literal text, or a capture (`rest` for `{name*}`). */
export type TemplatePiece = string | { readonly name: string; readonly rest: boolean };

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Splits `text` into literal text and `{name}` / `{name*}` placeholders, rejecting unbalanced
 * braces and bad names. Shared by path patterns and templates so both speak one syntax.
 *
 * @example
 * ```ts
 * splitPlaceholders("/embed/{id}"); // { ok: true, value: ["/embed/", { name: "id", rest: false }] }
 * ```
 */
export function splitPlaceholders(text: string): Parsed<TemplatePiece[]> {
  const pieces: TemplatePiece[] = [];
  let literal = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "}") return { ok: false, message: `unmatched "}" at offset ${i}` };
    if (c !== "{") {
      literal += c;
      continue;
    }
    const end = text.indexOf("}", i + 1);
    if (end === -1) return { ok: false, message: `unclosed "{" at offset ${i}` };
    const inner = text.slice(i + 1, end);
    const rest = inner.endsWith("*");
    const name = rest ? inner.slice(0, -1) : inner;
    if (!NAME.test(name))
      return { ok: false, message: `bad placeholder "{${inner}}": a name is letters, digits, _` };
    if (literal !== "") pieces.push(literal);
    literal = "";
    pieces.push({ name, rest });
    i = end;
  }
  if (literal !== "") pieces.push(literal);
  return { ok: true, value: pieces };
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Compiles a path pattern (`"/{user}/status/{id}"`, `"/web/{timestamp}/{url*}"`) into an anchored
 * regular expression. `{name}` matches one or more characters other than `/`; a final `/{name*}`
 * matches the rest of the path, possibly nothing (so `/dp/{asin}/{rest*}` also matches `/dp/B0`).
 * A trailing slash on the input is tolerated, since the generic pass may or may not have removed it.
 *
 * @example
 * ```ts
 * const p = compilePathPattern("/embed/{id}");
 * p.ok && matchPathPattern(p.value, "/embed/abc/"); // ["abc"]
 * ```
 */
export function compilePathPattern(text: string): Parsed<CompiledPathPattern> {
  if (!text.startsWith("/")) return { ok: false, message: 'a path pattern starts with "/"' };
  if (/[?#\s]/.test(text))
    return { ok: false, message: "a path pattern has no query, fragment or whitespace" };
  const split = splitPlaceholders(text);
  if (!split.ok) return split;
  const pieces = split.value;
  const names: string[] = [];
  let body = "";
  let restAtEnd = false;
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i] as TemplatePiece;
    if (typeof piece === "string") {
      body += escapeRegex(piece);
      continue;
    }
    if (names.includes(piece.name)) return { ok: false, message: `capture "{${piece.name}}" appears twice` };
    names.push(piece.name);
    const previous = pieces[i - 1];
    if (typeof previous !== "string")
      return { ok: false, message: `captures must be separated by literal text, at "{${piece.name}}"` };
    if (piece.rest) {
      if (i !== pieces.length - 1 || !previous.endsWith("/"))
        return { ok: false, message: `"{${piece.name}*}" must be the whole last segment` };
      // The rest capture swallows its own leading slash so that it may be empty.
      body = `${body.slice(0, -1)}(?:/(.*))?`;
      restAtEnd = true;
    } else {
      body += "([^/]+)";
    }
  }
  const source = restAtEnd || body === "/" ? `^${body}$` : `^${body}/?$`;
  // The leading literal, less the slash a rest capture right after it swallows ("/amp/s/{t*}"
  // also matches "/amp/s"); every pattern starts with "/", so the prefix is at least "/" or "".
  const first = typeof pieces[0] === "string" ? pieces[0] : "";
  const prefix =
    pieces.length === 2 && typeof pieces[1] !== "string" && pieces[1]?.rest ? first.slice(0, -1) : first;
  return { ok: true, value: { source: text, regex: new RegExp(source), names, prefix } };
}

/**
 * Matches `path` against a compiled pattern; returns the capture values in `names` order (a rest
 * capture that matched nothing is `""`), or `undefined`.
 *
 * @example
 * ```ts
 * const p = compilePathPattern("/dp/{asin}/{rest*}");
 * p.ok && matchPathPattern(p.value, "/dp/B0"); // ["B0", ""]
 * ```
 */
export function matchPathPattern(pattern: CompiledPathPattern, path: string): string[] | undefined {
  if (!path.startsWith(pattern.prefix)) return undefined;
  const m = pattern.regex.exec(path);
  if (m === null) return undefined;
  const values: string[] = [];
  for (let i = 1; i <= pattern.names.length; i++) values.push(m[i] ?? "");
  return values;
}
