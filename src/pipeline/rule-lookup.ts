import type { DomainRule } from "../rules/domain-rule.js";

const cache = new WeakMap<readonly DomainRule[], (url: URL) => DomainRule | undefined>();

/**
 * The first rule of `rules` whose `match` accepts `url` (link-canonical §15: first match wins).
 * The lookup for one rules array is built once and cached by the array's identity, so pass a new
 * array to change the rules.
 *
 * @example
 * ```ts
 * findRule([], new URL("https://example.com/")); // undefined
 * ```
 */
export function findRule(rules: readonly DomainRule[], url: URL): DomainRule | undefined {
  if (rules.length === 0) return undefined;
  let lookup = cache.get(rules);
  if (lookup === undefined) {
    const list = [...rules];
    lookup = (u: URL) => list.find((rule) => rule.match(u));
    cache.set(rules, lookup);
  }
  return lookup(url);
}
