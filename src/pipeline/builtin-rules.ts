import type { DomainRule } from "../rules/domain-rule.js";
import { defaultRules } from "../rules/index.js";

/** The rules the identity preset applies by default: the rules room's `defaultRules`. */
export const builtinRules: readonly DomainRule[] = defaultRules;
