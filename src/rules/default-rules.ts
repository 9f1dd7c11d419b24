import { domainRules } from "../generated/data.js";
import { compileRules } from "./compile-rules.js";
import type { DomainRule } from "./domain-rule.js";

/**
 * Options of {@link createDefaultRules}.
 *
 * @example
 * ```ts
 * const options: DefaultRulesOptions = { amazonHost: "com" };
 * ```
 */
export interface DefaultRulesOptions {
  /**
   * `"regional"`: an Amazon store keeps its country (`amazon.de` → `www.amazon.de`), rule
   * `amazon-v1`. `"com"`: every store becomes `www.amazon.com`, rule `amazon-com-v1` (a different
   * output deserves a different name in `ruleApplied`).
   * @default "regional"
   */
  amazonHost?: "regional" | "com";
}

const builtIns = compileRules(domainRules, "data/domain-rules.yaml");

/**
 * The built-in domain rules (data/domain-rules.yaml), in their first-match order: the link
 * unwrappers, then YouTube, Amazon, Twitter/X, Instagram, Reddit, LinkedIn, GitHub.
 *
 * @example
 * ```ts
 * defaultRules.map((r) => r.name).includes("youtube-v1"); // true
 * ```
 */
export const defaultRules: readonly DomainRule[] = Object.freeze([...builtIns]);

let comRules: readonly DomainRule[] | undefined;

/**
 * The built-in rules with options; without options (or with the defaults) it returns
 * {@link defaultRules} itself. Unknown options or values throw `TypeError`.
 *
 * @example
 * ```ts
 * const rules = createDefaultRules({ amazonHost: "com" });
 * normalize("https://amazon.de/dp/B08N5WRWNW", { rules }); // "https://www.amazon.com/dp/B08N5WRWNW"
 * ```
 */
export function createDefaultRules(options?: DefaultRulesOptions): readonly DomainRule[] {
  if (options === undefined) return defaultRules;
  if (typeof options !== "object" || options === null)
    throw new TypeError("createDefaultRules: options must be an object");
  for (const key of Object.keys(options))
    if (key !== "amazonHost") throw new TypeError(`createDefaultRules: unknown option "${key}"`);
  const amazonHost = options.amazonHost ?? "regional";
  if (amazonHost === "regional") return defaultRules;
  if (amazonHost !== "com")
    throw new TypeError(
      `createDefaultRules: amazonHost must be "regional" or "com", got ${String(amazonHost)}`,
    );
  if (comRules === undefined) {
    // The variant goes through the same validator, so a .com host outside `domains` would fail here.
    const declarations = builtIns.map((rule) =>
      rule.name === "amazon-v1"
        ? { ...rule.declaration, name: "amazon-com-v1", canonicalHost: "www.amazon.com" }
        : rule.declaration,
    );
    comRules = Object.freeze(compileRules(declarations, "createDefaultRules"));
  }
  return comRules;
}
