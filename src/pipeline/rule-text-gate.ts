import { DeclaredRule } from "../rules/declared-rule.js";
import { groupOf, type RuleGroup } from "../rules/rule-group.js";
import { hostClaim } from "./host-claim.js";
import type { RuleLookup } from "./rule-lookup.js";

/** False only when no rule of a list can claim a URL of this host and text. */
export type RuleTextGate = (hostname: string, href: string) => boolean;

const gates = new WeakMap<RuleLookup, RuleTextGate | null>();

/**
 * For a lookup that must be handed a `URL` (its list holds rules that are not declarative): a
 * test on the generic URL's hostname and text that no rule can match, so the pipeline skips
 * building the `URL` for the link every rule leaves alone. Declarative rules claim only their
 * hosts; a rule group (the ClearURLs pack) answers on the text with `actsOn`. `undefined` when
 * a rule is user code, whose `match` may look at anything: every URL is built and asked.
 * Built once per lookup.
 *
 * @example
 * ```ts
 * ruleTextGate(ruleLookup([...defaultRules, ...pack.rules]))?.("example.com", "https://example.com/"); // false
 * ```
 */
export function ruleTextGate(lookup: RuleLookup): RuleTextGate | undefined {
  let gate = gates.get(lookup);
  if (gate === undefined) {
    gate = compileGate(lookup.rules);
    gates.set(lookup, gate);
  }
  return gate ?? undefined;
}

function compileGate(rules: RuleLookup["rules"]): RuleTextGate | null {
  const exact = new Set<string>();
  const suffixes: string[] = [];
  const groups: Required<Pick<RuleGroup, "actsOn">>[] = [];
  for (const rule of rules) {
    if (rule instanceof DeclaredRule) {
      // A rule that only exempts never matches; any other claims no host outside its domains.
      if (rule.exemptOnly) continue;
      for (const host of rule.hosts.exact) exact.add(host);
      suffixes.push(...rule.hosts.suffixes);
      continue;
    }
    const group = groupOf(rule)?.group;
    if (group?.actsOn === undefined) return null;
    if (!groups.some((g) => g === group)) groups.push(group as Required<Pick<RuleGroup, "actsOn">>);
  }
  const claimsHost = hostClaim(exact, suffixes);
  return (hostname, href) => {
    if (claimsHost(hostname)) return true;
    for (const group of groups) if (group.actsOn(href)) return true;
    return false;
  };
}
