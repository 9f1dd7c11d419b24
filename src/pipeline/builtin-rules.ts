import type { DomainRule } from "../rules/domain-rule.js";

/** The rules the identity preset applies by default (wired to the rules room's `defaultRules`). */
export const builtinRules: readonly DomainRule[] = Object.freeze([]);
