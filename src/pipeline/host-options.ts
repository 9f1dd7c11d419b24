import type { DeclaredRule } from "../rules/declared-rule.js";
import { stripTrailingDot } from "../url/host.js";
import { ownCopy } from "../url/own-copy.js";
import { hostTrackingNames } from "./host-tracking.js";
import type { ResolvedNormalizeOptions } from "./resolve-normalize-options.js";
import type { RuleLookup } from "./rule-lookup.js";
import { createTrackingMatcher } from "./tracking-matcher.js";

const NONE: readonly string[] = Object.freeze([]);
const perHost = new WeakMap<
  ResolvedNormalizeOptions,
  Map<readonly string[], Map<readonly string[], ResolvedNormalizeOptions>>
>();
// Per options object, the answer for each host name as the URL spells it. The answer depends on
// nothing else (the rule lookup is the options' own), and the same hosts come back again and
// again in a stream of links: one Map probe replaces the trailing-dot check, the exemptions'
// lookup and one Map probe per label of the host (measured with --cpu-prof over the bench corpus:
// hostTrackingNames alone was 2.3% of normalize's samples, 3.0% on the golden corpus).
const byHostname = new WeakMap<ResolvedNormalizeOptions, Map<string, HostFacts>>();
// Bounded like the pipeline's other memos: a stream of distinct hosts cannot grow it without end.
const MAX_HOSTS = 1024;
let lastOptions: ResolvedNormalizeOptions | undefined;
let lastMemo: Map<string, HostFacts> | undefined;
let lastHost: string | undefined;
let lastFacts: HostFacts | undefined;

/** What the pipeline needs to know of one host name under one options object. */
export interface HostFacts {
  /** Whether a rule of the options' list may claim the host (`RuleLookup.mayMatch`). */
  readonly claimed: boolean;
  /** The options as the tracking passes use them on the host (see {@link withExemptions}). */
  readonly options: ResolvedNormalizeOptions;
  /**
   * On a claimed host of a list of declarative rules only: the rules that claim it, in list order
   * (`RuleLookup.claimants`), for the rule text lane. Asked once per host, with the claim.
   */
  readonly rules?: readonly DeclaredRule[] | undefined;
}

/**
 * The options as the tracking passes use them on `hostname`: the host-scoped tier's names for the
 * host added to the deny patterns (data/tracking-params.yaml, `hostScoped`), and the rules'
 * `exemptParams` for the host added to keepParams' place in the matcher. Built once per options
 * object, exemption list and host-tier list, and remembered per host name (at most 1,024 hosts per
 * options object); `options` itself when neither applies or nothing is stripped.
 *
 * @example
 * ```ts
 * const options = resolveNormalizeOptions(undefined);
 * withExemptions(options, ruleLookup(options.rules), "example.com") === options; // true
 * withExemptions(options, ruleLookup(options.rules), "youtu.be").isTracking("si"); // true
 * ```
 */
export function withExemptions(
  options: ResolvedNormalizeOptions,
  lookup: RuleLookup | undefined,
  hostname: string,
): ResolvedNormalizeOptions {
  if (!options.stripTracking) return options;
  return hostFacts(options, lookup, hostname).options;
}

/**
 * Both facts of a host the fast path asks on every link, from one memo probe: whether a rule may
 * claim it, and the options with its exemptions ({@link withExemptions}). `lookup` must be the
 * options' own rule lookup (`undefined` for an empty list). Measured on the golden corpus's links
 * the fast path settles: the claim test and the exemptions' probe apart cost ~55 and ~70 ns.
 *
 * @example
 * ```ts
 * const options = resolveNormalizeOptions(undefined);
 * hostFacts(options, ruleLookup(options.rules), "youtu.be").claimed; // true
 * ```
 */
export function hostFacts(
  options: ResolvedNormalizeOptions,
  lookup: RuleLookup | undefined,
  hostname: string,
): HostFacts {
  // Nothing to know of a host without rules or tracking removal (the rfc3986 preset): no probe,
  // which cost the seeded corpus ~0.1x the bare parse there (a fresh host string hashed per link).
  if (lookup === undefined && !options.stripTracking) return { claimed: false, options };
  // A caller uses one options object for a whole stream: the last one's memo spares the WeakMap
  // probe (~20 ns, measured alone) on every call but the first after a change.
  // The text lane and the rule path ask twice per link for one host string: a compare, no probe.
  if (hostname === lastHost && options === lastOptions && lastFacts !== undefined) return lastFacts;
  lastFacts = undefined;
  let memo = options === lastOptions ? lastMemo : byHostname.get(options);
  if (memo === undefined) {
    memo = new Map();
    byHostname.set(options, memo);
  }
  lastOptions = options;
  lastMemo = memo;
  let out = memo.get(hostname);
  if (out === undefined) {
    const claimed = lookup?.mayMatch(hostname) ?? false;
    out = Object.freeze({
      claimed,
      options: options.stripTracking ? compute(options, lookup, hostname) : options,
      rules: claimed ? lookup?.claimants?.(hostname) : undefined,
    });
    if (memo.size >= MAX_HOSTS) memo.clear();
    // The text lane slices the host off the link: a key of its own, not a view of the link.
    memo.set(ownCopy(hostname), out);
  }
  lastHost = hostname;
  lastFacts = out;
  return out;
}

function compute(
  options: ResolvedNormalizeOptions,
  lookup: RuleLookup | undefined,
  hostname: string,
): ResolvedNormalizeOptions {
  const host = stripTrailingDot(hostname);
  const names = lookup?.exemptFor(host) ?? NONE;
  const scoped = hostTrackingNames(host) ?? NONE;
  if (names === NONE && scoped === NONE) return options;
  let byNames = perHost.get(options);
  if (byNames === undefined) {
    byNames = new Map();
    perHost.set(options, byNames);
  }
  let byScoped = byNames.get(names);
  if (byScoped === undefined) {
    if (byNames.size >= MAX_HOSTS) byNames.clear();
    byScoped = new Map();
    byNames.set(names, byScoped);
  }
  let out = byScoped.get(scoped);
  if (out === undefined) {
    out = Object.freeze({
      ...options,
      isTracking: createTrackingMatcher(
        scoped === NONE ? options.trackingParams : [...options.trackingParams, ...scoped],
        names === NONE ? options.keepParams : [...options.keepParams, ...names],
      ),
    });
    byScoped.set(scoped, out);
  }
  return out;
}
