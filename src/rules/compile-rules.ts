import { RuleError, type RuleProblem } from "../errors/rule-error.js";
import { DeclaredRule } from "./declared-rule.js";
import { validateRules } from "./validate-rules.js";

/**
 * Builds the one `RuleError` (`invalid-rule`) a rule document gets: the first three problems in the
 * message, every problem in `problems`, and what the parser threw (if anything) as `cause`.
 *
 * @example
 * ```ts
 * ruleErrorOf([{ path: "[0].name", message: "required" }], "my-rules.yaml").message;
 * // "1 problem in my-rules.yaml: [0].name: required"
 * ```
 */
export function ruleErrorOf(problems: readonly RuleProblem[], source: string, cause?: unknown): RuleError {
  const shown = problems
    .slice(0, 3)
    .map((p) => `${p.path === "" ? "(document)" : p.path}: ${p.message}`)
    .join("; ");
  const more = problems.length > 3 ? `; and ${problems.length - 3} more` : "";
  const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
  return new RuleError("invalid-rule", `${count} in ${source}: ${shown}${more}`, {
    problems,
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * Validates an already-parsed rule document (an array of rules, e.g. from `JSON.parse` or your own
 * YAML parser) and compiles it into domain rules; the built-in data goes through here exactly as
 * users' files do. Throws one `RuleError` listing every problem with its path. Pure: it is the rule
 * compiler of `canonurl/core`, so browsers and edge workers get it without a YAML parser.
 *
 * @example
 * ```ts
 * compileRules([{ name: "x-v1", domains: ["twitter.com", "x.com"], canonicalHost: "x.com" }])[0].name; // "x-v1"
 * ```
 */
export function compileRules(value: unknown, source = "domain rules"): DeclaredRule[] {
  const { rules, problems } = validateRules(value);
  if (problems.length > 0) throw ruleErrorOf(problems, source);
  return rules.map((rule) => new DeclaredRule(rule));
}
