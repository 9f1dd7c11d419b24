// The rules room: the declarative format, its validator, the host-indexed matcher, the built-ins.
export type { DeclarativeRule, FragmentKeep, PathPattern, UnwrapForm } from "./declarative-rule.js";
export { DeclaredRule } from "./declared-rule.js";
export {
  createDefaultRules,
  type DefaultRulesOptions,
  defaultRules,
  isBuiltinRule,
  ruleFamily,
} from "./default-rules.js";
export type { DomainRule } from "./domain-rule.js";
export { compileRules, loadRules } from "./load-rules.js";
export { createRuleMatcher } from "./rule-matcher.js";
export { shorteners } from "./shorteners.js";
