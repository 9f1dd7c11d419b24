// The rules room: the declarative format, its validator, the host-indexed matcher, the built-ins.
// Pure: loadRules (YAML) is not re-exported here, so nothing that imports the room pulls a parser;
// import it from ./load-rules.js at the Node edge.

export { compileRules } from "./compile-rules.js";
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
export { createRuleMatcher } from "./rule-matcher.js";
export { shorteners } from "./shorteners.js";
