import { RuleError } from "../../errors/rule-error.js";
import type { TrackingLayer } from "../../pipeline/tracking-layer.js";
import type { DomainRule } from "../domain-rule.js";
import { RULE_GROUP, type RuleGroup } from "../rule-group.js";
import { type ClearUrlsOutcome, runClearUrls } from "./clear-urls-pass.js";
import { createPrefilter } from "./clear-urls-prefilter.js";
import { type ClearUrlsProvider, compileProvider } from "./clear-urls-provider.js";

/**
 * Options of {@link compileClearUrls}.
 *
 * @example
 * ```ts
 * compileClearUrls(data, { allowReferralMarketing: true });
 * ```
 */
export interface ClearUrlsOptions {
  /**
   * Keep the providers' `referralMarketing` parameters (Amazon's `tag`), as the add-on does when
   * its "allow referral marketing" switch is on.
   * @default false
   */
  allowReferralMarketing?: boolean;
  /**
   * The pack leaves a longer URL alone: ClearURLs regexes come from a replaceable file, and this
   * bounds what any of them can cost (measured over hostile 8,192-character URLs: the slowest
   * provider's regexes cost under one normalize() of the same URL, docs/clearurls.md).
   * @default 8192
   */
  maxUrlLength?: number;
}

/**
 * A compiled ClearURLs provider list: the rules to put after canonurl's own, and what compiling
 * found.
 *
 * @example
 * ```ts
 * const pack = compileClearUrls(data);
 * normalize(url, { rules: [...defaultRules, ...pack.rules] });
 * ```
 */
export interface ClearUrlsPack {
  /** One rule per compiled provider, named `clearurls:<provider>`, in the data file's order. */
  readonly rules: readonly DomainRule[];
  /** Providers in the data, and how many compiled. */
  readonly providers: number;
  readonly compiled: number;
  /** Providers that did not compile, with why. */
  readonly skipped: readonly { provider: string; reason: string }[];
  /** How many compiled providers the host index keys; the rest are tested on every URL. */
  readonly keyed: number;
  /** The add-on's whole pass over one URL string (no canonurl normalization around it). */
  clean(url: string): ClearUrlsOutcome;
  /**
   * The pack as a tracking layer (`trackingLayers: [pack.layer]`): after the rule that claimed a
   * URL, it removes the query parameters the providers remove, and unwraps their redirections.
   * It never claims a URL, blocks nothing, and ignores rawRules' edits of the path.
   */
  readonly layer: TrackingLayer;
}

interface Memo {
  url: URL | undefined;
  href: string;
  /** The rule position that asked last: a lower or equal one starts a new scan. */
  asked: number;
  outcome: ClearUrlsOutcome | undefined;
}

/**
 * Compiles ClearURLs data (the parsed `data.min.json`: `{ providers: { name: {...} } }`) into
 * domain rules. A provider that does not compile is skipped and listed in `skipped`; data that is
 * not a provider list throws `RuleError` (`invalid-rule`).
 *
 * How the rules run in `normalize()` (first match wins): appended after canonurl's rules, they act
 * only on URLs none of ours claims. The rule of provider P matches a URL when P is the first
 * provider whose step changes it (or blocks or unwraps it); its `apply` returns the URL after every
 * matching provider ran, in data order, as the add-on leaves it. One evaluation per URL serves all
 * the rules: a host index picks the candidate providers, so a URL costs a few regex tests, not one
 * per provider. A blocked URL (`completeProvider`) keeps its form: a canonical name is not a
 * request, and `ruleApplied` says which provider would block it.
 *
 * @example
 * ```ts
 * const pack = compileClearUrls(JSON.parse(text));
 * normalize("https://shop.example/?utm_source=x", { rules: [...defaultRules, ...pack.rules] });
 * ```
 */
export function compileClearUrls(data: unknown, options: ClearUrlsOptions = {}): ClearUrlsPack {
  if (typeof options !== "object" || options === null)
    throw new TypeError("compileClearUrls: options must be an object");
  for (const key of Object.keys(options))
    if (key !== "allowReferralMarketing" && key !== "maxUrlLength")
      throw new TypeError(`compileClearUrls: unknown option "${key}"`);
  const allowReferral = options.allowReferralMarketing ?? false;
  if (typeof allowReferral !== "boolean")
    throw new TypeError("compileClearUrls: allowReferralMarketing must be a boolean");
  const maxUrlLength = options.maxUrlLength ?? 8192;
  if (!Number.isInteger(maxUrlLength) || maxUrlLength < 1)
    throw new TypeError("compileClearUrls: maxUrlLength must be a positive integer");

  const providersData = (data as { providers?: unknown } | null)?.providers;
  if (
    typeof data !== "object" ||
    data === null ||
    typeof providersData !== "object" ||
    providersData === null ||
    Array.isArray(providersData)
  )
    throw new RuleError("invalid-rule", "ClearURLs data must be an object with a providers object", {
      problems: [{ path: "providers", message: "must be an object of providers" }],
    });
  const providers: ClearUrlsProvider[] = [];
  const skipped: { provider: string; reason: string }[] = [];
  const entries = Object.entries(providersData as Record<string, unknown>);
  for (const [name, raw] of entries) {
    try {
      providers.push(compileProvider(name, raw, providers.length, allowReferral));
    } catch (error) {
      skipped.push({ provider: name, reason: (error as Error).message });
    }
  }
  const prefilter = createPrefilter(providers);

  // Text with a line terminator is no serialized URL, and the providers' regexes are compiled
  // for text without one (anchorLeadingDotStar): left alone.
  const evaluateText = (href: string): ClearUrlsOutcome =>
    href.length > maxUrlLength || /[\n\r\u2028\u2029]/.test(href)
      ? { href, acted: -1, kind: "untouched" }
      : runClearUrls(href, providers, prefilter.candidates(href));
  // The pass is a pure function of the text: the last answer serves again when the same text is
  // asked (the pipeline asks actsOn on the text, then the lookup asks on the URL built from it).
  let lastHref: string | undefined;
  let lastOutcome: ClearUrlsOutcome = { href: "", acted: -1, kind: "untouched" };
  const evaluate = (href: string): ClearUrlsOutcome => {
    if (href !== lastHref) {
      lastOutcome = evaluateText(href);
      lastHref = href;
    }
    return lastOutcome;
  };

  // The pipeline asks every rule of the list, in order, about one URL object; the first asker
  // evaluates and the rest read the memo. A rule at or before the last asker starts a new scan,
  // so a URL object changed between two scans is evaluated again.
  const memo: Memo = { url: undefined, href: "", asked: -1, outcome: undefined };
  // The URL object the last apply() returned, and whether the rule still claims it: a cleaned URL
  // is the rule's own output (the pipeline then runs its final pass), an unwrapped target is a new
  // link (the pipeline runs it from the start).
  let lastOutput: URL | undefined;
  let lastClaimed = -1;

  const outcomeFor = (url: URL, position: number): ClearUrlsOutcome | undefined => {
    if (url === lastOutput) return undefined;
    if (url !== memo.url || position <= memo.asked) {
      memo.url = url;
      memo.href = url.href;
      memo.outcome = evaluate(memo.href);
    }
    memo.asked = position;
    return memo.outcome;
  };

  // The lookup asks the group once per URL instead of each of the pack's rules in turn; the
  // answer is the one the rules' own match() calls give.
  const group: RuleGroup = {
    first(url: URL): number {
      if (url === lastOutput) return lastClaimed;
      memo.url = url;
      memo.href = url.href;
      memo.outcome = evaluate(memo.href);
      memo.asked = providers.length;
      return memo.outcome.acted;
    },
    actsOn(href: string): boolean {
      return evaluate(href).acted !== -1;
    },
  };

  const rules: DomainRule[] = providers.map((provider, position) => {
    const name = `clearurls:${provider.name}`;
    return Object.freeze({
      [RULE_GROUP]: Object.freeze({ group, offset: position }),
      name,
      match(url: URL): boolean {
        if (url === lastOutput) return lastClaimed === position;
        return outcomeFor(url, position)?.acted === position;
      },
      apply(url: URL): URL {
        // The scan's evaluation when this is the URL it read (checked by text: apply may be
        // handed an object changed since), else a fresh one.
        const href = url.href;
        const outcome =
          url === memo.url && memo.outcome !== undefined && memo.href === href
            ? memo.outcome
            : evaluate(href);
        const out = new URL(outcome.href, url);
        lastOutput = out;
        lastClaimed = outcome.kind === "redirected" ? -1 : position;
        memo.url = undefined;
        return out;
      },
    });
  });

  const layer: TrackingLayer = Object.freeze({
    name: "clearurls",
    inspect(href: string) {
      const outcome = evaluate(href);
      if (outcome.kind === "redirected") return { unwrap: outcome.href };
      if (outcome.kind !== "cleaned") return undefined;
      // The names the providers removed from the query, counted: a name repeated in the input
      // and kept once in the output was removed once, and is kept.
      const gone = removedNames(href, outcome.href);
      return gone.size === 0 ? undefined : { remove: (name: string) => gone.has(name) };
    },
  });

  return Object.freeze({
    layer,
    rules: Object.freeze(rules),
    providers: entries.length,
    compiled: providers.length,
    skipped: Object.freeze(skipped),
    keyed: prefilter.keyed,
    clean: (url: string) => evaluateText(url),
  });
}

function queryNames(href: string): string[] {
  const hashAt = href.indexOf("#");
  const end = hashAt === -1 ? href.length : hashAt;
  const q = href.indexOf("?");
  if (q === -1 || q > end) return [];
  return href
    .slice(q + 1, end)
    .split("&")
    .filter((p) => p !== "")
    .map((p) => {
      const eq = p.indexOf("=");
      return eq === -1 ? p : p.slice(0, eq);
    });
}

// Names present in `before`'s query and absent from `after`'s: what the providers removed.
function removedNames(before: string, after: string): Set<string> {
  const left = new Set(queryNames(after));
  const gone = new Set<string>();
  for (const name of queryNames(before)) if (!left.has(name)) gone.add(name);
  return gone;
}
