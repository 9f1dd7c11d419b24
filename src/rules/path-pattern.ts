/**
 * A compiled `PathPattern.match`: its segments (literal text around captures) and capture names
 * in order. Matching is a linear scan, never a backtracking regular expression (see
 * {@link matchPathPattern}).
 */
export interface CompiledPathPattern {
  readonly source: string;
  readonly names: readonly string[];
  /** Literal text every matching path starts with: a `startsWith` spares the scan most misses. */
  readonly prefix: string;
  /** The segments after the leading `/` (for a rest pattern: those before its `/{name*}`). */
  readonly segments: readonly PatternSegment[];
  /** Whether a final `/{name*}` takes the rest of the path (its value is the last of `names`). */
  readonly rest: boolean;
  /** The pattern is `/` alone: only the path `/` matches, with no slash to tolerate. */
  readonly root: boolean;
}

/**
 * One `/`-delimited segment of a pattern: `literals[0]`, capture, `literals[1]`, capture, …,
 * `literals[k]` for k captures; the literals between two captures are never empty.
 */
export interface PatternSegment {
  readonly literals: readonly string[];
  /** The place of the segment's first capture among the pattern's `names`. */
  readonly first: number;
  /**
   * Per capture, the test of its constraint (`{asin:[A-Z0-9]{10}}`), or `undefined`; absent when no
   * capture of the segment has one.
   */
  readonly checks?: readonly (CaptureCheck | undefined)[];
}

/**
 * A capture constraint compiled to a table: what `^[class]{min,max}$` accepts, as a length range and
 * one 128-entry lookup per character. The regular expression cost a call into the regex engine per
 * capture; the table scan costs a few ns per character (first-match over a rule's patterns, old
 * and new module in one process: the golden corpus's 34 GitHub links, up to four constrained
 * patterns each, 394 → 318 ns per link; all its rule links 249 → 224 ns).
 */
export interface CaptureCheck {
  readonly min: number;
  readonly max: number;
  /** 1 for an ASCII code the class holds. Nothing outside ASCII is ever in a class. */
  readonly table: Uint8Array;
}

/**
 * Compiles a validated constraint (`[A-Z0-9]{10}`, `[0-9]+`, as {@link compileConstraint} spells it)
 * into a {@link CaptureCheck}. The class's table is read off the class itself, tested on each of
 * the 128 ASCII codes, so ranges and a final `-` mean exactly what they mean to the regex engine.
 *
 * @example
 * ```ts
 * passesCheck(compileCaptureCheck("[A-Z0-9]{10}"), "B07PHPXHQS"); // true
 * ```
 */
export function compileCaptureCheck(constraint: string): CaptureCheck {
  const close = constraint.lastIndexOf("]");
  const cls = new RegExp(`^${constraint.slice(0, close + 1)}$`);
  const table = new Uint8Array(128);
  for (let c = 0; c < 128; c++) table[c] = cls.test(String.fromCharCode(c)) ? 1 : 0;
  const count = constraint.slice(close + 1);
  let min = 1;
  let max = count === "" ? 1 : Number.POSITIVE_INFINITY;
  if (count !== "+" && count !== "") {
    const [lo, hi] = count.slice(1, -1).split(",");
    min = Number(lo);
    max = hi === undefined ? min : Number(hi);
  }
  return Object.freeze({ min, max, table });
}

/**
 * Whether `value` passes a {@link CaptureCheck}: what `^[class]{min,max}$` would answer.
 *
 * @example
 * ```ts
 * passesCheck(compileCaptureCheck("[0-9]+"), "12a"); // false
 * ```
 */
export function passesCheck(check: CaptureCheck, value: string): boolean {
  const n = value.length;
  if (n < check.min || n > check.max) return false;
  const table = check.table;
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c > 127 || table[c] === 0) return false;
  }
  return true;
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
  | {
      readonly name: string;
      readonly rest: boolean;
      readonly pattern?: string | undefined;
      /** `{name:lower}`: a template fills the capture in lowercase (templates only). */
      readonly lower?: true;
    };

// A capture constraint is one character class of letters, digits, ranges of them and "_" "." "~"
// (and a literal "-" as its last character: GitHub's owner names), with an optional bounded count: `[A-Z0-9]{10}`, `[0-9a-f]{10,16}`, `[0-9]+`. Nothing else, so a
// user's rule cannot bring a backtracking regular expression (no alternation, no nesting, no "/").
const CONSTRAINT =
  /^\[((?:[A-Za-z0-9](?:-[A-Za-z0-9])?|[_.~])+-?)\](?:\{([0-9]{1,3})(?:,([0-9]{1,3}))?\}|\+)?$/;

function compileConstraint(text: string): Parsed<string> {
  const m = CONSTRAINT.exec(text);
  const bad = {
    ok: false as const,
    message: `bad constraint "${text}": one class of letters, digits, ranges, "_" "." "~" (a final "-"), then {n}, {m,n} or +`,
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
    if (colon !== -1 && inner.slice(colon + 1) === "lower") {
      if (rest) return { ok: false, message: `"{${inner}}": a rest capture takes no transform` };
      if (literal !== "") pieces.push(literal);
      literal = "";
      pieces.push({ name, rest, lower: true });
      i = end;
      continue;
    }
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

/**
 * Compiles a path pattern (`"/{user}/status/{id}"`, `"/web/{timestamp}/{url*}"`). `{name}` matches
 * one or more characters other than `/`; `{name:[A-Z0-9]{10}}` only what its constraint allows
 * (one character class and a count); a final `/{name*}` matches the rest of the path, possibly
 * nothing (so `/dp/{asin}/{rest*}` also matches `/dp/B0`). A trailing slash on the input is
 * tolerated, since the generic pass may or may not have removed it.
 *
 * A constrained capture that shares its segment with another capture must be the segment's last,
 * after a literal holding a character its class excludes (`/{slug}-{id:[0-9a-f]{10,12}}`). Then
 * the one placement the scan finds is the only one that can satisfy the constraint, and checking
 * the value afterwards gives what a backtracking regular expression would, without backtracking.
 *
 * The result is matched by a linear scan. Before, patterns compiled to regular expressions, and
 * two or more captures in one segment (`/{a}-{b}-{c}.html`) backtracked: an 8 KB path of `-`
 * took 172 s against that pattern.
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
  let rest = false;
  // Segments under construction: the literal text of the current one is the last entry.
  const segments: string[][] = [[""]];
  // Per segment, per capture: the constraint's class and compiled test (sparse).
  const checks: { cls: string; test: CaptureCheck }[][] = [[]];
  const appendLiteral = (literal: string) => {
    const parts = literal.split("/");
    const current = segments[segments.length - 1] as string[];
    current[current.length - 1] += parts[0] as string;
    for (let j = 1; j < parts.length; j++) {
      segments.push([parts[j] as string]);
      checks.push([]);
    }
  };
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i] as TemplatePiece;
    if (typeof piece === "string") {
      // The leading "/" opens the first segment rather than ending an empty one.
      appendLiteral(i === 0 ? piece.slice(1) : piece);
      continue;
    }
    if (piece.lower === true)
      return {
        ok: false,
        message: `"{${piece.name}:lower}" is a template transform, not a match constraint`,
      };
    if (names.includes(piece.name)) return { ok: false, message: `capture "{${piece.name}}" appears twice` };
    names.push(piece.name);
    const previous = pieces[i - 1];
    if (typeof previous !== "string")
      return { ok: false, message: `captures must be separated by literal text, at "{${piece.name}}"` };
    if (piece.rest) {
      if (i !== pieces.length - 1 || !previous.endsWith("/"))
        return { ok: false, message: `"{${piece.name}*}" must be the whole last segment` };
      // The rest capture swallows its own leading slash so that it may be empty: the segment that
      // slash opened is not part of the prefix.
      segments.pop();
      checks.pop();
      rest = true;
    } else {
      const current = segments[segments.length - 1] as string[];
      if (piece.pattern !== undefined)
        (checks[checks.length - 1] as { cls: string; test: CaptureCheck }[])[current.length - 1] = {
          cls: piece.pattern.slice(0, piece.pattern.lastIndexOf("]") + 1),
          test: compileCaptureCheck(piece.pattern),
        };
      current.push("");
    }
  }
  for (let s = 0; s < segments.length; s++) {
    const literals = segments[s] as string[];
    const tests = checks[s] as { cls: string; test: CaptureCheck }[];
    const k = literals.length - 1;
    for (let j = 0; j < k - 1; j++)
      if (tests[j] !== undefined)
        return {
          ok: false,
          message: `a constrained capture must be the last capture of its path segment (segment ${s + 1})`,
        };
    const last = tests[k - 1];
    if (
      k > 1 &&
      last !== undefined &&
      [...(literals[k - 1] as string)].every((ch) => new RegExp(last.cls).test(ch))
    )
      return {
        ok: false,
        message: `the literal "${literals[k - 1]}" before a constrained capture needs a character its class ${last.cls} excludes`,
      };
  }
  // "/{rest*}" leaves no prefix segment at all; "/" is one empty segment.
  let captures = 0;
  const compiled = segments.map((literals, s) => {
    const tests = checks[s] as { cls: string; test: CaptureCheck }[];
    const first = captures;
    captures += literals.length - 1;
    if (tests.length === 0) return Object.freeze({ literals: Object.freeze(literals), first });
    const perCapture = Array.from({ length: literals.length - 1 }, (_, j) => tests[j]?.test);
    return Object.freeze({ literals: Object.freeze(literals), first, checks: Object.freeze(perCapture) });
  });
  // The leading literal, less the slash a rest capture right after it swallows ("/amp/s/{t*}"
  // also matches "/amp/s"); every pattern starts with "/", so the prefix is at least "/" or "".
  const first = typeof pieces[0] === "string" ? pieces[0] : "";
  const prefix =
    pieces.length === 2 && typeof pieces[1] !== "string" && pieces[1]?.rest ? first.slice(0, -1) : first;
  return {
    ok: true,
    value: Object.freeze({
      source: text,
      names,
      prefix,
      segments: Object.freeze(compiled),
      rest,
      root: text === "/",
    }),
  };
}

/**
 * Matches `path` against a compiled pattern; returns the capture values in `names` order (a rest
 * capture that matched nothing is `""`), or `undefined`.
 *
 * Linear in the path: each path segment is found with one `indexOf`, and within a segment the
 * captures are placed right to left, each separator literal at its last occurrence that leaves
 * the captures after it non-empty (one `lastIndexOf` per literal). That is the placement a greedy
 * regular expression (`([^/]+)-([^/]+)`) settles on, found without trying the others.
 *
 * @example
 * ```ts
 * const p = compilePathPattern("/dp/{asin}/{rest*}");
 * p.ok && matchPathPattern(p.value, "/dp/B0"); // ["B0", ""]
 * ```
 */
export function matchPathPattern(
  pattern: CompiledPathPattern,
  path: string,
  slashes = -1,
): string[] | undefined {
  if (!path.startsWith(pattern.prefix) || path.charCodeAt(0) !== 0x2f) return undefined;
  if (pattern.root) return path.length === 1 ? [] : undefined;
  // Written by place, at its final size: grown by push from empty, a one-capture array took a
  // backing store of 17 places (the rule links' largest allocation after the rewrite's own).
  const n = pattern.names.length;
  const values: string[] = n === 0 ? [] : new Array(n);
  if (pattern.rest) {
    const end =
      pattern.segments.length === 0 ? 0 : matchSegments(pattern.segments, path, path.length, values);
    if (end === -1) return undefined;
    // Either the path ends with the prefix, or a slash follows it and the rest is the capture.
    if (end === path.length) values[n - 1] = "";
    else if (path.charCodeAt(end) === 0x2f) values[n - 1] = path.slice(end + 1);
    else return undefined;
    return values;
  }
  // A caller that counted the path's slashes (see slashesFit) says which reading can fit: k of
  // them the whole path, k + 1 the path less its trailing slash.
  const k = pattern.segments.length;
  if (slashes !== k + 1 && matchSegments(pattern.segments, path, path.length, values) === path.length)
    return values;
  // One trailing slash is tolerated; captures never hold a slash, so at most one reading fits.
  if (slashes !== k && path.length > 1 && path.charCodeAt(path.length - 1) === 0x2f) {
    if (matchSegments(pattern.segments, path, path.length - 1, values) === path.length - 1) return values;
  }
  return undefined;
}

/**
 * Whether a path of `slashes` slashes (`trailing`: its last character is a `/` after the root)
 * can match `pattern` at all: k segments need k slashes (k + 1 with a trailing one tolerated), a
 * rest capture k or more. A caller that tries several patterns on one path counts once and skips
 * {@link matchPathPattern} where this says no (it would return `undefined`).
 *
 * @example
 * ```ts
 * const p = compilePathPattern("/{owner}/{repo}");
 * p.ok && slashesFit(p.value, 4, false); // false: "/a/b/blob/c" has four
 * ```
 */
export function slashesFit(pattern: CompiledPathPattern, slashes: number, trailing: boolean): boolean {
  const segments = pattern.segments;
  const k = segments.length;
  if (pattern.rest) return slashes >= k;
  // With a trailing slash and k slashes, the last segment is empty: only an empty literal takes it.
  if (slashes !== k) return trailing && slashes === k + 1;
  const last = segments[k - 1]?.literals;
  return !trailing || (last?.length === 1 && last[0] === "");
}

// Matches the segments against path[1, limit), writing capture values at their places. Returns
// where the last matched segment ends, or -1. A caller that needs the whole range checks the
// returned end.
function matchSegments(
  segments: readonly PatternSegment[],
  path: string,
  limit: number,
  values: string[],
): number {
  let start = 1;
  let end = -1;
  for (let i = 0; i < segments.length; i++) {
    if (start > limit) return -1;
    end = path.indexOf("/", start);
    if (end === -1 || end > limit) end = limit;
    if (!matchSegment(segments[i] as PatternSegment, path, start, end, values)) return -1;
    start = end + 1;
  }
  return end;
}

function matchSegment(
  segment: PatternSegment,
  path: string,
  start: number,
  end: number,
  values: string[],
): boolean {
  const literals = segment.literals;
  const first = literals[0] as string;
  const k = literals.length - 1;
  if (k === 0) return end - start === first.length && path.startsWith(first, start);
  const last = literals[k] as string;
  const low = start + first.length;
  let high = end - last.length;
  // Each capture holds at least one character.
  if (high - low < k + sumInner(literals) || !path.startsWith(first, start) || !path.startsWith(last, high))
    return false;
  // Placed right to left into the captures' own places (a match that fails leaves values the
  // caller drops).
  const base = segment.first;
  for (let j = k - 1; j >= 1; j--) {
    const literal = literals[j] as string;
    const at = path.lastIndexOf(literal, high - 1 - literal.length);
    // The capture before this literal needs a character of its own too.
    if (at < low + 1) return false;
    values[base + j] = path.slice(at + literal.length, high);
    high = at;
  }
  if (high <= low) return false;
  values[base] = path.slice(low, high);
  const checks = segment.checks;
  if (checks !== undefined)
    for (let j = 0; j < k; j++) {
      const check = checks[j];
      if (check !== undefined && !passesCheck(check, values[base + j] as string)) return false;
    }
  return true;
}

function sumInner(literals: readonly string[]): number {
  let n = 0;
  for (let j = 1; j < literals.length - 1; j++) n += (literals[j] as string).length;
  return n;
}
