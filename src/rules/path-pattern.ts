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

/**
 * One piece of a template or pattern: literal text, or a capture (`rest` for `{name*}`; `pattern`,
 * the regular expression source of a `{name:[A-Z0-9]{10}}` constraint).
 */
export type TemplatePiece =
  | string
  | { readonly name: string; readonly rest: boolean; readonly pattern?: string | undefined };

// A capture constraint is one character class of letters, digits, ranges of them and "_" "." "~",
// with an optional bounded count: `[A-Z0-9]{10}`, `[0-9a-f]{10,16}`, `[0-9]+`. Nothing else, so a
// user's rule cannot bring a backtracking regular expression (no alternation, no nesting, no "/").
const CONSTRAINT =
  /^\[((?:[A-Za-z0-9](?:-[A-Za-z0-9])?|[_.~])+)\](?:\{([0-9]{1,3})(?:,([0-9]{1,3}))?\}|\+)?$/;

function compileConstraint(text: string): Parsed<string> {
  const m = CONSTRAINT.exec(text);
  const bad = {
    ok: false as const,
    message: `bad constraint "${text}": one class of letters, digits, ranges, "_" "." "~", then {n}, {m,n} or +`,
  };
  if (m === null) return bad;
  const cls = m[1] as string;
  for (const range of cls.matchAll(/([A-Za-z0-9])-([A-Za-z0-9])/g))
    if ((range[1] as string) > (range[2] as string)) return bad;
  const min = m[2] === undefined ? undefined : Number(m[2]);
  const max = m[3] === undefined ? min : Number(m[3]);
  if (min !== undefined && (max === undefined || max < min || max === 0)) return bad;
  const count = min === undefined ? "+" : min === max ? `{${min}}` : `{${min},${max}}`;
  return { ok: true, value: `[${cls}]${count}` };
}

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
    // A constraint's count has braces of its own ("{asin:[A-Z0-9]{10}}"): close at depth zero.
    let end = i + 1;
    for (let depth = 1; end < text.length; end++) {
      const d = text[end];
      if (d === "{") depth++;
      else if (d === "}" && --depth === 0) break;
    }
    if (end >= text.length) return { ok: false, message: `unclosed "{" at offset ${i}` };
    const inner = text.slice(i + 1, end);
    const colon = inner.indexOf(":");
    const head = colon === -1 ? inner : inner.slice(0, colon);
    const rest = head.endsWith("*");
    const name = rest ? head.slice(0, -1) : head;
    if (!NAME.test(name))
      return { ok: false, message: `bad placeholder "{${inner}}": a name is letters, digits, _` };
    let pattern: string | undefined;
    if (colon !== -1) {
      if (rest) return { ok: false, message: `"{${inner}}": a rest capture takes no constraint` };
      const c = compileConstraint(inner.slice(colon + 1));
      if (!c.ok) return c;
      pattern = c.value;
    }
    if (literal !== "") pieces.push(literal);
    literal = "";
    pieces.push(pattern === undefined ? { name, rest } : { name, rest, pattern });
    i = end;
  }
  if (literal !== "") pieces.push(literal);
  return { ok: true, value: pieces };
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Compiles a path pattern (`"/{user}/status/{id}"`, `"/web/{timestamp}/{url*}"`) into an anchored
 * regular expression. `{name}` matches one or more characters other than `/`; `{name:[A-Z0-9]{10}}`
 * only what its constraint allows (one character class and a count); a final `/{name*}`
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
      body += piece.pattern === undefined ? "([^/]+)" : `(${piece.pattern})`;
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
