/** One step of the pipeline as {@link explain} reports it. */
export interface ExplanationStep {
  /** `layer`: a tracking layer removed parameters (or unwrapped), after the rule. */
  stage: "parse" | "generic" | "rule" | "layer" | "final";
  url: string;
  /** For `rule` steps: the versioned name of the rule applied; for `layer` steps, the layer's name. */
  rule?: string;
}

/**
 * What {@link explain} returns: the canonical URL and how the pipeline got there.
 *
 * @example
 * ```ts
 * const e: Explanation = explain("https://youtu.be/dQw4w9WgXcQ?si=x");
 * e.ruleApplied; // "youtube-v3"
 * ```
 */
export interface Explanation {
  input: string;
  canonical: string;
  /** Versioned name of the domain rule that shaped the result (the last one when a link was unwrapped). */
  ruleApplied: string | null;
  /** Names of the parameters removed, in input order. */
  paramsStripped: string[];
  steps: ExplanationStep[];
}
