import { domainRules } from "../generated/data.js";
import { compileRules } from "./compile-rules.js";
import type { DeclarativeRule } from "./declarative-rule.js";
import { DeclaredRule } from "./declared-rule.js";
import type { DomainRule } from "./domain-rule.js";
import { deepFreeze } from "./validate-rules.js";

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
   * `amazon-v3`. `"com"`: every store becomes `www.amazon.com`, rule `amazon-com-v3` (a different
   * output deserves a different name in `ruleApplied`).
   * @default "regional"
   */
  amazonHost?: "regional" | "com";
}

// Trusted, not validated here: the build validates data/domain-rules.yaml with compileRules, the
// validator user files go through, and fails on any problem or on a field the validator would drop
// (scripts/check-data.mjs, after tsc). Validating at import cost every process ~15 ms of CPU before
// its first normalize (the convergence probe alone parses and rewrites a URL per pattern); the
// rules also compile their patterns on first use (DeclaredRule).
const builtIns = (domainRules as DeclarativeRule[]).map((rule) => new DeclaredRule(deepFreeze(rule)));

// Every rule object the library ships, in every variant: what a user rule of the same family may
// replace (see isBuiltinRule).
const shipped = new WeakSet<DomainRule>(builtIns);

/**
 * Whether `rule` is one of the built-in rule objects ({@link defaultRules} or a
 * {@link createDefaultRules} variant). A rules list in which a user rule shares a built-in's family
 * (its name without the `-vN` version suffix) drops that built-in: the user rule replaces it.
 *
 * @example
 * ```ts
 * isBuiltinRule(defaultRules[0]); // true
 * ```
 */
export function isBuiltinRule(rule: DomainRule): boolean {
  return shipped.has(rule);
}

/**
 * A rule's family: its name without the version suffix (`amazon-v3` → `amazon`). Versions say
 * which output a rule gives; the family says which sites it is about.
 *
 * @example
 * ```ts
 * ruleFamily("youtube-v3"); // "youtube"
 * ```
 */
export function ruleFamily(name: string): string {
  const m = /-v[0-9]+$/.exec(name);
  return m === null ? name : name.slice(0, m.index);
}

/**
 * The built-in domain rules (data/domain-rules.yaml), in their first-match order: the link
 * unwrappers, then YouTube, Amazon, Twitter/X, Instagram, Reddit, LinkedIn, GitHub.
 *
 * @example
 * ```ts
 * defaultRules.map((r) => r.name).includes("youtube-v3"); // true
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
    // The variant keeps the regional rule's version: amazon-v3 → amazon-com-v3.
    const declarations = builtIns.map((rule) =>
      ruleFamily(rule.name) === "amazon"
        ? {
            ...rule.declaration,
            name: rule.name.replace(/^amazon-/, "amazon-com-"),
            canonicalHost: "www.amazon.com",
          }
        : rule.declaration,
    );
    const compiled = compileRules(declarations, "createDefaultRules");
    for (const rule of compiled) shipped.add(rule);
    comRules = Object.freeze(compiled);
  }
  return comRules;
}
