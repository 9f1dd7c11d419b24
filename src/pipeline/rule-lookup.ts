import type { DomainRule } from "../rules/domain-rule.js";
import { createRuleMatcher, DeclaredRule } from "../rules/index.js";
import type { UrlParts } from "../url/url-parts.js";

/** A compiled rules list: a cheap host prefilter in front of the first-match lookup. */
export interface RuleLookup {
  /**
   * False when no rule can claim `hostname`, so the caller can skip building a `URL` for the
   * lookup. Always true when a rule is user code (its `match` may look at anything).
   */
  mayMatch(hostname: string): boolean;
  /** The first rule whose `match` accepts `url` (link-canonical §15: first match wins). */
  find(url: URL): DomainRule | undefined;
  /**
   * The same lookup over a plain record, present when every rule is declarative (they read only
   * the {@link UrlParts} fields): the pipeline then needs no `URL` for the rule's input.
   */
  findParts?: (url: UrlParts) => DeclaredRule | undefined;
}

const cache = new WeakMap<readonly DomainRule[], RuleLookup>();

/**
 * The lookup for one rules array, built once and cached by the array's identity (pass a new array
 * to change the rules).
 *
 * On the bench corpus three quarters of the URLs are on hosts no rule claims; the prefilter spares
 * each of them one WHATWG parse (with the sortedness check, npm run bench went from 7.05x to 5.08x
 * the bare parse).
 *
 * @example
 * ```ts
 * ruleLookup(defaultRules).mayMatch("example.com"); // false
 * ```
 */
export function ruleLookup(rules: readonly DomainRule[]): RuleLookup {
  let lookup = cache.get(rules);
  if (lookup === undefined) {
    lookup = compile(rules);
    cache.set(rules, lookup);
  }
  return lookup;
}

function compile(rules: readonly DomainRule[]): RuleLookup {
  if (!rules.every((r) => r instanceof DeclaredRule))
    return { mayMatch: () => true, find: createRuleMatcher(rules) };
  // One index serves both: a URL is a UrlParts record too.
  const findParts = createRuleMatcher(rules as readonly DeclaredRule[]);
  const exact = new Set<string>();
  const suffixes: string[] = [];
  for (const rule of rules as readonly DeclaredRule[]) {
    for (const host of rule.hosts.exact) exact.add(host);
    suffixes.push(...rule.hosts.suffixes);
  }
  return {
    mayMatch(hostname) {
      if (exact.has(hostname)) return true;
      for (const suffix of suffixes) if (hostname.endsWith(suffix)) return true;
      return false;
    },
    find: findParts,
    findParts,
  };
}
