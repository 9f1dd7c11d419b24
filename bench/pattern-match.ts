import { type CompiledPathPattern, compilePathPattern, matchPathPattern } from "../src/rules/path-pattern.js";

/** Every shape a path pattern can take: one, two, three and more captures per segment, literal prefixes and suffixes, rest captures. */
export const PATTERN_SHAPES = [
  "/watch",
  "/embed/{id}",
  "/{user}/status/{id}",
  "/p-{id}",
  "/item/{id}.html",
  "/p-{id}.html",
  "/{slug}-{id}.html",
  "/{a}-{b}-{c}.html",
  "/{a}-{b}-{c}-{d}-{e}",
  "/x/{a}--{b}/",
  "/{a}.{b}/{c}.{d}/{e}.{f}",
  "/dp/{asin}/{rest*}",
  "/{a}-{b}/{rest*}",
  "/{rest*}",
];

const SIZE = 100_000;

/** 100 KB paths built to make a backtracking matcher try every placement of its captures. */
export const HOSTILE_PATHS: [string, string][] = [
  ["'-'×100K", `/${"-".repeat(SIZE)}`],
  ["'-'×100K + .htm", `/${"-".repeat(SIZE)}.htm`],
  ["'a-'×50K", `/${"a-".repeat(SIZE / 2)}`],
  ["'a-'×50K + .html", `/${"a-".repeat(SIZE / 2)}.html`],
  ["'--'×50K + x", `/${"--".repeat(SIZE / 2)}x`],
  ["'a.'×50K + /", `/${"a.".repeat(SIZE / 2)}/`],
  ["'/a'×50K", "/a".repeat(SIZE / 2)],
  ["'/'×100K", `/${"/".repeat(SIZE)}`],
  ["/x/ + '-'×100K + /", `/x/${"-".repeat(SIZE)}/`],
  ["/dp/ + '.'×100K", `/dp/${".".repeat(SIZE)}`],
  ["'p-'×50K + .html", `/${"p-".repeat(SIZE / 2)}.html`],
];

/**
 * For each pattern shape, the slowest hostile path: median of 5 matches, in milliseconds. The
 * figure to hold is ≤ 50 ms per shape (the regex matcher took 172 s on 8 KB for three captures).
 *
 * @example
 * ```ts
 * for (const r of benchPatternMatch()) console.log(r.shape, r.worstMs);
 * ```
 */
export function benchPatternMatch(): {
  shape: string;
  worstMs: number;
  worstPath: string;
  totalMs: number;
}[] {
  const out = [];
  let sink = 0;
  for (const shape of PATTERN_SHAPES) {
    const compiled = compilePathPattern(shape);
    if (!compiled.ok) throw new Error(`${shape}: ${compiled.message}`);
    const pattern: CompiledPathPattern = compiled.value;
    let worstMs = 0;
    let worstPath = "";
    let totalMs = 0;
    for (const [label, path] of HOSTILE_PATHS) {
      const times: number[] = [];
      for (let rep = 0; rep < 5; rep++) {
        const start = process.hrtime.bigint();
        if (matchPathPattern(pattern, path) !== undefined) sink++;
        times.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
      times.sort((a, b) => a - b);
      const ms = times[2] ?? Number.NaN;
      totalMs += ms;
      if (ms > worstMs) {
        worstMs = ms;
        worstPath = label;
      }
    }
    out.push({ shape, worstMs, worstPath, totalMs });
  }
  if (sink < 0) console.log(sink);
  return out;
}
