import { ownCopy } from "../url/own-copy.js";
import type { UrlParts } from "../url/url-parts.js";
import { DeclaredRule, matchOnHost } from "./declared-rule.js";
import type { DomainRule } from "./domain-rule.js";
import { groupOf, type RuleGroup } from "./rule-group.js";

const NONE: readonly number[] = Object.freeze([]);
const MAX_HOSTS = 1024;
const MAX_HOST_LENGTH = 253;

function push(map: Map<string, number[]>, key: string, index: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [index]);
  else if (list[list.length - 1] !== index) list.push(index);
}

/** {@link createRuleMatcher} over declarative rules only. */
export interface DeclaredRuleMatcher {
  (url: UrlParts): DeclaredRule | undefined;
  /**
   * The rules that claim `host` by their domains, in list order: the candidates the lookup asks
   * in turn (the rule text lane asks them itself). Not remembered: the caller keeps the answer.
   */
  readonly claimants: (host: string) => readonly DeclaredRule[];
}

/**
 * Builds, once, the lookup the pipeline runs per URL: the first rule of `rules` (in list order)
 * whose `match` accepts the URL. Declarative rules are indexed by host: an exact-host `Map` plus,
 * for `*.example.com` domains, a walk over the host's parent names no longer than the longest such
 * domain (bounded by the rules, not the host); only opaque rules
 * (user code) are asked one by one. First-match order holds across both kinds. A host no rule
 * claims costs one `Map` lookup and allocates nothing when there are no wildcard domains or
 * opaque rules.
 *
 * Given only declarative rules, the lookup also takes a plain {@link UrlParts} record: those
 * rules read nothing else.
 *
 * @example
 * ```ts
 * const find = createRuleMatcher(defaultRules);
 * find(new URL("https://youtu.be/dQw4w9WgXcQ"))?.name; // "youtube-v3"
 * find(new URL("https://example.com/"));               // undefined
 * ```
 */
export function createRuleMatcher(rules: readonly DeclaredRule[]): DeclaredRuleMatcher;
export function createRuleMatcher(rules: readonly DomainRule[]): (url: URL) => DomainRule | undefined;
export function createRuleMatcher(
  rules: readonly (DomainRule | DeclaredRule)[],
): (url: URL & UrlParts) => DomainRule | DeclaredRule | undefined {
  const list = [...rules];
  const exact = new Map<string, number[]>();
  const wildcard = new Map<string, number[]>();
  const opaque: number[] = [];
  list.forEach((rule, index) => {
    if (!(rule instanceof DeclaredRule)) {
      opaque.push(index);
      return;
    }
    for (const host of rule.hosts.exact) push(exact, host, index);
    for (const suffix of rule.hosts.suffixes) push(wildcard, suffix.slice(1), index);
  });
  const hasWildcards = wildcard.size > 0;
  // Opaque rules that are consecutive members of one group (in list order and in group order)
  // run as one entry: the group says which of them matches first, in one evaluation.
  const opaqueRuns: { start: number; length: number; group: RuleGroup | undefined }[] = [];
  for (const index of opaque) {
    const member = groupOf(list[index] as DomainRule);
    const last = opaqueRuns[opaqueRuns.length - 1];
    if (
      member !== undefined &&
      last?.group === member.group &&
      last.start + last.length === index &&
      member.offset === last.length
    )
      last.length++;
    else
      opaqueRuns.push({
        start: index,
        length: 1,
        group: member !== undefined && member.offset === 0 ? member.group : undefined,
      });
  }
  const hasGroups = opaqueRuns.some((run) => run.group !== undefined && run.length > 1);

  const firstOpaque = (url: URL & UrlParts, best: number): number => {
    for (const run of opaqueRuns) {
      if (run.start >= best) return best;
      if (run.group !== undefined && run.length > 1) {
        const offset = run.group.first(url);
        if (offset !== -1 && offset < run.length) return Math.min(best, run.start + offset);
        continue;
      }
      for (let index = run.start; index < run.start + run.length; index++) {
        if (index >= best) return best;
        if ((list[index] as DomainRule).match(url)) return index;
      }
    }
    return best;
  };
  // Only parent names no longer than the longest wildcard domain can be one: the walk starts
  // there, so a host of 30,000 labels costs what its last few do (hashing every suffix of it was
  // quadratic in its length).
  let longestSuffix = 0;
  for (const key of wildcard.keys()) longestSuffix = Math.max(longestSuffix, key.length);

  // The same over candidates found by the host's name in the index (declarative rules only, each
  // claiming the host): their match need not look the host up again (one Set probe per
  // candidate; google.com has three).
  const firstOnHost = (candidates: readonly number[], url: URL & UrlParts, best: number): number => {
    for (const index of candidates) {
      if (index >= best) return best;
      if ((list[index] as DeclaredRule)[matchOnHost](url)) return index;
    }
    return best;
  };

  // The first index in `candidates` below `best` whose rule matches, else `best`.
  const firstMatch = (candidates: readonly number[], url: URL & UrlParts, best: number): number => {
    for (const index of candidates) {
      if (index >= best) return best;
      if ((list[index] as DomainRule | DeclaredRule).match(url)) return index;
    }
    return best;
  };

  // The declarative rules that claim a host, exact and wildcard ones merged in list order.
  const candidatesOf = (host: string): readonly number[] => {
    let found = exact.get(host) ?? NONE;
    if (hasWildcards) {
      // "*.example.com" claims every proper subdomain: try each parent name of the host.
      const from = Math.max(0, host.length - longestSuffix - 1);
      for (let dot = host.indexOf(".", from); dot !== -1; dot = host.indexOf(".", dot + 1)) {
        const more = wildcard.get(host.slice(dot + 1));
        if (more !== undefined) found = [...new Set([...found, ...more])].sort((a, b) => a - b);
      }
    }
    return found;
  };
  // Remembered per host name: a stream of links comes back to the same hosts, and the walk over
  // the parent names (a slice and a Map probe each) was most of the lookup on a host with one rule.
  // Bounded like the pipeline's other host memos; a name longer than DNS allows is not kept.
  const byHost = new Map<string, readonly number[]>();

  const find = (url: URL & UrlParts): DomainRule | DeclaredRule | undefined => {
    const host = url.hostname;
    let candidates = byHost.get(host);
    if (candidates === undefined) {
      candidates = candidatesOf(host);
      if (host.length <= MAX_HOST_LENGTH) {
        if (byHost.size >= MAX_HOSTS) byHost.clear();
        // A key of its own: a host sliced off a long link would keep the link alive.
        byHost.set(ownCopy(host), candidates);
      }
    }
    let best = firstOnHost(candidates, url, list.length);
    if (hasGroups) best = firstOpaque(url, best);
    else if (opaque.length > 0) best = firstMatch(opaque, url, best);
    return best < list.length ? list[best] : undefined;
  };
  return Object.assign(find, {
    claimants: (host: string) => candidatesOf(host).map((index) => list[index] as DeclaredRule),
  });
}
