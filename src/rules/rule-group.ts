import type { DomainRule } from "./domain-rule.js";

/**
 * The key under which a rule says it belongs to a {@link RuleGroup}. A symbol, so it is no part of
 * the `DomainRule` contract users implement: only rule packs canonurl compiles carry it.
 */
export const RULE_GROUP: unique symbol = Symbol("canonurl.ruleGroup");

/**
 * Rules compiled together (the ClearURLs pack: one rule per provider) that answer in one
 * evaluation which of them matches a URL first, so the lookup asks the group once instead of each
 * of its rules in turn.
 */
export interface RuleGroup {
  /** The offset (in the group) of the first rule whose `match` accepts `url`, or -1: the same answer as asking each rule's `match` in order. */
  first(url: URL): number;
  /**
   * False only when no rule of the group matches a URL whose `href` is `href`: lets the pipeline
   * skip building a `URL` for a link the group leaves alone. Optional; without it every URL is
   * built and asked.
   */
  actsOn?(href: string): boolean;
}

/** What a grouped rule carries under {@link RULE_GROUP}: its group and its offset in it. */
export interface RuleGroupMember {
  readonly group: RuleGroup;
  readonly offset: number;
}

/**
 * The group membership of `rule`, if it has one.
 *
 * @example
 * ```ts
 * groupOf({ name: "x", match: () => false, apply: (u) => u }); // undefined
 * ```
 */
export function groupOf(rule: DomainRule): RuleGroupMember | undefined {
  return (rule as { [RULE_GROUP]?: RuleGroupMember })[RULE_GROUP];
}
