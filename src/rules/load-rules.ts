import { parseDocument } from "yaml";
import { RuleError, type RuleProblem } from "../errors/rule-error.js";
import { DeclaredRule } from "./declared-rule.js";
import type { DomainRule } from "./domain-rule.js";
import { validateRules } from "./validate-rules.js";

function fail(problems: readonly RuleProblem[], source: string): never {
  const shown = problems
    .slice(0, 3)
    .map((p) => `${p.path === "" ? "(document)" : p.path}: ${p.message}`)
    .join("; ");
  const more = problems.length > 3 ? `; and ${problems.length - 3} more` : "";
  const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
  throw new RuleError("invalid-rule", `${count} in ${source}: ${shown}${more}`, { problems });
}

/**
 * Validates a parsed rule document and compiles it into domain rules; the built-in data goes
 * through here exactly as users' files do. Throws one `RuleError` listing every problem.
 *
 * @example
 * ```ts
 * compileRules([{ name: "x-v1", domains: ["twitter.com", "x.com"], canonicalHost: "x.com" }])[0].name; // "x-v1"
 * ```
 */
export function compileRules(value: unknown, source = "domain rules"): DeclaredRule[] {
  const { rules, problems } = validateRules(value);
  if (problems.length > 0) fail(problems, source);
  return rules.map((rule) => new DeclaredRule(rule));
}

/**
 * Parses a rule document in the declarative format (YAML by default, which also reads JSON; or
 * strict JSON with `format: "json"`), validates it and compiles it. Throws `RuleError`
 * (`invalid-rule`) whose `problems` list every problem with its path, e.g.
 * `[2].pathPatterns[0].rewrite`; a syntax error is reported at path `""` with its line.
 *
 * @example
 * ```ts
 * const rules = loadRules(`
 * - name: shop-v1
 *   domains: [shop.example, www.shop.example]
 *   canonicalHost: www.shop.example
 *   pathPatterns:
 *     - { match: "/item/{id}/{slug}", rewrite: "/item/{id}" }
 * `);
 * normalize("http://shop.example/item/42/blue-shoe", { rules }); // "http://www.shop.example/item/42"
 * ```
 */
export function loadRules(text: string, format?: "json" | "yaml"): DomainRule[] {
  if (typeof text !== "string") throw new TypeError(`loadRules: text must be a string, got ${typeof text}`);
  if (format !== undefined && format !== "json" && format !== "yaml")
    throw new TypeError(`loadRules: format must be "json" or "yaml", got ${String(format)}`);
  let value: unknown;
  if (format === "json") {
    try {
      value = JSON.parse(text);
    } catch (e) {
      fail([{ path: "", message: `invalid JSON: ${(e as Error).message}` }], "domain rules");
    }
  } else {
    const doc = parseDocument(text);
    if (doc.errors.length > 0)
      fail(
        doc.errors.map((e) => ({ path: "", message: `invalid YAML: ${e.message}` })),
        "domain rules",
      );
    value = doc.toJS();
  }
  return compileRules(value);
}
