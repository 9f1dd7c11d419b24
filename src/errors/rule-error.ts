import { CanonError, type CanonErrorOptions } from "./canon-error.js";

/** One validation problem in a rule document. */
export interface RuleProblem {
  /** Where in the document, e.g. `[2].pathPatterns[0].rewrite`; `""` for the document itself. */
  path: string;
  message: string;
}

/** Codes a {@link RuleError} carries. */
export type RuleErrorCode = "invalid-rule";

/**
 * Declarative domain rules failed validation; `problems` lists every problem with its path.
 *
 * @example
 * ```ts
 * throw new RuleError("invalid-rule", "1 problem", { problems: [{ path: "[0].name", message: "required" }] });
 * ```
 */
export class RuleError extends CanonError {
  override name = "RuleError";
  declare readonly code: RuleErrorCode;
  /** Every problem found, each with the path into the rule document (`[2].pathPatterns[0].rewrite`). */
  readonly problems: readonly RuleProblem[];

  constructor(
    code: RuleErrorCode,
    message: string,
    options: CanonErrorOptions & { problems?: readonly RuleProblem[] } = {},
  ) {
    super(code, message, options);
    this.problems = Object.freeze([...(options.problems ?? [])]);
  }
}
