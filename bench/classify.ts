import { classify } from "../src/classify/index.js";
import type { BenchCase } from "./bench-case.js";

/**
 * The classify group: `classify()` against a bare WHATWG parse (`new URL(u).href`, exceptions
 * caught, as a caller validating with `URL` would) on the same corpus. Target (issue 24): classify
 * at most 0.9x the bare parse on both workloads; the regression guard fails the bench over 1x.
 *
 * @example
 * ```ts
 * for (const c of classifyCases) c.run("https://example.com/a?b#c");
 * ```
 */
export const classifyCases: BenchCase[] = [
  { name: "classify()", run: (input) => classify(input) },
  {
    name: "new URL().href",
    run: (input) => {
      try {
        return new URL(input).href;
      } catch {
        return null;
      }
    },
  },
];
