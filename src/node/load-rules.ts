// The Node entry's loadRules: the rules room's loader over the `yaml` package, which is loaded on
// the first call rather than at import. loadRules is synchronous, so this cannot be a dynamic
// import(); `yaml` is CommonJS under Node's "node" condition, so createRequire loads it on every
// supported Node (20.18.1 included, where require() of ESM is still behind a flag).
import { createRequire } from "node:module";
import type { DomainRule } from "../rules/domain-rule.js";
import { createRuleLoader } from "../rules/load-rules.js";

const require = createRequire(import.meta.url);
let load: ((text: string, format?: "json" | "yaml") => DomainRule[]) | undefined;

/**
 * Parses a rule document in the declarative format (YAML by default, which also reads JSON; or
 * strict JSON with `format: "json"`), validates it and compiles it. A bad document throws only
 * `RuleError` (`invalid-rule`) whose `problems` list every problem with its path, e.g.
 * `[2].pathPatterns[0].rewrite`; a syntax or alias error is reported at path `""` with what the
 * parser threw as `cause`. Node entry only: in `canonurl/core`, parse the text yourself and call
 * `compileRules(data)`.
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
  load ??= createRuleLoader((require("yaml") as typeof import("yaml")).parseDocument);
  return load(text, format);
}
