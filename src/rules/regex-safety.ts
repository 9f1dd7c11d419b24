/**
 * The most unbounded quantifiers (`*`, `+`, `{n,}`) a rule's regular expression may hold. With
 * k of them over overlapping characters a backtracking engine tries up to n^k/k! splits of an
 * n-character input; the pipeline tests fragments of at most 256 characters, so three keep the
 * worst case near 2.8 million steps (a few milliseconds).
 */
export const MAX_UNBOUNDED_QUANTIFIERS = 3;

interface Frame {
  repeats: boolean;
  alternates: boolean;
}

/**
 * Why a regular expression (JavaScript syntax, `u` flag) could backtrack catastrophically, or
 * `undefined` when it cannot: a repeated group that itself repeats or alternates (`(a+)+`,
 * `(a|ab)*`: exponential; `(a+)+` on 27 characters took 421 ms and doubled per character), a
 * backreference (matching with one is NP-hard), or more than {@link MAX_UNBOUNDED_QUANTIFIERS}
 * unbounded quantifiers (polynomial of that degree). Conservative: a few safe expressions are
 * refused too, never an unsafe one of these shapes admitted. Assumes `source` compiles.
 *
 * @example
 * ```ts
 * regexHazard("L\\d+(-L\\d+)?"); // undefined
 * regexHazard("(a+)+");           // "a repeated group repeats inside: (a+)+ backtracks exponentially"
 * ```
 */
export function regexHazard(source: string): string | undefined {
  const stack: Frame[] = [{ repeats: false, alternates: false }];
  // The atom a quantifier would apply to: a closed group's frame, a plain atom, or nothing.
  let lastGroup: Frame | undefined;
  let unbounded = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    const frame = stack[stack.length - 1] as Frame;
    if (c === "\\") {
      const next = source[i + 1] ?? "";
      if (/[1-9]/.test(next) || next === "k")
        return "a backreference can backtrack without bound; match the text itself instead";
      i++;
      // \u{…}, \p{…}, \P{…}: one atom however long.
      if (/[upP]/.test(next) && source[i + 1] === "{") i = source.indexOf("}", i);
      lastGroup = undefined;
    } else if (c === "[") {
      for (i++; i < source.length && source[i] !== "]"; i++) if (source[i] === "\\") i++;
      lastGroup = undefined;
    } else if (c === "(") {
      if (source[i + 1] === "?") {
        // (?: (?= (?! (?<= (?<! (?<name>
        i++;
        if (source[i + 1] === "<" && source[i + 2] !== "=" && source[i + 2] !== "!")
          i = source.indexOf(">", i);
        else i += source[i + 1] === "<" ? 2 : 1;
      }
      stack.push({ repeats: false, alternates: false });
      lastGroup = undefined;
    } else if (c === ")") {
      const closed = stack.pop() as Frame;
      const parent = stack[stack.length - 1] as Frame;
      parent.repeats ||= closed.repeats;
      parent.alternates ||= closed.alternates;
      lastGroup = closed;
    } else if (c === "|") {
      frame.alternates = true;
      lastGroup = undefined;
    } else if (
      c === "*" ||
      c === "+" ||
      c === "?" ||
      (c === "{" && /^\{\d+(,\d*)?\}/.test(source.slice(i)))
    ) {
      let max = c === "?" ? 1 : Number.POSITIVE_INFINITY;
      if (c === "{") {
        const end = source.indexOf("}", i);
        const [, low, comma, high] = /^\{(\d+)(,?)(\d*)\}/.exec(source.slice(i, end + 1)) ?? [];
        max = comma === "" ? Number(low) : high === "" ? Number.POSITIVE_INFINITY : Number(high);
        i = end;
      }
      if (source[i + 1] === "?") i++; // lazy: the same search, another order
      // An optional atom is an alternation with the empty string: (a?)* is (a|)*.
      if (max <= 1) frame.alternates = true;
      if (max > 1) {
        if (lastGroup !== undefined && (lastGroup.repeats || lastGroup.alternates))
          return `a repeated group ${lastGroup.repeats ? "repeats" : "alternates"} inside: ${source} backtracks exponentially`;
        frame.repeats = true;
      }
      if (max === Number.POSITIVE_INFINITY && ++unbounded > MAX_UNBOUNDED_QUANTIFIERS)
        return `more than ${MAX_UNBOUNDED_QUANTIFIERS} unbounded quantifiers (*, +, {n,}): ${source} backtracks polynomially`;
      lastGroup = undefined;
    } else {
      lastGroup = undefined;
    }
  }
  return undefined;
}
