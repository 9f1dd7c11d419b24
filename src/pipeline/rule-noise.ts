import { createTrackingMatcher, type TrackingMatcher } from "./tracking-matcher.js";

const ruleNoise = new WeakMap<readonly string[], TrackingMatcher>();
const NO_KEEP: readonly string[] = Object.freeze([]);

/**
 * A rule's `stripParams` list (as `stripParamsFor` gives it) as a matcher: what the final pass
 * strips after the rule. Cached per list only for the common case; a keepParams list changes what
 * the rule may strip.
 *
 * @example
 * ```ts
 * ruleNoiseFor(["t", "si"])("SI"); // true
 * ```
 */
export function ruleNoiseFor(strip: readonly string[], keep: readonly string[] = NO_KEEP): TrackingMatcher {
  let noise = keep.length === 0 ? ruleNoise.get(strip) : undefined;
  if (noise === undefined) {
    noise = createTrackingMatcher(strip, keep);
    if (keep.length === 0) ruleNoise.set(strip, noise);
  }
  return noise;
}
